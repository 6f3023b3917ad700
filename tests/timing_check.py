#!/usr/bin/env python3
"""The report's timed ns per call against what the program measured itself.

usage: timing_check.py REPORT.json PROGRAM_OUTPUT [TOLERANCE]

For each "known FUNCTION SIZE NS BATCHES" line of the program's output, the
size class of FUNCTION in the report that holds SIZE must have timed calls
(at least 100) and an ns per call within TOLERANCE (default 0.10) of NS.
Prints one line per class; exits 1 if any is off."""
import json
import sys

report = json.load(open(sys.argv[1]))
tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 0.10
bad = 0
for line in open(sys.argv[2]):
    words = line.split()
    if not words or words[0] != "known":
        continue
    function, size, own = words[1], int(words[2]), float(words[3])
    classes = report["functions"][function]["size_classes"]
    c = next(c for c in classes if c["lo"] <= size < c["hi"])
    timed, calls = c["ns_per_call"], c["timed_calls"] or 0
    ok = timed is not None and calls >= 100 and abs(timed / own - 1) <= tolerance
    bad += not ok
    print(f"{function} {size} B ({c['name']}): own {own:.1f} ns, report "
          f"{'none' if timed is None else f'{timed:.1f}'} ns from {calls} timed calls"
          f"{'' if timed is None else f', ratio {timed / own:.3f}'}{'' if ok else ' OFF'}")
sys.exit(1 if bad else 0)
