/* One block of 1000 bytes, never freed: the only heap block of the run. */
#include <stdlib.h>

int main(void)
{
   char* leaked = malloc(1000);                 /* SITE leak */
   leaked[0] = 1;
   return leaked == NULL;
}
