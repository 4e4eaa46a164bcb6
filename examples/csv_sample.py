#!/usr/bin/env python3
"""csv_sample.py OUT: writes the CSV that csv_rows and csv_rows_lean read.

12,427 lines (a header and 12,426 orders) of 8 comma-separated fields,
1,000,738 bytes: a 976 KiB CSV of 12,427 rows, the size csv_rows.rs is about.
Every field is non-empty and unquoted. The values come from a fixed linear
congruential generator, so the file is the same, byte for byte, on every
machine and Python version.

SPDX-License-Identifier: GPL-3.0-or-later
"""
import sys

CITIES = ["Lisbon", "Porto", "Madrid", "Valencia", "Lyon", "Marseille", "Hamburg",
          "Munich", "Krakow", "Gdansk", "Turin", "Naples", "Antwerp", "Rotterdam",
          "Bergen", "Tampere"]
PRODUCTS = ["widget", "gadget", "sprocket", "flange", "gear", "bracket", "valve",
            "hinge", "spring", "bearing"]
STATUSES = ["shipped", "pending", "returned", "cancelled"]
ORDERS = 12426


def main(path):
    state = 12345

    def pick(n):
        nonlocal state
        state = (state * 1103515245 + 12345) % 2**31
        return (state >> 16) % n   # the high bits: the low ones have short periods

    lines = ["id,date,customer,city,product,quantity,unit_price,status"]
    for order in range(1, ORDERS + 1):
        lines.append("%d,2024-%02d-%02d,customer-%05d@example.org,%s,%s-%03d,%d,%d.%02d,%s" % (
            order, 1 + pick(12), 1 + pick(28), pick(100000), CITIES[pick(16)],
            PRODUCTS[pick(10)], pick(1000), 1 + pick(200), 1 + pick(500), pick(100),
            STATUSES[pick(4)]))
    with open(path, "w", newline="\n") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: csv_sample.py OUT")
    main(sys.argv[1])
