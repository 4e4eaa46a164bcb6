/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_frame_class.c: which frames are allocator or    ---*/
/*--- library code, by their name and their place.                 ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   A site is named by its innermost frame of the program's own code
   (lh_symbols.c chooses it); these rules say which frames are not:

     - allocators and allocation wrappers by name (malloc, operator new,
       __rust_alloc, sqlite3Malloc...), and with them the standard
       libraries' namespaces as a whole (std::, alloc::, core::,
       __gnu_cxx::, hashbrown::): LH_(is_allocator_frame);
       LH_(is_allocator_function) is the narrower set of functions that
       allocate, without the namespaces;
     - code by where it lives (LH_(is_library_location)): the standard
       libraries' sources (Rust's /rustc/<hash>/library, libstdc++'s
       headers), a Rust program's dependencies as cargo fetched them
       (LH_(is_dependency_directory)), the shared objects of the C, C++
       and Python runtimes, allocator sources built into a program.

   LH_(rust_crate_of) gives the crate of a Rust function, for the classing
   of a dependency's functions as a whole (lh_symbols.c).
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "lh_include.h"
#include "lh_frame_class.h"

/* The crates cargo fetched into its registry (~/.cargo/registry/src/...,
   Debian's /usr/share/cargo/registry/...) or from git: a Rust program's
   dependencies, code its authors did not write and do not edit. */
Bool LH_(is_dependency_directory)(const HChar* dir)
{
   return VG_(strstr)(dir, "/.cargo/registry/") != NULL
          || VG_(strstr)(dir, "/cargo/registry/") != NULL
          || VG_(strstr)(dir, "/.cargo/git/checkouts/") != NULL;
}

static Bool starts_with(const HChar* s, const HChar* prefix)
{
   return VG_(strncmp)(s, prefix, VG_(strlen)(prefix)) == 0;
}

