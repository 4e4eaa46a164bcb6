/* lh_frame_class.h: which frames are allocator or library code
   (lh_frame_class.c). SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LH_FRAME_CLASS_H
#define LH_FRAME_CLASS_H

#include "pub_tool_basics.h"
#include "lh_include.h"

/* Allocators, allocation wrappers and the standard libraries' namespaces. */
Bool LH_(is_allocator_frame)(const HChar* fn);
/* Only the functions that allocate (malloc and its wrappers, operator
   new, Rust's alloc::alloc), without the standard libraries' namespaces. */
Bool LH_(is_allocator_function)(const HChar* fn);
/* Library code by where it lives (any argument may be NULL). */
Bool LH_(is_library_location)(const HChar* file, const HChar* dir,
                              const HChar* object);
/* A directory of a Rust dependency's sources as cargo fetched them. */
Bool LH_(is_dependency_directory)(const HChar* dir);
/* The crate of a Rust function ("regex" for "regex::compile::Compiler::c"
   and "<regex::exec::Exec as T>::f"), in buf; False when it has none. */
Bool LH_(rust_crate_of)(const HChar* fn, HChar* buf, SizeT size);

#endif
