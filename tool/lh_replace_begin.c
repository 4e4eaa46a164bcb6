/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_replace_begin.c: where the preload's string and ---*/
/*--- memory functions begin.                                      ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The preload is linked as

      lh_replace_begin.o  lh_replace_strmem.o  lh_replace_str.o
      lh_replace_wcs.o  lh_replace_end.o  (Valgrind's malloc replacement)

   and the linker lays their code out in that order, so the code of the
   string and memory functions (lh_replace_*.c) is exactly the addresses
   from this function to lh_replace_code_end (lh_replace_end.c).  The
   tool finds the two by name in the preload's dynamic symbol table
   (lh_alloc_stacks.c, LH_(in_replacement_code)) and does not count the
   instructions between them in the run's clock (lh_instrument.c): the
   preload needs no line table for that, so it is installed without its
   debug information, which Valgrind would otherwise read and keep.

   Every replacement file is compiled with -fno-reorder-functions and
   -fno-reorder-blocks-and-partition, so that none of its code goes to
   .text.unlikely or .text.hot, which the linker places before all the
   rest; tool/check-replace-range.sh checks the laid-out preload after
   every link.
*/

void lh_replace_code_begin(void) __attribute__((visibility("hidden")));
void lh_replace_code_begin(void)
{
}
