#!/usr/bin/env python3
"""The report's timed ns per call against what the program measured itself.

usage: timing_check.py REPORT.json PROGRAM_OUTPUT [FACTOR]

For each "known FUNCTION SIZE QUIET BATCHES BUSY BATCHES" line of the
program's output (tests/timing_program.c), the size class of FUNCTION in the
report that holds SIZE must have timed calls (at least 100) and an ns per
call within FACTOR (default 2) of the program's own: from QUIET / FACTOR to
BUSY * FACTOR.  The check is of an order of magnitude, not of a time: the
timer must not be off by a unit or a rate, and a shared machine's other core
moves a call's time by tens of percent at random (a 10% margin around the
program's own means failed a busy machine, 56670 ns against at most 55732).
Then an order: a function's larger size must read the larger ns per call
(1 MiB copies against 128 KiB ones: 8 times the bytes).
Prints one line per class, the classes off last after "off:"; exits 1 if
any is off."""
import json
import sys

report = json.load(open(sys.argv[1]))
factor = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
off = []
read = {}  # function -> [(size, ns per call)]
for line in open(sys.argv[2]):
    words = line.split()
    if not words or words[0] != "known":
        continue
    function, size, quiet, busy = words[1], int(words[2]), float(words[3]), float(words[5])
    low, high = quiet / factor, max(quiet, busy) * factor
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
    elif timed is not None:
        read.setdefault(function, []).append((size, timed))
for function, sizes in read.items():
    sizes.sort()
    for (small, t_small), (large, t_large) in zip(sizes, sizes[1:]):
        if not t_small < t_large:
            off.append(f"{function}: {large} B read {t_large:.1f} ns, not more than {small} B's {t_small:.1f}")
if off:
    print("off:", "; ".join(off))
sys.exit(1 if off else 0)
