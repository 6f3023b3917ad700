#!/bin/sh
# What recording (MEMSHIM_HIST) and profiling (MEMSHIM_PROFILE) add to a
# memcpy call.  Runs bench/record_overhead with the library preloaded in
# four settings, interleaved, ROUNDS times each (default 9):
#   off      the variant alone
#   record   MEMSHIM_HIST: the recording wrapper
#   mark     MEMSHIM_HIST and MEMSHIM_PROFILE=2: the wrapper marks the call
#            in progress; 2 samples a second cost nothing measurable
#   profile  MEMSHIM_HIST and MEMSHIM_PROFILE=on: marking and sampling at
#            the default rate
#   timed    MEMSHIM_HIST and MEMSHIM_TIMING=on: one call in 64 timed
#   every    MEMSHIM_HIST and MEMSHIM_TIMING=1: every call timed
#   baseline MEMSHIM_HIST with the library BASELINE (another build: what a
#            change to the recording path costs), when it is given
# and prints, for 8, 64, 512 and 4096-byte copies and for mixed sizes
# (0-512 B), the median ns per call
# of each and the medians (min..max) of the per-round differences: what
# recording adds, what marking adds on top, and what sampling costs as a
# share of the run; then what timing one call in 64 adds per call, what a
# timed call costs, and this recording against the baseline's.  The variant
# is the same throughout (MEMSHIM_IMPL, default glibc).
# usage: bench/record-overhead.sh [ROUNDS] [VARIANT] [CALLS] [BASELINE]    (after make)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-9}
variant=${2:-glibc}
calls=${3:-2000000}
lib=${MEMSHIM_LIBRARY:-$top/.libs/libmemshim.so}
baseline=${4:-}
program=$top/bench/record_overhead
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for round in $(seq "$rounds"); do
	for setting in off record mark profile timed every ${baseline:+baseline}; do
		rm -f "$work"/dump.*
		case $setting in
		off) env MEMSHIM_IMPL=$variant LD_PRELOAD="$lib" "$program" "$calls" ;;
		record) env MEMSHIM_IMPL=$variant MEMSHIM_HIST="$work/dump.%p" LD_PRELOAD="$lib" "$program" "$calls" ;;
		mark) env MEMSHIM_IMPL=$variant MEMSHIM_HIST="$work/dump.%p" MEMSHIM_PROFILE=2 LD_PRELOAD="$lib" "$program" "$calls" ;;
		profile) env MEMSHIM_IMPL=$variant MEMSHIM_HIST="$work/dump.%p" MEMSHIM_PROFILE=on LD_PRELOAD="$lib" "$program" "$calls" ;;
		timed) env MEMSHIM_IMPL=$variant MEMSHIM_HIST="$work/dump.%p" MEMSHIM_TIMING=on LD_PRELOAD="$lib" "$program" "$calls" ;;
		every) env MEMSHIM_IMPL=$variant MEMSHIM_HIST="$work/dump.%p" MEMSHIM_TIMING=1 LD_PRELOAD="$lib" "$program" "$calls" ;;
		baseline) env MEMSHIM_IMPL=$variant MEMSHIM_HIST="$work/dump.%p" LD_PRELOAD="$baseline" "$program" "$calls" ;;
		esac | sed "s/^/$round $setting /" >>"$work/results"
	done
done
echo "recording and profiling overhead: variant $variant, $rounds rounds interleaved, $calls calls a size, the fastest of 20 batches, clock_gettime(CLOCK_MONOTONIC)"
python3 - "$work/results" <<'PY'
import statistics, sys
ns = {}
for line in open(sys.argv[1]):
    r, setting, size, value = line.split()
    ns.setdefault(size, {}).setdefault(setting, {})[int(r)] = float(value)
def spread(values):
    return f"{statistics.median(values):6.2f} ({min(values):.2f}..{max(values):.2f})"
print("size  ns/call: off  record    mark profile | added by recording | by marking | sampling, % of run")
for size, s in sorted(ns.items(), key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0)):
    rounds = sorted(s["off"])
    med = {k: statistics.median(v.values()) for k, v in s.items()}
    rec = [s["record"][r] - s["off"][r] for r in rounds]
    mark = [s["mark"][r] - s["record"][r] for r in rounds]
    samp = [100 * (s["profile"][r] - s["mark"][r]) / s["mark"][r] for r in rounds]
    print(f"{size:<5} {med['off']:12.2f} {med['record']:7.2f} {med['mark']:7.2f} {med['profile']:7.2f} |"
          f" {spread(rec)} | {spread(mark)} | {spread(samp)}")
base = "baseline" in next(iter(ns.values()))
print("\nsize  ns/call: timed   every | timing on (1 in 64) adds | a timed call costs"
      + (" | recording: this - baseline" if base else ""))
for size, s in sorted(ns.items(), key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0)):
    rounds = sorted(s["off"])
    med = {k: statistics.median(v.values()) for k, v in s.items()}
    timed = [s["timed"][r] - s["record"][r] for r in rounds]
    every = [s["every"][r] - s["record"][r] for r in rounds]
    line = f"{size:<5} {med['timed']:13.2f} {med['every']:7.2f} | {spread(timed):>24} | {spread(every):>18}"
    if base:
        line += f" | {spread([s['record'][r] - s['baseline'][r] for r in rounds])}"
    print(line)
PY
