#!/bin/sh
# What recording (MEMSHIM_DUMP) and profiling (MEMSHIM_PROFILE) add to a
# memcpy call.
#
# First, paired inside a process: bench/record-cost.sh (the recording
# wrapper against glibc's own function on the same calls, by the engine, in
# three processes, at 8, 64, 512 and 4096 bytes and on Memcpy_Fleet, each in
# L1, L2, the L3 and cold).  A process's speed drifts from run to run by
# more than the wrapper costs, so this is the figure; the separate processes below add what the engine
# cannot set (marking, sampling, timing, windows, a baseline build).
#
# Then bench/record_overhead with the library preloaded in these settings,
# interleaved, ROUNDS times each (default 9):
#   off      the variant alone
#   record   MEMSHIM_DUMP: the recording wrapper
#   mark     MEMSHIM_DUMP and MEMSHIM_PROFILE=2: the wrapper marks the call
#            in progress; 2 samples a second cost nothing measurable
#   profile  MEMSHIM_DUMP and MEMSHIM_PROFILE=on: marking and sampling at
#            the default rate
#   timed    MEMSHIM_DUMP and MEMSHIM_TIMING=on: one call in 64 timed
#   every    MEMSHIM_DUMP and MEMSHIM_TIMING=1: every call timed
#   windows  MEMSHIM_DUMP and MEMSHIM_SEQUENCES=on: windows of 64 calls kept
#   baseline MEMSHIM_DUMP with the library BASELINE (another build: what a
#            change to the recording path costs), when it is given
# and prints, for 8, 64, 512 and 4096-byte copies and for mixed sizes
# (0-512 B), the median ns per call of each and the medians (min..max) of
# the per-round differences: what recording adds, what marking adds on
# top; then what timing one call in 64 adds per call, what a timed call
# costs, what keeping windows of calls adds per call, and what the
# baseline's recording adds, and this one against it.
# The variant is the same throughout (MEMSHIM_IMPL, default glibc).
#
# Sampling is spread over the run, so its cost is a share of the process's
# CPU time over all the loops, profile against mark, pair by pair.  After
# the rounds, pairs of mark and profile runs go on (in alternating order)
# until the 95% interval of the median share is within +-0.5 point (so
# that 1% is resolved) or MAX_PAIRS pairs (default 300; 0: sampling is not
# measured) have run; the median, its interval and the number of pairs are
# printed, and so is the sampling rate the profiled runs took, from their
# dumps, beside the one asked.  Writes only in a temporary folder, removed
# at the end.
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
mkdir "$work/profiles"
max_pairs=${MAX_PAIRS:-300}
# run SETTING ROUND: one run, its lines prefixed with the round and setting.
run() {
	rm -f "$work"/dump.*
	case $1 in
	off) env MEMSHIM_IMPL=$variant LD_PRELOAD="$lib" "$program" "$calls" ;;
	record) env MEMSHIM_IMPL=$variant MEMSHIM_DUMP="$work/dump.%p" LD_PRELOAD="$lib" "$program" "$calls" ;;
	mark) env MEMSHIM_IMPL=$variant MEMSHIM_DUMP="$work/dump.%p" MEMSHIM_PROFILE=2 LD_PRELOAD="$lib" "$program" "$calls" ;;
	profile) env MEMSHIM_IMPL=$variant MEMSHIM_DUMP="$work/profiles/dump.%p" MEMSHIM_PROFILE=on \
		LD_PRELOAD="$lib" "$program" "$calls" ;;
	timed) env MEMSHIM_IMPL=$variant MEMSHIM_DUMP="$work/dump.%p" MEMSHIM_TIMING=on LD_PRELOAD="$lib" "$program" "$calls" ;;
	every) env MEMSHIM_IMPL=$variant MEMSHIM_DUMP="$work/dump.%p" MEMSHIM_TIMING=1 LD_PRELOAD="$lib" "$program" "$calls" ;;
	windows) env MEMSHIM_IMPL=$variant MEMSHIM_DUMP="$work/dump.%p" MEMSHIM_SEQUENCES=on LD_PRELOAD="$lib" "$program" "$calls" ;;
	baseline) env MEMSHIM_IMPL=$variant MEMSHIM_DUMP="$work/dump.%p" LD_PRELOAD="$baseline" "$program" "$calls" ;;
	esac | sed "s/^/$2 $1 /" >>"$work/results"
}
# In one process: the recording wrapper against the glibc function it calls.
echo "recording, paired in a process (bench/record-cost.sh, 3 processes):"
"$top/bench/record-cost.sh" 3 "$lib"
echo
for round in $(seq "$rounds"); do
	for setting in off record mark profile timed every windows ${baseline:+baseline}; do
		run $setting "$round"
	done
