/* A library built without debug info and stripped (tests/tool/run.sh):
   the static functions have no symbol left; lib_make, lib_via_a and
   lib_via_b keep their dynamic symbols.  lib_via_a and lib_via_b reach
   lib_make through unnamed static functions: the summary tells their
   sites apart by the named frame after those ("via lib_via_a"). */
#include <stdlib.h>

static __attribute__((noinline)) void* lib_internal_alloc(size_t n)
{
   return malloc(n);
}

void* lib_make(size_t n)
{
   return lib_internal_alloc(n);
}

static __attribute__((noinline)) void* via_a(size_t n)
{
   return lib_make(n);
}

static __attribute__((noinline)) void* via_b(size_t n)
{
   return lib_make(n);
}

void* lib_via_a(size_t n)
{
   return via_a(n);
}

void* lib_via_b(size_t n)
{
   return via_b(n);
}

/* Two blocks made in one call of lib_pair through two unnamed functions:
   two sites named alike with the same callers, told apart by nothing the
   summary could name (never "allocated by ???"). */
static __attribute__((noinline)) void* pair_a(size_t n)
{
   return malloc(n);
}

static __attribute__((noinline)) void* pair_b(size_t n)
{
   return malloc(n);
}

void lib_pair(void** a, void** b)
{
   *a = pair_a(136);
   *b = pair_b(152);
}
