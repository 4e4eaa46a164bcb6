/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * csvparse: the "Vec<Vec<String>>" CSV reader, in C.
 *
 * Reads a CSV file (plain comma separated, no quoting) in batches of
 * BATCH_ROWS lines. Each batch becomes a table: a growable vector of rows,
 * each row a growable vector of pointers to malloc'd, NUL-terminated copies
 * of its fields. Both vectors grow by doubling with realloc, as Rust's Vec
 * and C++'s std::vector do. The batch is then walked (every field read) and
 * freed before the next batch is parsed.
 *
 * So the run makes one small block per field (millions in total) plus the
 * row vectors and their growth, while about one batch of fields is live at
 * the peak (hundreds of thousands of blocks).
 *
 * Usage: csvparse FILE BATCH_ROWS   (prints counts and a checksum)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct row {
    char **fields;
    size_t field_count;
    size_t field_capacity;
};

struct table {
    struct row *rows;
    size_t row_count;
    size_t row_capacity;
};

static void *checked_realloc(void *old, size_t bytes)
{
    void *fresh = realloc(old, bytes);
    if (fresh == NULL) {
        fprintf(stderr, "csvparse: out of memory\n");
        exit(1);
    }
    return fresh;
}

static char *copy_field(const char *start, size_t length)
{
    char *field = checked_realloc(NULL, length + 1);
    memcpy(field, start, length);
    field[length] = '\0';
    return field;
}

static void row_push(struct row *row, char *field)
{
    if (row->field_count == row->field_capacity) {
        row->field_capacity = row->field_capacity ? row->field_capacity * 2 : 4;
        row->fields = checked_realloc(row->fields, row->field_capacity * sizeof *row->fields);
    }
    row->fields[row->field_count++] = field;
}

static struct row *table_new_row(struct table *table)
{
    if (table->row_count == table->row_capacity) {
        table->row_capacity = table->row_capacity ? table->row_capacity * 2 : 16;
        table->rows = checked_realloc(table->rows, table->row_capacity * sizeof *table->rows);
    }
    struct row *row = &table->rows[table->row_count++];
    row->fields = NULL;
    row->field_count = 0;
    row->field_capacity = 0;
    return row;
}

/* Splits one line (without its newline) on commas into a new row. */
static void parse_line(struct table *table, const char *line, size_t length)
{
    struct row *row = table_new_row(table);
    const char *field_start = line;
    const char *line_end = line + length;
    for (const char *cursor = line; ; cursor++) {
        if (cursor == line_end || *cursor == ',') {
            row_push(row, copy_field(field_start, (size_t)(cursor - field_start)));
            field_start = cursor + 1;
            if (cursor == line_end)
                break;
        }
    }
}

struct totals {
    unsigned long rows;
    unsigned long fields;
    unsigned long field_bytes;
    unsigned long hash;
};

/* Reads every byte of every field, as a consumer of the table would. */
static void walk_table(const struct table *table, struct totals *totals)
{
    for (size_t r = 0; r < table->row_count; r++) {
        const struct row *row = &table->rows[r];
        for (size_t f = 0; f < row->field_count; f++) {
            for (const char *c = row->fields[f]; *c != '\0'; c++) {
                totals->hash = totals->hash * 31 + (unsigned char)*c;
                totals->field_bytes++;
            }
            totals->fields++;
        }
        totals->rows++;
    }
}

static void free_table(struct table *table)
{
    for (size_t r = 0; r < table->row_count; r++) {
        for (size_t f = 0; f < table->rows[r].field_count; f++)
            free(table->rows[r].fields[f]);
        free(table->rows[r].fields);
    }
    free(table->rows);
    table->rows = NULL;
    table->row_count = 0;
    table->row_capacity = 0;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long batch_rows = argc == 3 ? strtol(argv[2], &end, 10) : -1;
    if (argc != 3 || *end != '\0' || batch_rows < 1) {
        fprintf(stderr, "usage: csvparse FILE BATCH_ROWS   (BATCH_ROWS >= 1)\n");
        return 2;
    }
    FILE *input = fopen(argv[1], "r");
    if (input == NULL) {
        perror(argv[1]);
        return 1;
    }

    struct table table = { NULL, 0, 0 };
    struct totals totals = { 0, 0, 0, 0 };
    char *line = NULL;
    size_t line_capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &line_capacity, input)) >= 0) {
        if (length > 0 && line[length - 1] == '\n')
            length--;
        parse_line(&table, line, (size_t)length);
        if (table.row_count == (size_t)batch_rows) {
            walk_table(&table, &totals);
            free_table(&table);
        }
    }
    if (ferror(input)) {
        perror(argv[1]);
        return 1;
    }
    walk_table(&table, &totals);
    free_table(&table);
    free(line);
    fclose(input);

    printf("rows=%lu fields=%lu field_bytes=%lu hash=%lu\n",
           totals.rows, totals.fields, totals.field_bytes, totals.hash);
    return 0;
}
