/* The aligned allocators; each block is checked for its alignment. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

int main(void)
{
   void* m = memalign(64, 100);                 /* SITE memalign */
   void* pm = NULL;
   int rc = posix_memalign(&pm, 128, 200);      /* SITE posix_memalign */
   void* aa = aligned_alloc(256, 512);          /* SITE aligned_alloc */
   void* va = valloc(1000);                     /* SITE valloc */
   void* bad = NULL;
   int bad_rc = posix_memalign(&bad, 3, 10);    /* invalid alignment: EINVAL */
   if (rc != 0 || bad_rc == 0 || bad != NULL) return 2;
   if ((uintptr_t)m % 64 || (uintptr_t)pm % 128 || (uintptr_t)aa % 256 ||
       (uintptr_t)va % 4096) return 3;
   free(m);
   free(pm);
   free(aa);
   /* va stays live at exit */
   return 0;
}
