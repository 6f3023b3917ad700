#!/usr/bin/env python3
"""The report's timed ns per call against what the program measured itself.

usage: timing_check.py REPORT.json PROGRAM_OUTPUT [TOLERANCE]

For each "known FUNCTION SIZE QUIET BATCHES BUSY BATCHES" line of the
program's output (tests/timing_program.c), the size class of FUNCTION in the
report that holds SIZE must have timed calls (at least 100) and an ns per
call from QUIET less TOLERANCE (default 0.10) to BUSY plus TOLERANCE: the
program's two means, of its batches on a quiet machine and of every batch it
ran uninterrupted, bound what the timer may see, and on a busy machine the
range widens by what the program measured the machine's load to cost (a
fixed tolerance around the quiet mean failed a busy machine, 1.38x).
Prints one line per class, the classes off last after "off:"; exits 1 if
any is off."""
import json
import sys

report = json.load(open(sys.argv[1]))
tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 0.10
off = []
for line in open(sys.argv[2]):
    words = line.split()
    if not words or words[0] != "known":
        continue
    function, size, quiet, busy = words[1], int(words[2]), float(words[3]), float(words[5])
    low, high = quiet * (1 - tolerance), max(quiet, busy) * (1 + tolerance)
    classes = report["functions"][function]["size_classes"]
    c = next(c for c in classes if c["lo"] <= size < c["hi"])
    timed, calls = c["ns_per_call"], c["timed_calls"] or 0
    ok = timed is not None and calls >= 100 and low <= timed <= high
    text = (f"{function} {size} B ({c['name']}): own {quiet:.1f} ns quiet, {busy:.1f} ns busy, report "
            f"{'none' if timed is None else f'{timed:.1f}'} ns from {calls} timed calls, "
            f"allowed {low:.1f}..{high:.1f}")
    print(text)
    if not ok:
        off.append(text)
if off:
    print("off:", "; ".join(off))
sys.exit(1 if off else 0)
