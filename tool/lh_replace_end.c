/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_replace_end.c: where the preload's string and   ---*/
/*--- memory functions end.                                        ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   Linked right after the last of lh_replace_*.c: this function's address
   is the end of their code (see lh_replace_begin.c).
*/

void lh_replace_code_end(void) __attribute__((visibility("hidden")));
void lh_replace_code_end(void)
{
}
