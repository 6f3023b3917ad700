#!/bin/sh
# What recording (MEMSHIM_DUMP) adds to a memcpy call, measured as the
# engine measures: memshim bench --default under MEMSHIM_DUMP times the
# exported memcpy (the recording wrapper, calling glibc's) against glibc's
# own function on the same calls, paired in one process, at 8, 64, 512 and
# 4096 bytes and on Memcpy_Fleet, each in L1, L2, the L3 and cold.  The L3
# placement reads twice the L2 of other data before each batch, so the
# recording's own counters and table leave L1 and L2 as the copies' data
# does; the cold one flushes the copies' lines only.
# With several LIBRARY builds (e.g. the one before a change and this one)
# the processes alternate between them; each gets PROCESSES processes.
# Prints per case glibc's ns a call and, per library, the ns the recording
# adds (the median ratio's excess times glibc's ns): the median over the
# processes, their least and greatest, and the widest 95% interval within a
# process.  Both names of the dump's variable are set: a build from before
# MEMSHIM_DUMP reads MEMSHIM_HIST.  Writes only in a temporary folder, removed at the end.
# usage: bench/record-cost.sh [PROCESSES] [LIBRARY...]    (after make; default 3, this build)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
processes=${1:-3}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- "$top/.libs/libmemshim.so"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in 8 64 512 4096; do
	printf '%s:1\n0:1\n64:1\n' $n >"$work/Memcpy_${n}B.csv"
done
"$top/tools/memshim" info | grep '^CPU'
uptime
for p in $(seq "$processes"); do
	i=0
	for lib in "$@"; do
		i=$((i + 1))
		MEMSHIM_LIBRARY=$lib MEMSHIM_IMPL=glibc MEMSHIM_DUMP="$work/dump.%p" MEMSHIM_HIST="$work/dump.%p" "$top/tools/memshim" bench \
			--default --variants glibc --functions memcpy --cases dist --processes 1 --seconds 1 \
			--distribution "$work/Memcpy_8B.csv" --distribution "$work/Memcpy_64B.csv" \
			--distribution "$work/Memcpy_512B.csv" --distribution "$work/Memcpy_4096B.csv" \
			--distribution "$top/data/distributions/fleetbench/Memcpy_Fleet.csv" \
			--csv "$work/lib$i.process$p.csv" >/dev/null
		rm -f "$work"/dump.*
	done
done
uptime
python3 - "$work" "$@" <<'PY'
import csv, glob, statistics, sys
work, libs = sys.argv[1], sys.argv[2:]
cases, glibc, added = [], {}, {}
for i, lib in enumerate(libs, 1):
    for path in sorted(glob.glob(f"{work}/lib{i}.process*.csv")):
        rows = list(csv.DictReader(open(path)))
        base = {(r["size"], r["placement"]): float(r["median"]) for r in rows if r["variant"] == "glibc"}
        for r in rows:
            if r["variant"] != "default":
                continue
            key = (r["size"].replace("Memcpy_", ""), r["placement"])
            if key not in cases:
                cases.append(key)
            ns = base[(r["size"], r["placement"])]
            glibc.setdefault(key, []).append(ns)
            ratio, low, high = (float(r[k]) for k in ("ratio_to_glibc", "ratio_low", "ratio_high"))
            added.setdefault((i, key), []).append(((ratio - 1) * ns, (high - low) / 2 * ns))
print("ns added a call by recording: median over processes (least..greatest) +-widest half-interval in one")
print(f"{'case':<10} {'place':<5} {'glibc ns':>8}" + "".join(f"  {'library ' + str(i):<28}" for i in range(1, len(libs) + 1)))
for key in cases:
    line = f"{key[0]:<10} {key[1]:<5} {statistics.median(glibc[key]):8.2f}"
    for i in range(1, len(libs) + 1):
        v = added.get((i, key), [])
        if v:
            ns = [a for a, _ in v]
            cell = f"{statistics.median(ns):+6.2f} ({min(ns):+.2f}..{max(ns):+.2f}) +-{max(h for _, h in v):.2f}"
        else:
            cell = "-"
        line += f"  {cell:<28}"
    print(line)
for i, lib in enumerate(libs, 1):
    print(f"library {i}: {lib}")
PY
