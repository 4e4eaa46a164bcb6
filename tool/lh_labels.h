/* lh_labels.h: function names as readers see them (lh_function_names.c) and
   site labels (lh_labels.c).
   lifeheap is free software: GPL-3.0-or-later. */
#ifndef LH_LABELS_H
#define LH_LABELS_H

#include "pub_tool_basics.h"

/* A function's name as a reader recognises it: its last path component
   with one qualifier (the type or module), without parameters, generic
   arguments or return type:
     "<prealloc::ConnState>::new"            -> "ConnState::new"
     "Session::Session(int)"                 -> "Session::Session"
     "csv_rows::parse_row::{closure#0}"      -> "csv_rows::parse_row::{closure#0}"
     "void std::vector<int>::push_back(int const&)" -> "vector::push_back" */
void LH_(short_function_name)(const HChar* function, HChar* out, SizeT size);
/* The function's whole path without what changes between builds of one
   source (generic arguments, parameters, return type, "<X as Trait>"):
   "alloc::vec::Vec::with_capacity", "std::vector::push_back". */
void LH_(function_path)(const HChar* function, HChar* out, SizeT size);
/* Every path component joined by "::", where a top-level space (a C++
   return type) forgets all that came before it (lh_labels.c's test for
   the allocator's entry points). */
void LH_(function_path_joined)(const HChar* function, HChar* out, SizeT size);

/* "short name (file:line)", "short name (in object)" or "???". */
void LH_(frame_label_text)(UInt frame_id, HChar* out, SizeT size);
/* The same text, made once per frame by the last LH_(labels_build) and
   kept until the next: what labels are made of. */
const HChar* LH_(frame_text)(UInt frame_id);

/* The tree of the labels' pieces (lh_label_tree.c): a node is a piece
   and the node of the pieces before it (LH_NO_LABEL_NODE: none). */
#define LH_NO_LABEL_NODE 0xFFFFFFFFu
/* Forgets every node (a new labels_build). */
void LH_(label_tree_reset)(void);
/* The node of 'piece' after the pieces of node 'parent', made on first
   use: labels that agree so far share it. */
UInt LH_(label_tree_node)(UInt parent, UInt piece);
UInt LH_(label_tree_piece)(UInt node);
UInt LH_(label_tree_parent)(UInt node);
/* The build appended its last piece: the lookup table goes (the labels
   are read through their parents). */
void LH_(label_tree_built)(void);

#endif /* LH_LABELS_H */