done
# sampling [resolved]: the sampling share's median and 95% interval (order
# statistics), or with "resolved", whether that interval is within +-0.5.
sampling() {
	python3 - "$work/results" "$@" <<'PY'
import math, sys
cpu = {}
for line in open(sys.argv[1]):
    r, setting, key, value = line.split()
    if key == "cpu_ns":
        cpu.setdefault(setting, {})[int(r)] = float(value)
share = sorted(100 * (cpu["profile"][r] - cpu["mark"][r]) / cpu["mark"][r] for r in cpu.get("profile", {}) if r in cpu["mark"])
n = len(share)
if n == 0:
    sys.exit(1) if sys.argv[2:] else print("sampling: not measured")
    sys.exit(0)
half_rank = 0.98 * math.sqrt(n)
low, high = share[max(0, math.floor(n / 2 - half_rank) - 1)], share[min(n - 1, math.ceil(n / 2 + half_rank) - 1)]
if sys.argv[2:] == ["resolved"]:
    sys.exit(0 if n >= 10 and high - low <= 1.0 else 1)
median = share[n // 2] if n % 2 else (share[n // 2 - 1] + share[n // 2]) / 2
print(f"sampling at the default rate, % of the loops' CPU time (profile against mark, {n} pairs):"
      f" median {median:+.2f} (95%: {low:+.2f} .. {high:+.2f})" + ("" if high - low <= 1.0 else "; not resolved to +-0.5"))
PY
}
pair=$rounds
while [ "$pair" -lt "$max_pairs" ] && ! sampling resolved; do
	for i in 1 2 3 4 5; do
		pair=$((pair + 1))
		if [ $((pair % 2)) = 0 ]; then run mark $pair; run profile $pair; else run profile $pair; run mark $pair; fi
	done
done
echo "recording and profiling overhead: variant $variant, $rounds rounds interleaved, $calls calls a size, the fastest of 20 batches, clock_gettime(CLOCK_MONOTONIC)"
python3 - "$work/results" "$rounds" <<'PY'
import statistics, sys
ns = {}
for line in open(sys.argv[1]):
    r, setting, size, value = line.split()
    if size != "cpu_ns" and int(r) <= int(sys.argv[2]):
        ns.setdefault(size, {}).setdefault(setting, {})[int(r)] = float(value)
def spread(values):
    return f"{statistics.median(values):6.2f} ({min(values):.2f}..{max(values):.2f})"
print("size  ns/call: off  record    mark profile | added by recording | added by marking")
for size, s in sorted(ns.items(), key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0)):
    rounds = sorted(s["off"])
    med = {k: statistics.median(v.values()) for k, v in s.items()}
    rec = [s["record"][r] - s["off"][r] for r in rounds]
    mark = [s["mark"][r] - s["record"][r] for r in rounds]
    print(f"{size:<5} {med['off']:12.2f} {med['record']:7.2f} {med['mark']:7.2f} {med['profile']:7.2f} |"
          f" {spread(rec):>18} | {spread(mark)}")
base = "baseline" in next(iter(ns.values()))
print("\nsize  ns/call: timed   every windows | timing on (1 in 64) adds | a timed call costs | windows add"
      + (" | the baseline's recording adds | this - baseline" if base else ""))
for size, s in sorted(ns.items(), key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0)):
    rounds = sorted(s["off"])
    med = {k: statistics.median(v.values()) for k, v in s.items()}
    timed = [s["timed"][r] - s["record"][r] for r in rounds]
    every = [s["every"][r] - s["record"][r] for r in rounds]
    windows = [s["windows"][r] - s["record"][r] for r in rounds]
    line = (f"{size:<5} {med['timed']:13.2f} {med['every']:7.2f} {med['windows']:7.2f} | {spread(timed):>24} |"
            f" {spread(every):>18} | {spread(windows):>11}")
    if base:
        line += (f" | {spread([s['baseline'][r] - s['off'][r] for r in rounds]):>29}"
                 f" | {spread([s['record'][r] - s['baseline'][r] for r in rounds])}")
    print(line)
PY
sampling
python3 - "$work"/profiles/dump.* <<'PY'
import sys
asked = samples = sampled = 0
for path in sys.argv[1:]:
    for line in open(path):
        w = line.split()
        if w and w[0] == "profile":
            asked = int(w[1]); samples += int(w[2]); sampled += int(w[3])
if sampled:
    print(f"sampling rate: asked {asked} a second of CPU time, taken {samples / (sampled / 1e9):.0f}"
          f" ({samples} samples standing for {sampled / 1e6:.0f} ms of CPU in {len(sys.argv) - 1} profiled runs)")
PY
