#!/usr/bin/env python3
# scripts/options-doc.py: writes the options table of docs/findings.md
# ("Tuning") from tool/lh_options.def, the list the tool parses its options
# from, so that the defaults and ranges the docs quote are the tool's.
#
#   scripts/options-doc.py           rewrite the table in docs/findings.md
#   scripts/options-doc.py --check   exit 1 when the table is out of step
#   scripts/options-doc.py --list    "option run.options-key" per line, in
#                                    the list's order ("-" when the option
#                                    writes no key; Valgrind's own options
#                                    as "(valgrind) key"): for tests
#
# SPDX-License-Identifier: GPL-3.0-or-later
import re
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
DEF = TOP / "tool" / "lh_options.def"
DOC = TOP / "docs" / "findings.md"
BEGIN = ("<!-- Generated from tool/lh_options.def by scripts/options-doc.py: "
         "edit the list, then run the script. -->")
END = "<!-- End of the generated options table. -->"
BYTES_MAX = "LH_OPTION_BYTES_MAX"


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def split_arguments(text, start):
    """The arguments of the call whose '(' is at text[start], as C source
    fragments (adjacent string literals joined), and where the call ends."""
    args, current, depth, i = [], "", 0, start + 1
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            current += text[i:j + 1]
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                args.append(current.strip())
                return args, i + 1
            depth -= 1
        elif c == "," and depth == 0:
            args.append(current.strip())
            current = ""
            i += 1
            continue
        current += c
        i += 1
    raise SystemExit(f"{DEF}: unterminated entry")


def literal(fragment):
    """A C expression made of string literals, as text; anything else as is."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', fragment)
    if not parts:
        return fragment
    return "".join(parts).encode().decode("unicode_escape")


def entries():
    text = strip_comments(DEF.read_text())
    for match in re.finditer(r"\b(LH_(?:GROUP|COUNT|FRACTION|TEXT|VALGRIND))\(", text):
        args, _ = split_arguments(text, match.end() - 1)
        yield match.group(1), [literal(a) for a in args]


def table():
    rows = ["| option | default | range | `run.options` | what it changes |",
            "| --- | --- | --- | --- | --- |"]
    for kind, args in entries():
        if kind == "LH_COUNT":
            name, key, low, high, default, applies, _help = args
            limits = f">= {low}" if high == BYTES_MAX else f"{low}-{high}"
        elif kind == "LH_FRACTION":
            name, key, default, applies, _help = args
            limits = "0-1"
        else:
            continue
        rows.append(f"| `--lifeheap-{name}` | {default} | {limits} | `{key}` | {applies} |")
    return "\n".join(rows) + "\n"


def listing():
    for kind, args in entries():
        if kind in ("LH_COUNT", "LH_FRACTION"):
            print(f"--lifeheap-{args[0]} {args[1]}")
        elif kind == "LH_TEXT":
            print(f"--lifeheap-{args[0]} {args[1] if args[5] != '0' else '-'}")
        elif kind == "LH_VALGRIND":
            print(f"(valgrind) {args[0]}")


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] == ["--list"]:
        listing()
        return 0
    if sys.argv[1:] and not check:
        print("usage: scripts/options-doc.py [--check | --list]", file=sys.stderr)
        return 2
    doc = DOC.read_text()
    if BEGIN not in doc or END not in doc:
        print(f"{DOC}: the generated table's markers are missing", file=sys.stderr)
        return 1
    head, rest = doc.split(BEGIN, 1)
    _old, tail = rest.split(END, 1)
    new = head + BEGIN + "\n" + table() + END + tail
    if check:
        if new != doc:
            print(f"{DOC}: the options table is out of step with {DEF}; "
                  "run scripts/options-doc.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
