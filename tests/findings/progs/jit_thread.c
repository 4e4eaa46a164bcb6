/* A block allocated by code that has neither an object file nor a symbol:
   generated machine code (as a JIT or a packer would make it) run as a
   thread's start routine.  Its stack is the allocator, one frame in an
   anonymous mapping, and libc's thread start-up: nothing in it is code a
   user could name, so the 1 MiB block it allocates and never touches must
   not become a finding, and no frame without object and function may name
   the site.  Expected from the source: one site of 1 block, 1,048,576 bytes,
   never accessed, live at exit. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { BLOCK_BYTES = 1 << 20 };

int main(void)
{
   /* sub rsp,8; mov edi,BLOCK_BYTES; movabs rax,malloc; call rax; add rsp,8; ret */
   unsigned char code[] = {
      0x48, 0x83, 0xec, 0x08,
      0xbf, 0, 0, 0, 0,
      0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0,
      0xff, 0xd0,
      0x48, 0x83, 0xc4, 0x08,
      0xc3,
   };
   uint32_t size = BLOCK_BYTES;
   void* (*allocator)(size_t) = malloc;
   memcpy(code + 5, &size, sizeof size);
   memcpy(code + 11, &allocator, sizeof allocator);

   unsigned char* page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (page == MAP_FAILED) { perror("mmap"); return 1; }
   memcpy(page, code, sizeof code);

   pthread_t thread;
   void* block = NULL;
   if (pthread_create(&thread, NULL, (void* (*)(void*))(void*)page, NULL) != 0
       || pthread_join(thread, &block) != 0 || block == NULL) {
      fprintf(stderr, "generated code failed\n");
      return 1;
   }
   printf("allocated by generated code: %p\n", block);
   return 0;
}
