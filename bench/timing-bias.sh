#!/bin/sh
# What timing a call does to its time (MEMSHIM_TIMING), by size: runs
# bench/timing_bias, which times back-to-back copies of each size in batches
# with its own clock, ROUNDS times (default 5) two ways, one after the
# other: under the library without recording (the variant alone: the
# streamed ns per call), and with one call in 8 timed (the timed ns per
# call, from the dump; the batches there also pay for the timed calls, and
# are not used).  A timed call runs alone, fenced by the counter's reads:
# small copies take longer than their share of a stream of overlapping
# calls; copies near the L1 cache's size a little less (the stream's
# write-backs slow it).  Prints per size and size class the median
# (min..max) over the rounds of both, their difference and ratio.
# usage: bench/timing-bias.sh [ROUNDS] [VARIANT] [SECONDS] [memcpy|memset]   (after make)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}
variant=${2:-glibc}
seconds=${3:-1.5}
function=${4:-memcpy}
lib=${MEMSHIM_LIBRARY:-$top/.libs/libmemshim.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for round in $(seq "$rounds"); do
	mkdir -p "$work/$round/dumps"
	env MEMSHIM_IMPL="$variant" LD_PRELOAD="$lib" "$top/bench/timing_bias" "$seconds" "$function" >"$work/$round/own"
	env MEMSHIM_IMPL="$variant" MEMSHIM_TIMING=8 MEMSHIM_DUMP="$work/$round/dumps/d.%p" LD_PRELOAD="$lib" \
		"$top/bench/timing_bias" "$seconds" "$function" >/dev/null
	"$top/tools/memshim" report --json "$work/$round/dumps" >"$work/$round/report.json"
done
echo "timed against streamed, $function: variant $variant, one call in 8 timed, $rounds processes of $seconds s"
python3 - "$work" "$rounds" "$function" <<'PY'
import json, statistics, sys
work, rounds, function = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = {}
for r in range(1, rounds + 1):
    own = dict((int(a), float(b)) for a, b in (l.split() for l in open(f"{work}/{r}/own")))
    report = json.load(open(f"{work}/{r}/report.json"))
    buckets = report["functions"][function]["buckets"]
    classes = report["functions"][function]["size_classes"]
    overhead = report["timing"]["overhead_ns"]
    for size, ns in own.items():
        b = next(b for b in buckets if b["lo"] <= size < b["hi"])
        timed = b["timed_ns"] / b["timed_calls"]
        name = next(c["name"] for c in classes if c["lo"] <= size < c["hi"])
        rows.setdefault(size, {"class": name, "own": [], "timed": [], "overhead": []})
        rows[size]["own"].append(ns)
        rows[size]["timed"].append(timed)
        rows[size]["overhead"].append(overhead)
def spread(v, f="{:.2f}"):
    return f"{f.format(statistics.median(v))} ({f.format(min(v))}..{f.format(max(v))})"
print("size      class          streamed ns          timed ns            timed - streamed      timed / streamed")
for size in sorted(rows):
    r = rows[size]
    diff = [t - o for t, o in zip(r["timed"], r["own"])]
    ratio = [t / o for t, o in zip(r["timed"], r["own"])]
    print(f"{size:<9} {r['class']:<14} {spread(r['own']):<20} {spread(r['timed']):<19} {spread(diff):<21} {spread(ratio, '{:.3f}')}")
print(f"the timer's own cost, subtracted: {spread([o for r in rows.values() for o in r['overhead']])} ns a timed call")
PY
