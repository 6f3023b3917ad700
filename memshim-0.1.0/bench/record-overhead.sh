#!/bin/sh
# What recording (MEMSHIM_HIST) adds to a memcpy call: runs
# bench/record_overhead with the library preloaded, with recording off and
# on, alternately, ROUNDS times each (default 9), and prints the median ns
# per call of each and the difference, for 8, 64, 512 and 4096-byte copies.
# The variant is the same in both (MEMSHIM_IMPL, default glibc), so the
# difference is the recording wrapper alone.
# usage: bench/record-overhead.sh [ROUNDS] [VARIANT]     (after make)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-9}
variant=${2:-glibc}
lib=${MEMSHIM_LIBRARY:-$top/.libs/libmemshim.so}
program=$top/bench/record_overhead
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for round in $(seq "$rounds"); do
	for setting in off on; do
		if [ $setting = on ]; then
			MEMSHIM_IMPL=$variant MEMSHIM_HIST="$work/dump.%p" LD_PRELOAD="$lib" "$program"
		else
			MEMSHIM_IMPL=$variant LD_PRELOAD="$lib" "$program"
		fi | sed "s/^/$setting /" >>"$work/results"
	done
done
echo "recording overhead: variant $variant, $rounds rounds alternating off/on, clock_gettime(CLOCK_MONOTONIC)"
echo "size  off ns/call  on ns/call  added ns  (medians)"
for size in 8 64 512 4096; do
	off=$(awk -v s=$size '$1 == "off" && $2 == s { print $3 }' "$work/results" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	on=$(awk -v s=$size '$1 == "on" && $2 == s { print $3 }' "$work/results" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	awk -v s=$size -v a="$off" -v b="$on" 'BEGIN { printf "%-5s %11.2f %11.2f %9.2f\n", s, a, b, b - a }'
done
