// C++ allocation forms: new/delete, new[]/delete[], aligned new, nothrow
// new, sized delete.
#include <new>

struct alignas(64) Wide { char bytes[192]; };
struct Plain { long a, b, c; };   // 24 bytes

int main()
{
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
