/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bintree: allocation- and access-heavy benchmark (the benchmarks-game
 * "binary-trees" shape).
 *
 *   1. build and check one "stretch" tree of depth max_depth + 1, free it;
 *   2. build one long-lived tree of depth max_depth, kept until the end;
 *   3. for depth = 4, 6, ..., max_depth: build, check and free
 *      2^(max_depth - depth + 4) short-lived trees of that depth.
 *
 * Every node is its own malloc'd 16-byte block, so the run makes
 * ~(max_depth - 2) / 2 * 2^(max_depth + 5) allocations while about
 * 2^(max_depth + 1) blocks stay live for the whole run: the live heap grows
 * with the depth, which is what exposes tools whose cost per access or per
 * allocation grows with the number of live blocks.
 *
 * Usage: bintree DEPTH   (prints the node counts, so results stay observable)
 */
#include <stdio.h>
#include <stdlib.h>

struct node {
    struct node *left;
    struct node *right;
};

static struct node *make_tree(int depth)
{
    struct node *node = malloc(sizeof *node);
    if (node == NULL) {
        fprintf(stderr, "bintree: out of memory\n");
        exit(1);
    }
    if (depth > 0) {
        node->left = make_tree(depth - 1);
        node->right = make_tree(depth - 1);
    } else {
        node->left = NULL;
        node->right = NULL;
    }
    return node;
}

/* Reads every node: the access half of the workload. */
static long count_nodes(const struct node *node)
{
    if (node->left == NULL)
        return 1;
    return 1 + count_nodes(node->left) + count_nodes(node->right);
}

static void free_tree(struct node *node)
{
    if (node->left != NULL) {
        free_tree(node->left);
        free_tree(node->right);
    }
    free(node);
}

int main(int argc, char **argv)
{
    const int min_depth = 4;
    char *end = NULL;
    long requested = argc == 2 ? strtol(argv[1], &end, 10) : -1;

    if (argc != 2 || *end != '\0' || requested < min_depth || requested > 24) {
        fprintf(stderr, "usage: bintree DEPTH   (DEPTH between %d and 24)\n", min_depth);
        return 2;
    }
    int max_depth = (int)requested;

    struct node *stretch = make_tree(max_depth + 1);
    printf("stretch tree of depth %d\t check: %ld\n", max_depth + 1, count_nodes(stretch));
    free_tree(stretch);

    struct node *long_lived = make_tree(max_depth);

    for (int depth = min_depth; depth <= max_depth; depth += 2) {
        long iterations = 1L << (max_depth - depth + min_depth);
        long check = 0;
        for (long i = 0; i < iterations; i++) {
            struct node *tree = make_tree(depth);
            check += count_nodes(tree);
            free_tree(tree);
        }
        printf("%ld\t trees of depth %d\t check: %ld\n", iterations, depth, check);
    }

    printf("long lived tree of depth %d\t check: %ld\n", max_depth, count_nodes(long_lived));
    free_tree(long_lived);
    return 0;
}