static Bool is_letter(HChar c)
{
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Allocators and generic allocation wrappers: a frame in one of these
   says how memory was allocated, not what for.  With whole_libraries,
   standard libraries count as wrappers as a whole (std::vector::push_back,
   alloc::vec::Vec::push, hashbrown's tables...): the interesting frame is
   the program's call.  Without, only the functions that allocate:
   malloc and its wrappers, operator new, Rust's alloc::alloc. */
static Bool allocator_name(const HChar* fn, Bool whole_libraries)
{
   static const HChar* const exact[] = {
      "malloc", "calloc", "realloc", "free", "memalign", "posix_memalign",
      "aligned_alloc", "valloc", "pvalloc", "reallocarray", "strdup",
      "strndup", "xmalloc", "xcalloc", "xrealloc", "xstrdup", "xmemdup",
      "g_malloc", "g_malloc0", "g_realloc", "g_try_malloc", "g_try_malloc0",
      "g_malloc_n", "g_malloc0_n", "g_realloc_n", "g_slice_alloc",
      "g_slice_alloc0", "g_strdup", "g_memdup", "g_memdup2",
      "__cxa_allocate_exception", "__libc_malloc", "__libc_calloc",
      "__libc_realloc", "__libc_memalign", NULL
   };
   static const HChar* const prefixes[] = {
      /* Rust */
      "__rust_", "__rdl_", "__rg_", "alloc::alloc::",
      /* C++ */
      "operator new", "operator delete",
      /* C helpers; CPython's allocator family */
      "g_malloc", "g_realloc", "PyMem_", "_PyMem_", "pymalloc_",
      "PyObject_Malloc", "PyObject_Calloc", "PyObject_Realloc",
      "_PyObject_Malloc", "_PyObject_Calloc", "_PyObject_Realloc", NULL
   };
   static const HChar* const library_namespaces[] = {
      "alloc::", "core::", "std::", "hashbrown::", "__gnu_cxx::", NULL
   };
   /* Any other function whose name says it allocates: a library's or a
      program's own wrapper (sqlite3Malloc, sqlite3DbMallocRawNN,
      checked_realloc, CRYPTO_malloc...), where the word is a part of the
      name of its own: it starts the name, follows a non-letter or starts a
      capitalised part, and ends the name, a non-letter or a capital
      follows.  Not "alloc" alone (alloc_buffer_for_x builds something),
      nor "preallocate_tables" or "reallocate_rows". */
   static const HChar* const wrapper_words[] = { "malloc", "calloc", "realloc", NULL };
   const HChar* s = fn;
   Int i, w;
   if (fn == NULL) return False;
   for (i = 0; exact[i]; i++)
      if (VG_(strcmp)(fn, exact[i]) == 0) return True;
   for (i = 0; fn[i] && fn[i] != '('; i++) {
      if (i > 0 && is_letter(fn[i - 1]) && !(fn[i] >= 'A' && fn[i] <= 'Z'))
         continue;
      for (w = 0; wrapper_words[w]; w++) {
         SizeT len = VG_(strlen)(wrapper_words[w]);
         HChar after;
         if (VG_(strncasecmp)(fn + i, wrapper_words[w], len) != 0) continue;
         /* ... and ends the name or a part of it: not "reallocate_rows". */
         after = fn[i + len];
         if (!is_letter(after) || (after >= 'A' && after <= 'Z'))
            return True;
      }
   }
   /* C++ templates demangle with their return type first
      ("void std::vector<int>::_M_realloc_insert<int>(...)"): skip one
      plain word before the name. */
   for (i = 0; s[i] && s[i] != ' ' && s[i] != '(' && s[i] != '<' && s[i] != ':'; i++) ;
   if (s[i] == ' ') s += i + 1;
   /* "<alloc::vec::Vec<T> as ...>::f", "<[T] as alloc::...>::f" */
   if (s[0] == '<') {
      s++;
      if (s[0] == '[' || s[0] == '&' || (s[0] == 'T' && s[1] == ' ')) {
         const HChar* as = VG_(strstr)(s, " as ");
         if (as) s = as + 4;
      }
   }
   for (i = 0; prefixes[i]; i++)
      if (starts_with(s, prefixes[i])) return True;
   for (i = 0; whole_libraries && library_namespaces[i]; i++)
      if (starts_with(s, library_namespaces[i])) return True;
   return False;
}

Bool LH_(is_allocator_frame)(const HChar* fn)
{
   return allocator_name(fn, True);
}

Bool LH_(is_allocator_function)(const HChar* fn)
{
   return allocator_name(fn, False);
}

/* Code from the C, C++ or Rust standard libraries or from an allocator,
   found by where its source or object lives.  Inlined frames need this: their names are the
   short DWARF names ("allocate", "with_capacity<u32>"), without the
   "alloc::" path that would identify them. */
Bool LH_(is_library_location)(const HChar* file, const HChar* dir,
                             const HChar* object)
{
   static const HChar* const source_dirs[] = {
      "/rustc/",            /* Rust's std, core, alloc (remapped paths) */
      "/library/alloc/", "/library/core/", "/library/std/",
      "/include/c++/",      /* libstdc++ headers */
      "/hashbrown-",        /* std's HashMap implementation */
      NULL
   };
   static const HChar* const objects[] = {
      "libc.so", "libc-", "libstdc++.so", "libgcc_s.so", "ld-linux",
      "libm.so", "libpthread.so", "libglib-2.0.so",
      /* The CPython interpreter: a Python program's runtime, as libstdc++
         is a C++ program's (its object arenas and list growth are not
         the script's code to change) */
      "python3", "libpython3", NULL
   };
   /* Allocator implementations compiled into the program itself. */
   static const HChar* const allocator_files[] = {
      "obmalloc.c",         /* CPython's small-object allocator */
      "xmalloc.c", NULL
   };
   Int i;
   if (file) {
      for (i = 0; allocator_files[i]; i++)
         if (VG_(strcmp)(file, allocator_files[i]) == 0) return True;
   }
   if (dir) {
      if (LH_(is_dependency_directory)(dir)) return True;
      for (i = 0; source_dirs[i]; i++)
         if (VG_(strstr)(dir, source_dirs[i])) return True;
      if (starts_with(dir, "library/")) return True;
   }
   if (object) {
      const HChar* base = VG_(strrchr)(object, '/');
      base = base ? base + 1 : object;
      for (i = 0; objects[i]; i++)
         if (starts_with(base, objects[i])) return True;
      /* CPython's standard extension modules (_json, _pickle, ...) */
      if (VG_(strstr)(object, "/lib-dynload/")) return True;
   }
   return False;
}


/* The crate a Rust function belongs to: the first component of its path
   ("regex" for "regex::compile::Compiler::push_hole" and for
   "<regex::exec::ExecNoSync as regex::re_trait::RegularExpression>::f"),
   written to buf; False when the name has no such path. */
Bool LH_(rust_crate_of)(const HChar* fn, HChar* buf, SizeT size)
{
   SizeT i;
   if (fn == NULL) return False;
   if (fn[0] == '<') fn++;
   for (i = 0; fn[i] && (is_letter(fn[i]) || (fn[i] >= '0' && fn[i] <= '9')
                         || fn[i] == '_'); i++) ;
   if (i == 0 || i + 1 >= size || fn[i] != ':' || fn[i + 1] != ':') return False;
   VG_(memcpy)(buf, fn, i);
   buf[i] = 0;
   return True;
}

/*--------------------------------------------------------------------*/
/*--- end                                        lh_frame_class.c ---*/
/*--------------------------------------------------------------------*/
