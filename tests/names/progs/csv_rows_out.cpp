// csv_rows_out.cpp - 20,000 rows written one by one, each built in a
// std::string declared in the loop body, the way one writes it. g++ -O2 -g.
//
// What the tool sees, known by construction: the row grows past the
// string's 15 inline bytes and is regrown by copying into a bigger block
// (std::string grows by new block + copy + delete, never realloc) - each
// growth a short-lived block whose size follows the row's length (the id
// has 1 to 5 digits): blocks of many sizes, so the churn advice is to keep
// one buffer out of the loop and reserve. The row's name is copied into a
// std::string for every row: 20,000 blocks of the 33 characters and the
// terminating NUL, 34 bytes each, all one size: "reuse one buffer".
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <string>

struct Record { int id; double price; const char *name; };

static size_t write_row(const Record &r, std::FILE *out)
{
    std::string line;
    const std::string fields[] = {std::to_string(r.id), std::string(r.name),
                                  std::to_string(r.price), "EUR", "in-stock"};
    for (const auto &field : fields) {
        line += field;
        line += ';';
    }
    std::fputs(line.c_str(), out);
    return line.size();
}

int main()
{
    std::FILE *out = std::fopen("/dev/null", "w");
    size_t total = 0;
    for (int i = 0; i < 20000; i++) {
        Record r{i, i * 0.25, "a product with a rather long name"};
        total += write_row(r, out);
    }
    std::printf("%zu\n", total);
    std::fclose(out);
    return 0;
}
