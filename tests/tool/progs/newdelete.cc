// C++ allocation forms: new/delete, new[]/delete[], aligned new, nothrow
// new, sized delete.
#include <new>
#include <vector>

struct alignas(64) Wide { char bytes[192]; };
struct Plain { long a, b, c; };   // 24 bytes

// The site of a growing vector is named by the function that pushes, not
// by std::vector or allocator internals.
static void fill_vector(std::vector<int>& v)
{
   for (int i = 0; i < 100; i++)
      v.push_back(i);                           // SITE push_back
}

int main()
{
   std::vector<int> numbers;
   fill_vector(numbers);
   Plain* one = new Plain;                      // SITE new
   int* many = new int[10];                     // SITE new_array
   Wide* wide = new Wide;                       // SITE new_aligned
   Wide* wides = new Wide[2];                   // SITE new_aligned_array
   Plain* nothrow = new (std::nothrow) Plain;   // SITE new_nothrow
   if (reinterpret_cast<unsigned long>(wide) % 64 != 0) return 2;
   ::operator delete(one, sizeof(Plain));       // sized delete
   delete[] many;
   delete wide;
   delete[] wides;
   delete nothrow;
   return 0;
}
