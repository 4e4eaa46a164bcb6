/* A function's path without what changes between builds of the same source.
 *
 * Demangled names carry generic arguments, parameter lists and return
 * types, and one function reads differently depending on how it was
 * compiled: Rust's legacy mangling gives "alloc::vec::Vec<T,A>::with_capacity",
 * v0 mangling "<alloc::vec::Vec<u8>>::with_capacity", C++
 * "void std::vector<int>::push_back(int const&)". function_path keeps the
 * path only ("alloc::vec::Vec::with_capacity", "std::vector::push_back"):
 *
 *   - "(...)" after the name (parameters and what follows) goes;
 *   - "<...>" after a component (generic arguments) goes;
 *   - "<X as Trait>" and "<X>" at the start of a path, and Rust's
 *     "<impl Trait for X>", become X's path;
 *   - a C++ return type (before a top-level space) goes;
 *   - "{closure#0}", "{{closure}}", "operator()" and "(anonymous namespace)"
 *     stay whole.
 *
 * The tool shortens names for its labels by the same rules
 * (tool/lh_labels.c), keeping the last component and its qualifier.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "names.h"

#include <stdbool.h>
#include <string.h>

struct path_text {
    char *out;
    size_t size, used;
    size_t components;
};

static void emit(struct path_text *path, const char *text, size_t length)
{
    if (path->size == 0)
        return;
    if (path->components > 0 && path->used + 2 < path->size) {
        memcpy(path->out + path->used, "::", 2);
        path->used += 2;
    }
    if (length > path->size - path->used - 1)
        length = path->size - path->used - 1;
    memcpy(path->out + path->used, text, length);
    path->used += length;
    path->out[path->used] = '\0';
    path->components++;
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* Index just past the '>' closing the '<' at open ("->" is no bracket). */
static size_t skip_angle(const char *s, size_t length, size_t open)
{
    int depth = 0;
    size_t i;
    for (i = open; i < length; i++) {
        if (s[i] == '<')
            depth++;
        else if (s[i] == '>' && !(i > 0 && s[i - 1] == '-') && --depth == 0)
            return i + 1;
    }
    return length;
}

static long find_top_level(const char *s, size_t length, const char *word)
{
    int depth = 0;
    size_t word_length = strlen(word);
    for (size_t i = 0; i + word_length <= length; i++) {
        char c = s[i];
        if (c == '<' || c == '(' || c == '[')
            depth++;
        else if ((c == '>' && !(i > 0 && s[i - 1] == '-')) || c == ')' ||
                 c == ']')
            depth--;
        else if (depth == 0 && strncmp(s + i, word, word_length) == 0)
            return (long)i;
    }
    return -1;
}

static void split(struct path_text *path, const char *s, size_t length);

static void split_self(struct path_text *path, const char *inner,
                       size_t length)
{
    while (length > 0 && (*inner == '&' || *inner == '*' || *inner == ' '))
        inner++, length--;
    if (length >= 4 && strncmp(inner, "mut ", 4) == 0)
        inner += 4, length -= 4;
    if (length >= 6 && strncmp(inner, "const ", 6) == 0)
        inner += 6, length -= 6;
    if (length >= 5 && strncmp(inner, "impl ", 5) == 0) {
        inner += 5, length -= 5;
        long at = find_top_level(inner, length, " for ");
        if (at >= 0)
            inner += at + 5, length -= (size_t)at + 5;
    }
    long at = find_top_level(inner, length, " as ");
    if (at >= 0)
        length = (size_t)at;
    split(path, inner, length);
}

static void split(struct path_text *path, const char *s, size_t length)
{
    char current[512];
    size_t used = 0, i = 0, start_used = path->used,
           start_components = path->components;
    while (i < length) {
        char c = s[i];
        bool is_operator = used >= 8 && strncmp(current, "operator", 8) == 0 &&
                           (used == 8 || !is_name_char(current[8]));
        if (c == ':' && i + 1 < length && s[i + 1] == ':' && !is_operator) {
            emit(path, current, used);
            used = 0;
            i += 2;
        } else if (is_operator) {
            if (c == '(' && i + 1 < length && s[i + 1] == ')' && used == 8) {
                if (used + 2 < sizeof current)
                    current[used++] = '(', current[used++] = ')';
                i += 2;
            } else if (c == '(') {
                break;
            } else {
                if (used + 1 < sizeof current)
                    current[used++] = c;
                i++;
            }
        } else if (c == '(') {
            if (strncmp(s + i, "(anonymous namespace)", 21) == 0) {
                for (size_t k = 0; k < 21 && used + 1 < sizeof current; k++)
                    current[used++] = s[i + k];
                i += 21;
            } else {
                break;                                    /* parameters */
            }
        } else if (c == '<') {
            size_t close = skip_angle(s, length, i);
            if (used == 0) {
                split_self(path, s + i + 1, close > i + 1 ? close - i - 2 : 0);
                i = close;
                if (i + 1 < length && s[i] == ':' && s[i + 1] == ':')
                    i += 2;
            } else {
                i = close;                         /* generic arguments */
            }
        } else if (c == '{') {
            int depth = 0;
            for (; i < length; i++) {
                if (used + 1 < sizeof current)
                    current[used++] = s[i];
                if (s[i] == '{')
                    depth++;
                else if (s[i] == '}' && --depth == 0) {
                    i++;
                    break;
                }
            }
        } else if (c == ' ') {
            /* A C++ return type ends here: forget it. */
            path->used = start_used;
            path->components = start_components;
            if (path->size)
                path->out[path->used] = '\0';
            used = 0;
            i++;
        } else {
            if (used + 1 < sizeof current)
                current[used++] = c;
            i++;
        }
    }
    if (used > 0)
        emit(path, current, used);
}

void function_path(const char *function, char *out, size_t size)
{
    struct path_text path = {out, size, 0, 0};
    if (size == 0)
        return;
    out[0] = '\0';
    split(&path, function, strlen(function));
    if (path.components == 0)
        snprintf(out, size, "%s", function);
}
