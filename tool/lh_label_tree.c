/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_label_tree.c: the pieces of the sites' labels,  ---*/
/*--- shared where labels agree.                                   ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The pieces of all site labels (lh_labels.c) form one tree, built
   anew by each labels_build: a node is a piece and the node of the
   pieces before it, and a site's label is its last node
   (LH_SiteOutput.label_node) and its number of pieces.  Refinement
   appends the same piece to labels that share their pieces so far, and
   such appends share one node (found through a hash of (parent, piece)),
   so labels that split only far up a recursion keep their common part
   once: bintree 12's 8,190 labels of about 84,000 pieces take fewer than
   16,384 nodes of 8 bytes (a 128 KB array), where an array grown per
   label took 680 KB of arena (with its header and red zones) while the
   profile was written.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "lh_include.h"
#include "lh_labels.h"

typedef struct {
   UInt piece;
   UInt parent;        /* LH_NO_LABEL_NODE: the label's first piece */
} LabelNode;

static LabelNode* nodes = NULL;
static UInt n_nodes = 0, nodes_room = 0;
/* Node numbers by hash of (parent, piece), LH_NO_LABEL_NODE where empty;
   node_slots is a power of two, at least twice n_nodes.  Only a build
   appends pieces: the table is freed at its end (the labels are read
   through the parents). */
static UInt* node_by_hash = NULL;
static UInt node_slots = 0;

static inline UInt node_hash(UInt parent, UInt piece)
{
   ULong h = ((ULong)parent << 32 | piece) * 0x9E3779B97F4A7C15ULL;
   return (UInt)(h >> 32);
}

static void nodes_rehash(UInt slots)
{
   UInt i;
   VG_(free)(node_by_hash);
   node_by_hash = VG_(malloc)("lh.labels.node_hash", slots * sizeof(UInt));
   for (i = 0; i < slots; i++) node_by_hash[i] = LH_NO_LABEL_NODE;
   node_slots = slots;
   for (i = 0; i < n_nodes; i++) {
      UInt at = node_hash(nodes[i].parent, nodes[i].piece) & (slots - 1);
      while (node_by_hash[at] != LH_NO_LABEL_NODE) at = (at + 1) & (slots - 1);
      node_by_hash[at] = i;
   }
}

void LH_(label_tree_reset)(void)
{
   n_nodes = 0;
   nodes_rehash(1024);
}

UInt LH_(label_tree_node)(UInt parent, UInt piece)
{
   UInt at;
   if (2 * (n_nodes + 1) > node_slots) nodes_rehash(2 * node_slots);
   at = node_hash(parent, piece) & (node_slots - 1);
   for (; node_by_hash[at] != LH_NO_LABEL_NODE; at = (at + 1) & (node_slots - 1)) {
      const LabelNode* n = &nodes[node_by_hash[at]];
      if (n->parent == parent && n->piece == piece) return node_by_hash[at];
   }
   if (n_nodes == nodes_room) {
      nodes_room = nodes_room ? 2 * nodes_room : 1024;
      nodes = VG_(realloc)("lh.labels.nodes", nodes, nodes_room * sizeof(LabelNode));
   }
   tl_assert(n_nodes < LH_NO_LABEL_NODE);
   nodes[n_nodes].piece = piece;
   nodes[n_nodes].parent = parent;
   node_by_hash[at] = n_nodes;
   return n_nodes++;
}

UInt LH_(label_tree_piece)(UInt node)
{
   tl_assert(node < n_nodes);
   return nodes[node].piece;
}

UInt LH_(label_tree_parent)(UInt node)
{
   tl_assert(node < n_nodes);
   return nodes[node].parent;
}

void LH_(label_tree_built)(void)
{
   VG_(free)(node_by_hash);
   node_by_hash = NULL;
   node_slots = 0;
}
