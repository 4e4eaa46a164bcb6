# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the csvparse input: ROWS lines of 12 comma-separated fields.

The content is a fixed function of the row number (no randomness), so every
run parses byte-for-byte the same file. Fields mix integers, decimals, short
words and dates, 1 to 14 bytes long, like an export of a small table.
"""
import sys

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
         "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi"]
FIELDS_PER_ROW = 12


def row_fields(row):
    return [
        str(row),
        WORDS[row % len(WORDS)],
        str((row * 7919) % 100000),
        "%d.%02d" % ((row * 31) % 5000, row % 100),
        "2026-%02d-%02d" % (1 + row % 12, 1 + row % 28),
        WORDS[(row * 3) % len(WORDS)] + str(row % 10),
        str(row % 2),
        str((row * 104729) % 1000003),
        "",
        WORDS[(row * 5) % len(WORDS)],
        "%x" % (row * 2654435761 % (1 << 32)),
        str(row % 97),
    ]


def main():
    if len(sys.argv) != 3 or not sys.argv[2].isdigit() or int(sys.argv[2]) < 1:
        sys.exit("usage: make_csv.py OUTPUT ROWS")
    rows = int(sys.argv[2])
    with open(sys.argv[1], "w") as out:
        for row in range(rows):
            out.write(",".join(row_fields(row)))
            out.write("\n")


if __name__ == "__main__":
    main()
