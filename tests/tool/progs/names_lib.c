/* A library built without debug info and stripped (tests/tool/run.sh):
   lib_internal_alloc, static, has no symbol left; lib_make keeps its
   dynamic symbol. */
#include <stdlib.h>

static __attribute__((noinline)) void* lib_internal_alloc(size_t n)
{
   return malloc(n);
}

void* lib_make(size_t n)
{
   return lib_internal_alloc(n);
}
