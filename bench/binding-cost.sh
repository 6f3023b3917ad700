#!/bin/sh
# What a preloaded program pays per memcpy call for memshim's binding, as
# the program itself measures it: bench/record_overhead calls memcpy through
# its PLT (8, 64, 512 and 4096-byte copies in cache, and mixed 0-512 B) and
# prints the ns per call, the fastest of 20 batches.  Three settings, run
# interleaved ROUNDS times (default 11), their order rotated each round:
#   none    without memshim: glibc's own memcpy
#   direct  memshim preloaded, MEMSHIM_IMPL=VARIANT (default glibc): the
#           program's PLT slot holds the variant (direct binding)
#   stub    the same with MEMSHIM_BIND=stub: every call through the stub
# and prints per size the medians and, per round, direct/none and
# stub/none: median (min..max) of the ratios.  Writes only in a temporary
# folder, removed at the end.
# usage: bench/binding-cost.sh [ROUNDS] [VARIANT] [CALLS]    (after make)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-11}
variant=${2:-glibc}
calls=${3:-4000000}
lib=${MEMSHIM_LIBRARY:-$top/.libs/libmemshim.so}
program=$top/bench/record_overhead
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {
	case $1 in
	none) "$program" "$calls" ;;
	direct) env MEMSHIM_IMPL="$variant" LD_PRELOAD="$lib" "$program" "$calls" ;;
	stub) env MEMSHIM_IMPL="$variant" MEMSHIM_BIND=stub LD_PRELOAD="$lib" "$program" "$calls" ;;
	esac | sed "s/^/$2 $1 /" >>"$work/results"
}
for round in $(seq "$rounds"); do
	case $((round % 3)) in
	0) order="none direct stub" ;;
	1) order="direct stub none" ;;
	*) order="stub none direct" ;;
	esac
	for setting in $order; do run "$setting" "$round"; done
done
echo "memcpy through a program's PLT: variant $variant, $rounds rounds interleaved, $calls calls a size, the fastest of 20 batches"
python3 - "$work/results" <<'PY'
import statistics, sys
ns = {}
for line in open(sys.argv[1]):
    r, setting, size, value = line.split()
    if size != "cpu_ns":
        ns.setdefault(size, {}).setdefault(setting, {})[int(r)] = float(value)
def ratio(s, a, b):
    v = [s[a][r] / s[b][r] for r in sorted(s[b])]
    return f"{statistics.median(v):.3f} ({min(v):.3f}..{max(v):.3f})"
print("size   ns/call: none  direct    stub | direct/none             | stub/none")
for size, s in sorted(ns.items(), key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0)):
    med = {k: statistics.median(v.values()) for k, v in s.items()}
    print(f"{size:<6} {med['none']:12.2f} {med['direct']:7.2f} {med['stub']:7.2f} | {ratio(s, 'direct', 'none'):<23} | {ratio(s, 'stub', 'none')}")
PY
