/* dlclosed PLUGIN.so: loads the plugin, has it allocate three blocks of
   100 bytes (kept live to the end), unloads it, then exits.  The blocks'
   site lies in code that is gone when the profile is written: with
   --keep-debuginfo=yes Valgrind keeps the plugin's debug information, and
   the site's innermost frame is still named plugin_make. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
   void* handle;
   void* (*make)(size_t);
   void* blocks[3];
   int i;
   if (argc < 2) return 2;
   handle = dlopen(argv[1], RTLD_NOW);
   if (handle == NULL) {
      fprintf(stderr, "dlclosed: %s\n", dlerror());
      return 1;
   }
   make = (void* (*)(size_t))dlsym(handle, "plugin_make");
   if (make == NULL) return 1;
   for (i = 0; i < 3; i++) blocks[i] = make(100);
   dlclose(handle);
   return blocks[0] == NULL || blocks[1] == NULL || blocks[2] == NULL;
}
