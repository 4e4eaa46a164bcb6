#!/usr/bin/env python3
"""Writes single-field mutations of a valid profile, for comparing the two readers.

  make_mutations.py OUTDIR

Takes tests/viewer/fixtures/queue_bad.json (valid for both the CLI and the viewer) and,
for every field of it (the first element of each array only), writes one profile with
that field deleted and one with it replaced by each of: null, -1, 1.5, "x", true, [],
{}, 0 and 10**17. OUTDIR/mNNNNN.json is the profile, OUTDIR/mNNNNN.txt says what was
changed. tests/viewer/agreement.test.js loads each with `lifeheap report` and with the
viewer's loader: both must load it, or both refuse it with the same message.
"""
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(HERE, "..", "viewer", "fixtures", "queue_bad.json")
VALUES = [None, -1, 1.5, "x", True, [], {}, 0, 10 ** 17]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    base = json.load(open(BASE))
    paths = []

    def walk(value, path):
        paths.append(path)
        if isinstance(value, dict):
            for key, child in value.items():
                walk(child, path + [key])
        elif isinstance(value, list):
            for index, child in enumerate(value[:1]):
                walk(child, path + [index])

    walk(base, [])
    count = 0
    for path in paths[1:]:
        for change in ["delete"] + VALUES:
            profile = copy.deepcopy(base)
            parent = profile
            for key in path[:-1]:
                parent = parent[key]
            if change == "delete":
                if not isinstance(parent, dict):
                    continue
                del parent[path[-1]]
            else:
                parent[path[-1]] = change
            name = os.path.join(out, "m%05d" % count)
            with open(name + ".json", "w") as f:
                json.dump(profile, f)
            with open(name + ".txt", "w") as f:
                f.write(json.dumps(path) + " " + json.dumps(change))
            count += 1
    print(count)


if __name__ == "__main__":
    main()
