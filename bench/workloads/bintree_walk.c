/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bintree-walk: the classic "binary-trees" allocation benchmark as it is
 * usually written, which bench's bintree.c is a lighter cousin of.
 *
 * Each node is a 24-byte block { left, right, item }, made bottom-up (the
 * children first, then the node that points to them), and every tree is
 * read by a recursive walk that touches each node's three fields:
 *
 *   1. build and walk one "stretch" tree of depth max_depth + 1, free it;
 *   2. build one long-lived tree of depth max_depth, kept to the end;
 *   3. for depth = 4, 6, ..., max_depth: 2^(max_depth - depth + 4)
 *      iterations, each building and walking two trees of that depth
 *      (items i and -i) and freeing them;
 *   4. walk the long-lived tree once more.
 *
 * So ~2^(max_depth + 1) blocks stay live, every one of them read, while
 * millions of short-lived ones come and go.
 *
 * Usage: bintree_walk DEPTH   (prints the checks, so results stay observable)
 */
#include <stdio.h>
#include <stdlib.h>

struct tree_node {
    struct tree_node *left;
    struct tree_node *right;
    long item;
};

static struct tree_node *new_node(struct tree_node *left,
                                  struct tree_node *right, long item)
{
    struct tree_node *node = malloc(sizeof *node);
    if (node == NULL) {
        fprintf(stderr, "bintree_walk: out of memory\n");
        exit(1);
    }
    node->left = left;
    node->right = right;
    node->item = item;
    return node;
}

static struct tree_node *bottom_up_tree(long item, int depth)
{
    if (depth > 0)
        return new_node(bottom_up_tree(2 * item - 1, depth - 1),
                        bottom_up_tree(2 * item, depth - 1), item);
    return new_node(NULL, NULL, item);
}

static long item_check(const struct tree_node *tree)
{
    if (tree->left == NULL)
        return tree->item;
    return tree->item + item_check(tree->left) - item_check(tree->right);
}

static void delete_tree(struct tree_node *tree)
{
    if (tree->left != NULL) {
        delete_tree(tree->left);
        delete_tree(tree->right);
    }
    free(tree);
}

int main(int argc, char **argv)
{
    const int min_depth = 4;
    int max_depth, depth;
    struct tree_node *stretch, *long_lived;

    if (argc != 2) {
        fprintf(stderr, "usage: bintree_walk DEPTH\n");
        return 2;
    }
    max_depth = atoi(argv[1]);
    if (max_depth < min_depth + 2)
        max_depth = min_depth + 2;

    stretch = bottom_up_tree(0, max_depth + 1);
    printf("stretch tree of depth %d\t check: %ld\n", max_depth + 1,
           item_check(stretch));
    delete_tree(stretch);

    long_lived = bottom_up_tree(0, max_depth);

    for (depth = min_depth; depth <= max_depth; depth += 2) {
        long iterations = 1L << (max_depth - depth + min_depth);
        long check = 0, i;
        for (i = 1; i <= iterations; i++) {
            struct tree_node *a = bottom_up_tree(i, depth);
            struct tree_node *b = bottom_up_tree(-i, depth);
            check += item_check(a) + item_check(b);
            delete_tree(a);
            delete_tree(b);
        }
        printf("%ld\t trees of depth %d\t check: %ld\n", iterations * 2,
               depth, check);
    }

    printf("long lived tree of depth %d\t check: %ld\n", max_depth,
           item_check(long_lived));
    delete_tree(long_lived);
    return 0;
}
