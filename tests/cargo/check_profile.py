#!/usr/bin/env python3
"""tests/cargo/check_profile.py: checks a profile written by `cargo lifeheap`.

  check_profile.py LABEL PROFILE SCHEMA --executable PATH|GLOB
      --command ARG... --function NAME --file FILE --line N
      --blocks N --bytes N [--absent NAME...] [--no-lines]

Prints "PASS LABEL: what" / "FAIL LABEL: what: why" lines (tests/lib.sh's
feed_checks counts them):
  - the profile validates against the JSON schema of docs/;
  - run.executable is the executable cargo built (an exact path, or a glob
    for a test's or bench's deps/NAME-HASH), run.command its arguments;
  - the sites whose stacks pass through FUNCTION (the target's own
    allocation) add up to exactly BLOCKS blocks and BYTES bytes, and each is
    named by FUNCTION at FILE:LINE (with --no-lines: FUNCTION's frames have
    no file and line, as when debug info is off);
  - no frame of the profile belongs to the other targets' functions
    (--absent), checked only after FUNCTION's sites were found.
"""
import argparse
import fnmatch
import json
import sys

import jsonschema
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import lifeheap_profile  # noqa: E402  (reads a profile as the readers do)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("label")
    parser.add_argument("profile")
    parser.add_argument("schema")
    parser.add_argument("--executable", required=True)
    parser.add_argument("--command", nargs="*", default=[])
    parser.add_argument("--function", required=True)
    parser.add_argument("--file", required=True)
    parser.add_argument("--line", type=int, required=True)
    parser.add_argument("--blocks", type=int, required=True)
    parser.add_argument("--bytes", type=int, required=True)
    parser.add_argument("--absent", nargs="*", default=[])
    parser.add_argument("--no-lines", action="store_true")
    args = parser.parse_args()

    def result(ok, what, why=""):
        if ok:
            print(f"PASS {args.label}: {what}")
        else:
            print(f"FAIL {args.label}: {what}: {why}")

    try:
        profile = json.load(open(args.profile))
        written = json.loads(json.dumps(profile))
        lifeheap_profile.expand(profile)
    except (OSError, ValueError) as error:
        result(False, "profile readable", str(error))
        return
    errors = list(jsonschema.Draft202012Validator(json.load(open(args.schema)))
                  .iter_errors(written))
    result(not errors, "profile validates against the schema",
           errors[0].message[:200] if errors else "")

    run = profile["run"]
    executable = run.get("executable") or ""
    result(fnmatch.fnmatchcase(executable, args.executable),
           "the target's executable was profiled",
           f"run.executable {executable!r}, expected {args.executable!r}")
    result(run["command"][1:] == args.command, "the program got the arguments after --",
           f"run.command {run['command']!r}")

    frames = profile["frames"]

    def named_by(function, frame):
        name = frame.get("function") or ""
        return name == function or name.endswith("::" + function)

    # The target's sites: those whose stack passes through FUNCTION.
    own = [site for site in profile["sites"]
           if any(named_by(args.function, frames[f]) for f in site["stack"])]
    blocks = sum(site["total_blocks"] for site in own)
    size = sum(site["total_bytes"] for site in own)
    result(len(own) > 0 and blocks == args.blocks and size == args.bytes,
           f"{args.function} allocated {args.blocks} blocks, {args.bytes} bytes",
           f"{len(own)} sites, {blocks} blocks, {size} bytes")
    if args.no_lines:
        places = sorted({(frames[f].get("file"), frames[f].get("line"))
                         for s in own for f in s["stack"]
                         if named_by(args.function, frames[f])})
        result(len(own) > 0 and places == [(None, None)],
               f"{args.function} has no file and line (no debug info)",
               f"at {places}")
    else:
        names = sorted({(frames[s["stack"][s["name_frame"]]].get("function"),
                         frames[s["stack"][s["name_frame"]]].get("file"),
                         frames[s["stack"][s["name_frame"]]].get("line")) for s in own})
        result(len(own) > 0 and len(names) == 1 and named_by(args.function, {"function": names[0][0]})
               and names[0][1:] == (args.file, args.line),
               f"its sites are named {args.function} ({args.file}:{args.line})",
               f"named {names}")

    if own:
        strays = sorted({frame["function"] for frame in frames
                         for other in args.absent if named_by(other, frame)})
        result(not strays, "no other target's allocation in the profile",
               f"frames of {strays}")


main()
