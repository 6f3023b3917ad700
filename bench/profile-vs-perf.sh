#!/bin/sh
# Checks MEMSHIM_PROFILE against perf: runs one program once with both
# sampling it, perf's cpu-clock event and memshim's profiler, and prints
# each one's share of CPU time inside memcpy, memmove and memset.  perf's
# share is that of the samples in the symbols that implement them: the
# library's wrappers and variants, and glibc's own (its __mem*_* symbols).
# usage: bench/profile-vs-perf.sh [VARIANT] -- PROGRAM ARGS...   (after make; needs perf)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
variant=glibc
[ "${1:-}" = "--" ] || { variant=$1; shift; }
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
perf record -q -e cpu-clock -F 4000 -o "$work/perf.data" -- env MEMSHIM_IMPL="$variant" \
	MEMSHIM_PROFILE=on MEMSHIM_HIST="$work/dump.%p" LD_PRELOAD="$top/.libs/libmemshim.so" "$@" >/dev/null
perf report -i "$work/perf.data" --stdio --sort sym 2>/dev/null | python3 -c '
import re, sys
# glibc serves memcpy and memmove with one function (__memmove_*), so perf
# cannot tell them apart: they are added up on both sides.
share = {"memcpy+memmove": 0.0, "memset": 0.0}
for line in sys.stdin:
    m = re.match(r"\s+([0-9.]+)%\s+\[\.\]\s+(\S+)", line)
    if not m:
        continue
    value, sym = float(m.group(1)), m.group(2)
    if re.match(r"^(recording_|profiling_|memshim_)?_*(memset|bzero|explicit_bzero)(_|$)", sym) or sym.startswith("__memset_"):
        share["memset"] += value
    elif re.match(r"^(recording_|profiling_|memshim_)?_*(memcpy|mempcpy|memmove|bcopy)(_|$)", sym) or sym.startswith("__memmove_") or sym.startswith("__memcpy_"):
        share["memcpy+memmove"] += value
print("perf cpu-clock (4000 Hz):  " + "  ".join(f"{k} {v:.1f}%" for k, v in share.items()))'
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
        elif w[0] == "cpu": ns[fn] = ns.get(fn, 0) + int(w[4])
both = ns.get("memcpy", 0) + ns.get("memmove", 0)
print(f"memshim profile:           memcpy+memmove {100 * both / cpu:.1f}%  memset {100 * ns.get('memset', 0) / cpu:.1f}%")
PY
