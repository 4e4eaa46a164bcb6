/* plugin.c: a shared library that allocates for its caller (dlclosed.c
   loads it, calls plugin_make, then unloads it). */
#include <stdlib.h>

void* plugin_make(size_t size)
{
   return malloc(size);
}
