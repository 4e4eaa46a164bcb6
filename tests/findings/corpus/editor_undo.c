/* editor_undo.c - an undo history that is never trimmed.
 *
 * A text editor records every edit for undo: history_record copies the
 * edited span (a struct edit of ~600 bytes with its text) onto a linked
 * list. The history is freed when the document is closed, at the end of the
 * session - but while the user edits, it only grows: after a long session
 * it holds every keystroke-batch ever made. The program applies 6,000 edits
 * to a 64 KiB buffer, with an occasional undo of the last one.
 *
 * Verdict: unbounded-growth on history_record (allocated throughout, all
 * held until the document closes, freed by the same thread).
 * Twin: editor_undo_capped.c (at most 100 undo steps; the oldest dropped).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOCUMENT_BYTES 65536
#define EDITS 6000

struct edit {
    struct edit *previous;
    uint32_t offset;
    uint32_t length;
    char before[];         /* the text the edit replaced */
};

struct document {
    char text[DOCUMENT_BYTES];
    struct edit *history;  /* newest first */
    size_t history_length;
};

static void history_record(struct document *doc, uint32_t offset, uint32_t length)
{
    struct edit *e = malloc(sizeof *e + length);
    if (!e) { perror("malloc"); exit(1); }
    e->offset = offset;
    e->length = length;
    memcpy(e->before, doc->text + offset, length);
    e->previous = doc->history;
    doc->history = e;
    doc->history_length++;
}

static void apply_edit(struct document *doc, uint32_t n)
{
    uint32_t length = 512 + n % 160;
    uint32_t offset = (n * 2654435761u) % (DOCUMENT_BYTES - length);
    history_record(doc, offset, length);
    for (uint32_t i = 0; i < length; i++)
        doc->text[offset + i] = (char)('a' + (n + i) % 26);
}

static void undo(struct document *doc)
{
    struct edit *e = doc->history;
    if (!e) return;
    memcpy(doc->text + e->offset, e->before, e->length);
    doc->history = e->previous;
    doc->history_length--;
    free(e);
}

static void close_document(struct document *doc)
{
    while (doc->history) {
        struct edit *e = doc->history;
        doc->history = e->previous;
        free(e);
    }
    free(doc);
}

int main(void)
{
    struct document *doc = calloc(1, sizeof *doc);
    if (!doc) { perror("calloc"); return 1; }
    memset(doc->text, ' ', DOCUMENT_BYTES);
    for (uint32_t n = 0; n < EDITS; n++) {
        apply_edit(doc, n);
        if (n % 10 == 9) undo(doc);
    }
    uint64_t sum = 0;
    for (size_t i = 0; i < DOCUMENT_BYTES; i++) sum = sum * 31 + (unsigned char)doc->text[i];
    printf("editor_undo: %zu undo steps kept, text hash %016llx\n", doc->history_length,
           (unsigned long long)sum);
    close_document(doc);
    return 0;
}
