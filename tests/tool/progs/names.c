/* Which frame names a site (docs/metrics.md, "Name frame"):
   - a function whose name says it allocates is a wrapper, in snake_case
     (checked_realloc) or camelCase (DbMallocZero, as sqlite3's
     sqlite3DbMallocZero): its caller names the site;
   - a function that merely contains the letters is not:
     preallocate_tables and reallocate_index name their own sites;
   - a frame without a name (a static function of a stripped library,
     names_lib.c) does not name a site: its named caller lib_make does;
   nor does it tell two sites apart in the summary (lib_via_a, lib_via_b).
   Sizes tell the sites apart: 24, 40, 56, 72, 88, 104, 120, and lib_pair's
   136 and 152 bytes. */
#include <stdlib.h>
#include <string.h>

void* lib_make(size_t n);                       /* names_lib.c, stripped */
void* lib_via_a(size_t n);
void* lib_via_b(size_t n);
void lib_pair(void** a, void** b);

static void* checked_realloc(void* p, size_t n)
{
   void* q = realloc(p, n);
   if (q == NULL) abort();
   return q;
}

static void* DbMallocZero(size_t n)
{
   void* p = malloc(n);
   if (p) memset(p, 0, n);
   return p;
}

static void* grow_names(void)
{
   return checked_realloc(NULL, 24);            /* SITE grow_names */
}

static void* make_record(void)
{
   return DbMallocZero(40);                     /* SITE make_record */
}

static void* reallocate_index(void)
{
   return realloc(NULL, 120);                   /* SITE reallocate_index */
}

static void* preallocate_tables(void)
{
   return malloc(56);                           /* SITE preallocate_tables */
}

int main(void)
{
   void* blocks[9];
   blocks[0] = grow_names();
   blocks[1] = make_record();
   blocks[2] = preallocate_tables();
   blocks[3] = lib_make(72);
   blocks[4] = lib_via_a(88);
   blocks[5] = lib_via_b(104);
   blocks[6] = reallocate_index();
   lib_pair(&blocks[7], &blocks[8]);
   for (int i = 0; i < 9; i++) free(blocks[i]);
   return 0;
}
