# SPDX-License-Identifier: GPL-3.0-or-later
"""json_work: python3's json module on a generated structure.

Builds RECORDS nested records (dicts, lists, strings, ints, floats), then
ROUNDS times serialises them with json.dumps and parses the text back with
json.loads, checking the round trip. Everything is a fixed function of the
record number, so each run does the same work. This is the "real program
nobody here wrote" workload: CPython's own allocator, objects and C code.

Usage: python3 json_work.py RECORDS ROUNDS
"""
import json
import sys


def make_record(number):
    return {
        "id": number,
        "name": "user-%06d" % number,
        "score": number * 0.5,
        "active": number % 3 == 0,
        "tags": ["tag%d" % (number % 17), "group%d" % (number % 5)],
        "history": [{"step": step, "value": (number * step) % 1000} for step in range(4)],
    }


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit() or not sys.argv[2].isdigit():
        sys.exit("usage: json_work.py RECORDS ROUNDS")
    records, rounds = int(sys.argv[1]), int(sys.argv[2])
    data = [make_record(number) for number in range(records)]
    text_bytes = 0
    for _ in range(rounds):
        text = json.dumps(data, sort_keys=True)
        parsed = json.loads(text)
        if parsed != data:
            sys.exit("json_work: round trip changed the data")
        text_bytes += len(text)
    print("records=%d rounds=%d text_bytes=%d" % (records, rounds, text_bytes))


if __name__ == "__main__":
    main()
