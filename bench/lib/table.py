# SPDX-License-Identifier: GPL-3.0-or-later
"""Formats bench results as a text table (stdout) and optionally markdown.

Usage: table.py RESULTS_TSV RUNS [MD_FILE]

RESULTS_TSV has one line per run of a workload under a tool, tab separated:
    WORKLOAD  TOOL  WALL_SECONDS  CPU_SECONDS  RSS_MB  NOTE
the three numbers are "-" when the run did not happen or failed; NOTE
is "-" or a short reason ("not built", "FAIL 1", "output differs"). A cell
shows the medians of its runs; a failure or note on any run marks the cell.
Lines starting with "#=" are printed above the tables (date, machine) and
other lines starting with "#" are notes printed under them.

Three tables come out: wall seconds, CPU seconds (user + system) and peak
RSS, each with the ratios of lifeheap to --tool=none, memcheck and DHAT (and, for
the times, memcheck's and DHAT's own ratio to none, to set lifeheap's
numbers in context). On a busy machine the CPU-time ratios are the steadier
ones.
"""
import statistics
import sys

TOOLS = ["native", "none", "memcheck", "dhat", "massif", "heaptrack", "lifeheap"]


def read_results(path):
    cells, order, headings, notes = {}, [], [], []
    with open(path) as results:
        for line in results:
            line = line.rstrip("\n")
            if not line:
                continue
            if line.startswith("#="):
                headings.append(line[2:].strip())
                continue
            if line.startswith("#"):
                notes.append(line[1:].strip())
                continue
            workload, tool, wall, cpu, rss, note = line.split("\t")
            if workload not in order:
                order.append(workload)
            runs = cells.setdefault((workload, tool),
                                    {"walls": [], "cpus": [], "rsss": [], "note": None})
            if wall != "-":
                runs["walls"].append(float(wall))
                runs["cpus"].append(float(cpu))
                runs["rsss"].append(float(rss))
            if note != "-" and runs["note"] is None:
                runs["note"] = note
    for cell in cells.values():
        failed = cell["note"] is not None and cell["note"].startswith("FAIL")
        usable = cell["walls"] and not failed
        cell["wall"] = statistics.median(cell["walls"]) if usable else None
        cell["cpu"] = statistics.median(cell["cpus"]) if usable else None
        cell["rss"] = statistics.median(cell["rsss"]) if usable else None
        cell["runs"] = len(cell["walls"])
    return cells, order, headings, notes


def ratio(numerator, denominator):
    if numerator is None or denominator is None or denominator <= 0:
        return "n/a"
    return "%.1fx" % (numerator / denominator)


def trusted(cell, metric):
    """A cell's value for ratios: none when missing or flagged (a run whose
    output differs did not do the same work, so its ratio would mislead)."""
    if cell is None or cell["note"] is not None:
        return None
    return cell[metric]


def cell_text(cell, metric, runs, markers):
    if cell is None:
        return "-"
    if cell[metric] is None:
        return cell["note"] or "n/a"
    text = ("%.0f" if metric == "rss" else "%.2f") % cell[metric]
    if cell["note"]:
        markers.add("!")
        text += " !"
    if cell["runs"] < runs:
        markers.add("*")
        text += " *"
    return text


def build_tables(cells, order, tools, runs):
    """Returns [(title, header, rows)] and the set of footnote markers used."""
    markers = set()
    tables = []
    for metric, title, ratios in (
            ("wall", "Wall seconds (median of %d)" % runs,
             [("memcheck", "none"), ("dhat", "none"), ("lifeheap", "none"),
              ("lifeheap", "memcheck"), ("lifeheap", "dhat")]),
            ("cpu", "CPU seconds, user + system (median of %d)" % runs,
             [("memcheck", "none"), ("dhat", "none"), ("lifeheap", "none"),
              ("lifeheap", "memcheck"), ("lifeheap", "dhat")]),
            ("rss", "Peak RSS, MB (ru_maxrss, median of %d)" % runs,
             [("lifeheap", "none"), ("lifeheap", "memcheck"), ("lifeheap", "dhat")])):
        ratios = [(a, b) for a, b in ratios if a in tools and b in tools]
        header = ["workload"] + tools + ["%s/%s" % pair for pair in ratios]
        rows = []
        for workload in order:
            row = [workload]
            for tool in tools:
                row.append(cell_text(cells.get((workload, tool)), metric, runs, markers))
            for numerator, denominator in ratios:
                top = cells.get((workload, numerator))
                bottom = cells.get((workload, denominator))
                row.append(ratio(trusted(top, metric), trusted(bottom, metric)))
            rows.append(row)
        tables.append((title, header, rows))
    return tables, markers


def footnotes(markers, runs, notes):
    lines = []
    if "*" in markers:
        lines.append("* fewer than %d runs: the cell's time budget was used up "
                     "(see --cell-budget)" % runs)
    if "!" in markers:
        lines.append("! the run exited normally but its output differs from the first column's; "
                     "no ratio is given for it")
    return lines + notes


def as_text(headings, tables, extra_lines):
    out = headings + [""] if headings else []
    for title, header, rows in tables:
        widths = [max(len(row[i]) for row in [header] + rows) for i in range(len(header))]
        out.append(title)
        for row in [header] + rows:
            out.append("  ".join(text.ljust(widths[i]) if i == 0 else text.rjust(widths[i])
                                 for i, text in enumerate(row)))
        out.append("")
    out.extend(extra_lines)
    return "\n".join(out).rstrip() + "\n"


def as_markdown(headings, tables, extra_lines):
    out = []
    for line in headings:
        out.extend([line, ""])
    for title, header, rows in tables:
        out.append("**%s**" % title)
        out.append("")
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
        for row in rows:
            out.append("| " + " | ".join(text.replace("|", "\\|") for text in row) + " |")
        out.append("")
    for line in extra_lines:
        out.append("- " + line.replace("*", "\\*"))
    return "\n".join(out).rstrip() + "\n"


def main():
    if len(sys.argv) not in (3, 4) or not sys.argv[2].isdigit():
        sys.exit("usage: table.py RESULTS_TSV RUNS [MD_FILE]")
    runs = int(sys.argv[2])
    cells, order, headings, notes = read_results(sys.argv[1])
    tools = [tool for tool in TOOLS if any(key[1] == tool for key in cells)]
    tables, markers = build_tables(cells, order, tools, runs)
    extra_lines = footnotes(markers, runs, notes)
    sys.stdout.write(as_text(headings, tables, extra_lines))
    if len(sys.argv) == 4:
        with open(sys.argv[3], "w") as md:
            md.write(as_markdown(headings, tables, extra_lines))


if __name__ == "__main__":
    main()
