/* The kernel's accesses: read() of a 100-byte file into a 4096-byte heap
   buffer writes exactly 100 bytes of it; write() of 50 bytes of another
   heap buffer reads exactly those 50.  Expected: site "read_into_heap"
   written 100, read 0, unused capacity 3996; site "write_from_heap"
   written 64 (by the program), read 50 (by the kernel). */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static char* read_into_heap(const char* path)
{
   char* buf = malloc(4096);
   int fd = open(path, O_RDONLY);
   if (fd < 0 || read(fd, buf, 4096) != 100) exit(2);
   close(fd);
   return buf;
}

static char* write_from_heap(int fd)
{
   volatile char* buf = malloc(64);
   for (int i = 0; i < 64; i++) buf[i] = 'a' + i % 26;
   if (write(fd, (char*)buf, 50) != 50) exit(3);
   return (char*)buf;
}

int main(int argc, char** argv)
{
   if (argc != 2) return 4;
   char* in = read_into_heap(argv[1]);
   int fd = open("/dev/null", O_WRONLY);
   char* out = write_from_heap(fd);
   close(fd);
   free(in);
   free(out);
   return 0;
}
