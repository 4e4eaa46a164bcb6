// A well-behaved C++ program: one vector sized to need, every element used.
// libstdc++ allocates a ~71 KiB emergency exception pool before main that
// the program never touches; that site is all library code, so lifeheap
// must not report it as an oversized preallocation (nor anything else).
#include <cstdio>
#include <vector>

int main()
{
   std::vector<int> values(1000);
   for (int i = 0; i < 1000; i++) values[i] = i;
   long sum = 0;
   for (int v : values) sum += v;
   std::printf("sum %ld\n", sum);
   return sum == 499500 ? 0 : 1;
}
