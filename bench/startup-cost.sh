#!/bin/sh
# What preloading the library adds to a process's start: CPU time (user +
# system, from the children's rusage) of a shell running /bin/true 300
# times, without the library and with it (and with BASELINE, another build,
# when given), interleaved ROUNDS times (default 15), order rotated each
# round.  Prints the median microseconds per /bin/true of each, and the
# median (min..max) of the per-round differences.
# usage: bench/startup-cost.sh [ROUNDS] [BASELINE]    (after make)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
exec python3 - "${1:-15}" "${MEMSHIM_LIBRARY:-$top/.libs/libmemshim.so}" "${2:-}" <<'PY'
import os, resource, statistics, subprocess, sys
rounds, library, baseline = int(sys.argv[1]), sys.argv[2], sys.argv[3]
settings = {"none": "", "library": library}
if baseline:
    settings["baseline"] = baseline
starts = 300
command = ["sh", "-c", f"i=0; while [ $i -lt {starts} ]; do /bin/true; i=$((i+1)); done"]
times = {k: [] for k in settings}
names = list(settings)
for r in range(rounds):
    for k in names[r % len(names):] + names[:r % len(names)]:
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        if settings[k]:
            env["LD_PRELOAD"] = settings[k]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, env=env, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        times[k].append(cpu / starts * 1e6)
print(f"CPU microseconds per start of /bin/true, {rounds} rounds of {starts} interleaved")
for k in names:
    print(f"  {k:9} median {statistics.median(times[k]):7.1f}")
def diff(a, b):
    d = [x - y for x, y in zip(times[a], times[b])]
    return f"median {statistics.median(d):6.1f} ({min(d):.1f}..{max(d):.1f})"
print(f"  library - none:     {diff('library', 'none')}")
if baseline:
    print(f"  baseline - none:    {diff('baseline', 'none')}")
    print(f"  baseline - library: {diff('baseline', 'library')}")
PY
