/* Inline frames: built with -O2, make_buffer and wrap_buffer are inlined
   into main, so one code address expands to three frames. */
#include <stdlib.h>

static inline __attribute__((always_inline)) void* make_buffer(unsigned n)
{
   return malloc(n);                            /* SITE inl_make */
}

static inline __attribute__((always_inline)) void* wrap_buffer(unsigned n)
{
   return make_buffer(n * 2);                   /* SITE inl_wrap */
}

int main(int argc, char** argv)
{
   void* p = wrap_buffer(100 + argc);           /* SITE inl_main */
   (void)argv;
   return p == NULL;
}
