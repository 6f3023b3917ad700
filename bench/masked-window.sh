#!/bin/sh
# What the masked copies' window costs where the bytes cost nothing:
# bench/masked_window under each VARIANT (MEMSHIM_IMPL) against glibc's own,
# interleaved, ROUNDS times each (default 9); prints per call and variant the
# median ns and the median (min..max) of the per-round ratios to glibc.
# The figures are decisions D11 and D12 (doc/decisions.md).  Writes only in a temporary
# folder, removed at the end.
# usage: bench/masked-window.sh [ROUNDS] [VARIANT...]    (after make; default
#        variants avx512_mask_erms evex_mask_erms, which need AVX-512)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-9}
[ $# -gt 0 ] && shift
variants=${*:-avx512_mask_erms evex_mask_erms}
lib=${MEMSHIM_LIBRARY:-$top/.libs/libmemshim.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in $variants; do
	if ! "$top/tools/memshim" info 2>/dev/null | grep -q "^  $v  *usable"; then
		echo "masked-window: $v does not run on this CPU" >&2
		exit 1
	fi
done
r=1
while [ "$r" -le "$rounds" ]; do
	for v in glibc $variants; do
		env MEMSHIM_IMPL="$v" LD_PRELOAD="$lib" "$top/bench/masked_window" | sed "s/^/$r $v /" >>"$work/results"
	done
	r=$((r + 1))
done
"$top/tools/memshim" info | grep '^CPU:'
python3 - "$work/results" $variants <<'PY'
import statistics, sys
ns = {}  # call -> variant -> round -> ns
for line in open(sys.argv[1]):
    r, variant, call, value = line.split()
    ns.setdefault(call, {}).setdefault(variant, {})[int(r)] = float(value)
variants = sys.argv[2:]
print(f"{'call':<18} {'glibc ns':>10}" + "".join(f"  {v:<30}" for v in variants))
for call, by in ns.items():
    glibc = by["glibc"]
    row = f"{call:<18} {statistics.median(glibc.values()):10.2f}"
    for v in variants:
        q = [by[v][r] / glibc[r] for r in sorted(glibc)]
        row += f"  {statistics.median(by[v].values()):6.2f} ns {statistics.median(q):5.2f}x ({min(q):.2f}..{max(q):.2f})"
    print(row)
PY
