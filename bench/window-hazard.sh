#!/bin/sh
# How often COMMAND's copies below 64 bytes would make a masked 64-byte
# window reach a page its bytes do not (bench/window_hazard.c says what each
# count is): builds that interposer with $CC (default cc) in a temporary
# folder, runs COMMAND under it with its output discarded, and prints the
# counts with their shares.  The figures are decision D51 (doc/decisions.md).
# usage: bench/window-hazard.sh COMMAND [ARGS...]
set -eu
[ $# -gt 0 ] || { echo "usage: bench/window-hazard.sh COMMAND [ARGS...]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${CC:-cc}" -O2 -shared -fPIC -fno-builtin -o "$work/window_hazard.so" "$top/bench/window_hazard.c"
WINDOW_HAZARD_OUT="$work/counts" LD_PRELOAD="$work/window_hazard.so" "$@" >/dev/null
# Each process of COMMAND appends its own line; the sums are the command's.
awk '{ for (i = 1; i < NF; i += 2) sum[$i] += $(i + 1) }
END {
	small = sum["small"] ? sum["small"] : 1
	printf "calls %d, below 64 B %d (%.1f%%)\n", sum["calls"], sum["small"], 100 * sum["small"] / (sum["calls"] ? sum["calls"] : 1)
	printf "per call below 64 B: window reaching the next page %.3f%%, that page absent %.4f%% (%d), size 0 in the first page %.4f%% (%d)\n",
		100 * sum["cross"] / small, 100 * sum["absent"] / small, sum["absent"], 100 * sum["null0"] / small, sum["null0"]
	printf "a window ending where the bytes end instead: reaching the previous page %.3f%%, that page absent %.4f%% (%d)\n",
		100 * sum["bcross"] / small, 100 * sum["babsent"] / small, sum["babsent"]
}' "$work/counts"
