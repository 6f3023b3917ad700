#!/bin/sh
# Checks MEMSHIM_PROFILE against perf: runs one program once with both
# sampling it, perf's cpu-clock event and memshim's profiler, and prints
# each one's share of CPU time inside memcpy, memmove and memset, the
# copies apart from memshim's recording:
#   copies     perf: the variants' own symbols (the library's memshim_*
#              functions and glibc's __mem*_*); memshim: the cpu records
#   recording  perf: the recording wrappers (recording_*, profiling_*, timed_*) and
#              the other code of the library's memshim_recording_* sections;
#              memshim: the recording_cpu records
# Writes only in a temporary folder, removed at the end (perf record -N:
# nothing in perf's build-id cache in HOME).
# usage: bench/profile-vs-perf.sh [VARIANT] -- PROGRAM ARGS...   (after make; needs perf)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
variant=glibc
[ "${1:-}" = "--" ] || { variant=$1; shift; }
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
perf record -q -N -e cpu-clock -F 4000 -o "$work/perf.data" -- env MEMSHIM_IMPL="$variant" \
	MEMSHIM_PROFILE=on MEMSHIM_DUMP="$work/dump.%p" LD_PRELOAD="$top/.libs/libmemshim.so" "$@" >/dev/null
# The library's recording code: every symbol perf may name in its sections.
objdump -t "$top/.libs/libmemshim.so" | awk '$4 ~ /^memshim_recording_/ { print $NF }' >"$work/recording-symbols"
cat >"$work/perf_share.py" <<'PY'
import re, sys
recording = set(open(sys.argv[1]).read().split())
# glibc serves memcpy and memmove with one function (__memmove_*), so perf
# cannot tell them apart: they are added up on both sides.
share = {}
for line in sys.stdin:
    m = re.match(r"\s+([0-9.]+)%\s+\[\.\]\s+(\S+)", line)
    if not m:
        continue
    value, sym = float(m.group(1)), m.group(2)
    part = "recording" if sym in recording else "copies"
    if re.match(r"^(memshim_)?_*(memset|bzero|explicit_bzero)(_|$)", sym) or sym.startswith("__memset_") or \
            (part == "recording" and re.search(r"(memset|bzero|set_)", sym)):
        fn = "memset"
    elif re.match(r"^(memshim_)?_*(memcpy|mempcpy|memmove|bcopy)(_|$)", sym) or \
            sym.startswith(("__memmove_", "__memcpy_")) or part == "recording":
        fn = "memcpy+memmove"
    else:
        continue
    share[fn, part] = share.get((fn, part), 0) + value
print("perf cpu-clock (4000 Hz):  " + "  ".join(
    f"{fn} {share.get((fn, 'copies'), 0):.2f}% + recording {share.get((fn, 'recording'), 0):.2f}%"
    for fn in ("memcpy+memmove", "memset")))
PY
perf report -i "$work/perf.data" --stdio --sort sym 2>/dev/null | python3 "$work/perf_share.py" "$work/recording-symbols"
"$top/tools/memshim" report "$work"/dump.* | sed -n '/^time/,/^$/p'
python3 - "$work"/dump.* <<'PY'
import sys
cpu = 0; ns = {}
for path in sys.argv[1:]:
    fn = None
    for line in open(path):
        w = line.split()
        if w[0] == "profile": cpu += int(w[4])
        elif w[0] == "function": fn = w[1]
        elif w[0] == "cpu": ns[fn, "copies"] = ns.get((fn, "copies"), 0) + int(w[4])
        elif w[0] == "recording_cpu": ns[fn, "recording"] = ns.get((fn, "recording"), 0) + int(w[2])
def pct(fns, part): return 100 * sum(ns.get((f, part), 0) for f in fns) / cpu
print("memshim profile:           " + "  ".join(f"{name} {pct(fns, 'copies'):.2f}% + recording {pct(fns, 'recording'):.2f}%"
                                             for name, fns in (("memcpy+memmove", ("memcpy", "memmove")), ("memset", ("memset",)))))
PY
