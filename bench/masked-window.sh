#!/bin/sh
# What the masked copies' window costs where the bytes cost nothing:
# bench/masked_window under each VARIANT (MEMSHIM_IMPL) against glibc's own,
# interleaved, ROUNDS times each (default 9); prints per call and variant the
# median ns and the median (min..max) of the per-round ratios to glibc.
# BENCHMARKS.md section 26 has the figures.  Writes only in a temporary
# folder, removed at the end.
# usage: bench/masked-window.sh [ROUNDS] [VARIANT...]    (after make; default
#        variants avx512_mask_erms evex_mask, which need AVX-512)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-9}
[ $# -gt 0 ] && shift
variants=${*:-avx512_mask_erms evex_mask}
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
"$top/tools/memshim" info | sed -n 's/^CPU: /CPU: /p'
awk -v variants="$variants" '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ t[$1, $2, $3] = $4; if (!($3 in seen)) { seen[$3] = 1; names[++count] = $3 } last = $1 }
END {
	nv = split(variants, v, " ")
	printf "%-18s %10s", "call", "glibc ns"
	for (k = 1; k <= nv; k++) printf "  %-28s", v[k]
	printf "\n"
	for (c = 1; c <= count; c++) {
		name = names[c]
		for (r = 1; r <= last; r++) g[r] = t[r, "glibc", name]
		printf "%-18s %10.2f", name, median(g, last)
		for (k = 1; k <= nv; k++) {
			lo = 1e30; hi = 0
			for (r = 1; r <= last; r++) {
				m[r] = t[r, v[k], name]
				q[r] = t[r, v[k], name] / t[r, "glibc", name]
				lo = q[r] < lo ? q[r] : lo; hi = q[r] > hi ? q[r] : hi
			}
			printf "  %6.2f ns %5.2fx (%.2f..%.2f)", median(m, last), median(q, last), lo, hi
		}
		printf "\n"
	}
}' "$work/results"
