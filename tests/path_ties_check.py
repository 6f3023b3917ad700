"""Checks the calibration's path rule (tools/calibrate/measure_classes.c): up to
1 KiB, a candidate's ratios to glibc are a tie (1.0000 in every placement
not timed beyond 1.25x) in exactly the size classes where bench --path
finds its path no longer than that of glibc's function, the one glibc
picks here, and taking no branch fewer.

path_ties_check.py CALIBRATION PATHS.csv: PATHS.csv from bench --path --csv
under the same GLIBC_TUNABLES as the calibration, its first line saying
what glibc picked."""
import sys

from check_lines import check, status
from path_check import CLASSES, EPSILON, MORE_INSTRUCTIONS, read

PATH_TIE_LIMIT = 1.25  # tools/calibrate/path_ties.c
PATH_FEWER_BRANCHES = 0.5  # tools/measure/path_trace.h
CHOICE_CLASSES = [(0, 16), (17, 64), (65, 256), (257, 1024)]  # tools/util/size_classes.h


def no_longer(ours, theirs, lo, hi):
    for (c_lo, c_hi), (ins, taken), (g_ins, g_taken) in zip(CLASSES, ours, theirs):
        if c_lo >= lo and c_hi <= hi and (taken > g_taken + EPSILON or ins > g_ins + MORE_INSTRUCTIONS + EPSILON):
            return False
    return True


def fewer_branches(ours, theirs, lo, hi):
    """Half a taken branch a call fewer than glibc's in some class: no tie (path_trace.c)."""
    return any(c_lo >= lo and c_hi <= hi and taken <= g_taken - PATH_FEWER_BRANCHES
               for (c_lo, c_hi), (ins, taken), (g_ins, g_taken) in zip(CLASSES, ours, theirs))


def main():
    _, paths = read(sys.argv[2])
    rows = 0
    with open(sys.argv[1]) as f:
        for line in f:
            words = line.split()
            if len(words) < 3 or words[0] != "ratios" or words[2] in ("glibc", "stub"):
                continue
            function, variant, cells = words[1], words[2], words[3:]
            if (function, variant) not in paths:
                continue
            rows += 1
            for k, (lo, hi) in enumerate(CHOICE_CLASSES):
                ratios = [float(c) for c in cells[3 * k:3 * k + 3]]
                ours, glibc = paths[(function, variant)], paths[(function, "glibc")]
                expected = no_longer(ours, glibc, lo, hi) and not fewer_branches(ours, glibc, lo, hi)
                if expected:  # a tie in every placement not timed beyond PATH_TIE_LIMIT (path_ties.c)
                    right = all(r == 1.0 or r > PATH_TIE_LIMIT for r in ratios)
                else:
                    right = not all(r == 1.0 for r in ratios)
                check("%s %s at %d-%d B: %s" % (function, variant, lo, hi, "a tie" if expected else "as timed"),
                      right, "ratios %s" % " ".join(cells[3 * k:3 * k + 3]))
    check("the calibration has ratio rows of variants with paths (%d)" % rows, rows > 0)
    return status()


sys.exit(main())
