// Throws an exception nobody catches: std::terminate -> abort (SIGABRT).
#include <cstdlib>
#include <stdexcept>
static void* keep;
static void alloc_known() { keep = std::malloc(100); }   // SITE known
int main()
{
   alloc_known();
   throw std::runtime_error("nobody catches this");
}
