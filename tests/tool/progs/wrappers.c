/* Allocator wrappers are not site names: a block made by strdup() inside
   copy_name() is named copy_name. */
#include <stdlib.h>
#include <string.h>

static char* copy_name(const char* name)
{
   return strdup(name);                         /* SITE strdup */
}

int main(void)
{
   char* copy = copy_name("lifeheap");          /* SITE call_copy */
   int ok = strcmp(copy, "lifeheap") == 0;
   free(copy);
   return !ok;
}
