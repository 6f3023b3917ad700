#!/usr/bin/env python3
"""Fails on a test that decides on a clock: a shared machine's other core
moves any time by tens of percent, so a test that passes or fails on one
fails at random.  A test may print a time as a figure; it never reads a
clock to judge, and never asserts a verdict ab drew from wall or CPU time
(those of made-up dumps, the in-function time, are fixed by the dump).

What counts, in the tests (every .sh and .py under SRCDIR/tests/, and the
C unit tests tests/test_*.c; the programs the tests run may time
themselves, which is what they are for):
  - reading a clock: date +%s or +%N, $SECONDS, /proc/uptime, time -p or
    /usr/bin/time (but for -f '%M', the largest resident size); Python's time.time, monotonic, perf_counter,
    process_time; C's clock_gettime, gettimeofday, clock() and the
    time-stamp counter;
  - an expected line of ab's verdict on wall or CPU time that is faster or
    slower ("WORK=6000000: cpu ... slower").

usage: check_no_timing.py SRCDIR; prints "FAIL: FILE:LINE: TEXT" for each."""
import os
import re
import sys

SHELL_CLOCK = re.compile(r"date\s+[^|;]*\+%[sN]|\$\{?SECONDS\b|/proc/uptime|/usr/bin/time\b(?!\s+-f\s*'%M')|\btime\s+-p\b")
PYTHON_CLOCK = re.compile(r"\btime\.(time|monotonic|perf_counter|process_time)(_ns)?\s*\(")
C_CLOCK = re.compile(r"\b(clock_gettime|gettimeofday|clock|__rdtsc|__rdtscp)\s*\(|\brdtscp?\b")
# A verdict of ab on a clock's measure, in a pattern a test expects.
TIMED_VERDICT = re.compile(r"expect_\w+.*:\s*(wall|cpu)\b.*:\s*(slower|faster)")


def rules(name):
    """The patterns that apply to a file of the tests, by its name."""
    if name.endswith(".sh"):
        return [SHELL_CLOCK, TIMED_VERDICT]
    if name.endswith(".py"):
        return [PYTHON_CLOCK]
    if name.startswith("test_") and name.endswith(".c"):
        return [C_CLOCK]
    return []


def main(srcdir):
    bad = 0
    for root, dirs, files in os.walk(os.path.join(srcdir, "tests")):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            patterns = rules(name)
            if not patterns or name == os.path.basename(__file__):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
            for number, line in enumerate(lines, 1):
                code = line.split("#", 1)[0] if not name.endswith(".c") else line
                if any(p.search(code) for p in patterns):
                    print("FAIL: %s:%d: decides on a clock: %s" % (os.path.relpath(path, srcdir), number, line.strip()))
                    bad = 1
    if not bad:
        print("ok: no test reads a clock or expects a verdict on wall or CPU time")
    return bad


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    sys.exit(main(sys.argv[1]))
