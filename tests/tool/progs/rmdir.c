/* Removes the directory its profile is to be written to, so writing the
   profile at the end fails: lifeheap must say so and leave no file. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv)
{
   void* p = malloc(5);                         /* SITE rmdir */
   (void)p;
   return argc > 1 ? (rmdir(argv[1]) != 0) : 2;
}
