# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs one command RUNS times and prints its median wall time and peak RSS.

Usage: measure.py RUNSTAT RUNS BUDGET STDOUT_FILE STDERR_FILE -- COMMAND [ARGS...]

Each run goes through RUNSTAT (bench/lib/runstat.c), which forks the command
from a tiny process and reports its wall time and ru_maxrss (see there for
why that is not done from Python). Under Valgrind the tool and the client are
one process, so ru_maxrss is the whole memory cost of the tool. Each run's
stdout and stderr overwrite the two files, so afterwards they hold the last
run's output.

BUDGET (seconds, 0 = none) bounds the time spent on one command: once the
runs so far add up to it, no further run starts. A single run of depth-16
bintree under DHAT takes minutes, and its run-to-run spread is small next to
that, so the remaining repetitions would add time and no information.

Prints "WALL_SECONDS RSS_MB RUNS_DONE" (medians over the runs) and exits 0,
or prints
"FAIL STATUS" and exits 1 as soon as a run fails (STATUS is the exit code,
or 128+N for signal N).
"""
import os
import statistics
import subprocess
import sys
import tempfile


def run_once(runstat, command, stdout_path, stderr_path):
    with tempfile.NamedTemporaryFile(mode="r", prefix="runstat.") as report, \
            open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        helper = subprocess.run([runstat, report.name] + command,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        fields = report.read().split()
    if helper.returncode != 0 or len(fields) != 3:
        return 125, 0.0, 0.0  # runstat itself failed; its message is in STDERR_FILE
    status, wall, maxrss_kib = int(fields[0]), float(fields[1]), int(fields[2])
    return status, wall, maxrss_kib / 1024.0


def main():
    args = sys.argv[1:]
    if (len(args) < 7 or args[5] != "--" or not args[1].isdigit() or int(args[1]) < 1
            or not args[2].isdigit()):
        sys.exit("usage: measure.py RUNSTAT RUNS BUDGET STDOUT_FILE STDERR_FILE -- COMMAND [ARGS...]")
    runstat, runs, budget = args[0], int(args[1]), int(args[2])
    stdout_path, stderr_path, command = args[3], args[4], args[6:]
    walls, peaks = [], []
    for _ in range(runs):
        if budget > 0 and sum(walls) >= budget:
            break
        status, wall, peak_mb = run_once(runstat, command, stdout_path, stderr_path)
        if status != 0:
            print("FAIL %d" % status)
            return 1
        walls.append(wall)
        peaks.append(peak_mb)
    print("%.3f %.1f %d" % (statistics.median(walls), statistics.median(peaks), len(walls)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
