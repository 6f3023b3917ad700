"""The round trip dump -> memshim report --fleetbench-csv -> memshim bench
--draws: the CSV files read as google/fleetbench reads them, and the sizes,
alignments and overlaps bench draws from them held to what report --json
says was recorded, within sampling error.

usage: fleetbench_check.py REPORT.json PREFIX DRAWS_PREFIX

PREFIX{Memcpy,Memmove,Memset}.csv are report's files, DRAWS_PREFIX{...}.txt
bench --draws's output for each.  Prints "ok: ..." or "FAIL: ..." per check;
exits 1 if one failed.

fleetbench's reader (fleetbench/common/common.cc, ReadMemDistributionFile
and ConvertLine; fleetbench/libc/mem_benchmark.cc): at least three lines,
each of ','-separated "key:value" columns, the key an int, the value a
double; the overlap probability is line 2's value for key 1 (0 if none);
line 3's keys are alignments, the largest at most 64 (a cache line), read
as the powers of two 1, 2, 4 ... up to it."""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_lines  # noqa: E402
from check_lines import check  # noqa: E402

NAMES = {"memcpy": "Memcpy", "memmove": "Memmove", "memset": "Memset"}
INT_MAX = 2**31 - 1


def convert_line(line):
    """fleetbench's ConvertLine: a CHECK failure there is a ValueError here."""
    out = {}
    for column in line.split(","):
        key, value = column.split(":", 1)
        k = int(key)
        if not -INT_MAX - 1 <= k <= INT_MAX:
            raise ValueError("key %s does not fit an int" % key)
        out[k] = float(value)
    return out


def read_like_fleetbench(path):
    with open(path) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # getline yields no line after the last newline
    if len(lines) < 3:
        raise ValueError("%d lines, fleetbench needs 3" % len(lines))
    sizes, overlap_line, aligns = (convert_line(l) for l in lines[:3])
    if max(aligns) > 64:
        raise ValueError("alignment %d larger than a cache line" % max(aligns))
    return sizes, overlap_line.get(1, 0.0), aligns


def recorded(fn):
    """What report --json says fn's calls were: size (the bucket's mean) -> probability, alignment -> probability, overlap."""
    calls = fn["calls"]
    sizes = {(b["bytes"] + b["calls"] // 2) // b["calls"]: b["calls"] / calls for b in fn["buckets"] if b["calls"]}
    aligns = {1 << a: 0.0 for a in range(7)}
    sampled = sum(fn["dst_mod64"])  # the calls sampled for alignment
    for m, n in enumerate(fn["dst_mod64"]):
        a = 64 if m == 0 else m & -m
        aligns[a] += n / sampled
    overlap = (fn["overlap"]["dst_before_src"] + fn["overlap"]["dst_after_src"]) / calls
    return sizes, aligns, overlap


def read_draws(path):
    draws = {"size": {}, "align": {}, "overlap": {}}
    n = None
    with open(path) as f:
        for line in f:
            words = line.split()
            if line.startswith("#"):
                n = int(words[2])
            elif words[0] in draws:
                draws[words[0]][int(words[1])] = int(words[2])
    return n, draws


def within(drawn, n, p):
    """|drawn - np| within 5 standard deviations of a binomial count (and 1 for rounding)."""
    return abs(drawn - n * p) <= 5 * math.sqrt(n * p * (1 - p)) + 1


def max_cdf_gap(drawn, n, probs):
    gap, have, want = 0.0, 0, 0.0
    for size in sorted(set(drawn) | set(probs)):
        have += drawn.get(size, 0)
        want += probs.get(size, 0.0)
        gap = max(gap, abs(have / n - want))
    return gap


def check_function(name, fn, prefix, draws_prefix):
    csv = "%s%s.csv" % (prefix, NAMES[name])
    try:
        sizes, overlap, aligns = read_like_fleetbench(csv)
        check("%s: fleetbench's reader takes it" % csv, True)
    except (OSError, ValueError) as e:
        check("%s: fleetbench's reader takes it" % csv, False, str(e))
        return
    want_sizes, want_aligns, want_overlap = recorded(fn)
    close = lambda a, b: abs(a - b) <= 1e-8 * max(1.0, abs(b))  # noqa: E731  (%.9g in the file)
    check("%s: line 1 is the recorded sizes" % csv,
          set(sizes) == set(want_sizes) and all(close(sizes[s], want_sizes[s]) for s in sizes))
    check("%s: line 2 is the recorded overlap" % csv, close(overlap, want_overlap), "%g vs %g" % (overlap, want_overlap))
    check("%s: line 3 is the recorded alignments" % csv,
          all(close(aligns.get(a, 0.0), p) for a, p in want_aligns.items()))

    n, draws = read_draws("%s%s.txt" % (draws_prefix, NAMES[name]))
    off = [s for s in draws["size"] if draws["size"][s] and s not in want_sizes]
    check("%s: bench draws only recorded sizes" % name, not off, str(off[:5]))
    bad = [(s, draws["size"].get(s, 0), n * p) for s, p in want_sizes.items() if not within(draws["size"].get(s, 0), n, p)]
    check("%s: %d draws of %d sizes, each within 5 sigma of the recorded share" % (name, n, len(want_sizes)), not bad,
          str(bad[:5]))
    gap = max_cdf_gap(draws["size"], n, want_sizes)
    check("%s: the drawn sizes' CDF within %.4f of the recorded one (KS, 1%%)" % (name, 1.63 / math.sqrt(n)),
          gap <= 1.63 / math.sqrt(n), "%.5f" % gap)
    bad = [(a, draws["align"].get(a, 0), n * p) for a, p in want_aligns.items()
           if not within(draws["align"].get(a, 0), n, p)]
    check("%s: drawn alignments within 5 sigma of the recorded ones" % name, not bad, str(bad))
    drawn_overlap = draws["overlap"].get(1, 0)
    check("%s: drawn overlaps (%d) within 5 sigma of the recorded share %.5f" % (name, drawn_overlap, want_overlap),
          within(drawn_overlap, n, want_overlap))


def main():
    report_path, prefix, draws_prefix = sys.argv[1:4]
    with open(report_path) as f:
        report = json.load(f)
    for name, fn in report["functions"].items():
        if fn["calls"]:
            check_function(name, fn, prefix, draws_prefix)
    return check_lines.status()


if __name__ == "__main__":
    sys.exit(main())
