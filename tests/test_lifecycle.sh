#!/bin/sh
# Recording through a process's whole life: 16 threads copying while their
# signal handlers copy too; fork, vfork+exec, exec and fork from a thread
# other than main; a library that copies, loaded and unloaded 1000 times;
# exit() from a thread; _exit and SIGKILL after an interval dump; SIGKILL
# at any moment of a stream of dumps; SIGTERM as MEMSHIM_DUMP_SIGNAL.
# Counts are exact (tests/hist_check.py); every run is under `timeout`, so
# a deadlock fails the test (status 124) instead of hanging it.
. "${top_srcdir:-.}/tests/lib.sh"
. "${top_srcdir:-.}/tests/hist_lib.sh"
dlcopy=$top_builddir/tests/.libs/libdlcopy.so

not_timed_out() { if [ "$rc" = 124 ] || [ "$rc" = 137 ] && [ "${1:-}" != killed ]; then fail "$what_run: timed out (deadlock?)"; fi; }
pid_of() { awk -v k="${1:-pid}" '$1 == k { print $2; exit }' "$scratch/out"; }
files() { (cd "$dir" && ls | sort | tr '\n' ' '); }

# ---- threads and signals ----
rm -f "$dir"/*
run MEMSHIM_DUMP="$dir/h" "$program" thread-signals 20000
expect_eq "16 threads with signal handlers: exit status" "$rc" 0
handled=$(pid_of handled)
expect_match "16 threads: the handlers ran" "$handled" '^[1-9][0-9]*$'
expect_counts "16 threads, handlers copying on those threads ($handled signals): exact counts" \
	320000 "$handled" "$dir/h"

# ---- fork, vfork+exec, exec and fork from a second thread ----
rm -f "$dir"/*
run MEMSHIM_DUMP="$dir/h.%p" "$program" vfork-exec 300
expect_eq "vfork+exec: exit status" "$rc" 0
parent=$(pid_of) child=$(pid_of child)
expect_eq "vfork+exec: one file each, the parent's and the exec'd child's" "$(files)" \
	"$(printf 'h.%s\nh.%s\n' "$parent" "$child" | sort | tr '\n' ' ')"
expect_counts "vfork+exec: the parent's file has the parent's calls" 300 0 "$dir/h.$parent"
expect_counts "vfork+exec: the child's file has the exec'd program's calls" 600 0 "$dir/h.$child"

rm -f "$dir"/*
run MEMSHIM_DUMP="$dir/h.%p" "$program" thread-exec 200
expect_eq "exec from a second thread: exit status" "$rc" 0
pid=$(pid_of)
expect_eq "exec from a second thread: the dump before exec and the new program's" "$(files)" "h.$pid h.$pid.1 "
expect_counts "exec from a second thread: calls before the exec" 200 0 "$dir/h.$pid"
expect_match "exec from a second thread: reason exec" "$(cat "$dir/h.$pid")" '^reason exec$'
expect_counts "exec from a second thread: the new program's calls" 400 0 "$dir/h.$pid.1"

rm -f "$dir"/*
run MEMSHIM_DUMP="$dir/h.%p" "$program" thread-fork 250
expect_eq "fork from a second thread: exit status" "$rc" 0
parent=$(pid_of) child=$(pid_of child)
expect_counts "fork from a second thread: the parent's calls" 250 0 "$dir/h.$parent"
expect_counts "fork from a second thread: the child's own calls" 500 0 "$dir/h.$child"

# ---- dlopen and dlclose, 1000 times ----
for extra in "" MEMSHIM_CALLSITES=1; do
	rm -f "$dir"/*
	# shellcheck disable=SC2086
	run MEMSHIM_DUMP="$dir/h" $extra "$program" dlopen-loop "$dlcopy" 1000
	expect_eq "dlopen/dlclose 1000 times${extra:+ with $extra}: exit status" "$rc:$err" "0:"
	report_json "$dir/h"
	if [ "$rc_report" = 0 ] && detail=$(python3 - "$scratch/report.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["functions"]
def bucket(fn, size):
    return sum(b["calls"] for b in f[fn]["buckets"] if b["lo"] <= size < b["hi"])
got = (f["memcpy"]["calls"], bucket("memcpy", 77), f["memset"]["calls"], bucket("memset", 333))
want = (1003, 1000, 1004, 1000)
if got != want:
    print("memcpy calls, 77-byte memcpys, memset calls, 333-byte memsets:", got, "expected", want)
    sys.exit(1)
PY
	); then
		pass "dlopen/dlclose 1000 times${extra:+ with $extra}: every call of the unloaded library counted"
	else
		fail "dlopen/dlclose 1000 times${extra:+ with $extra}: ${detail:-$(cat "$scratch/report.err")}"
	fi
done

# ---- ways to end ----
rm -f "$dir"/*
run MEMSHIM_DUMP="$dir/h" "$program" thread-exit 300
expect_eq "exit() from a second thread: exit status" "$rc" 0
expect_counts "exit() from a second thread: every call" 600 0 "$dir/h"
expect_match "exit() from a second thread: reason exit" "$(cat "$dir/h")" '^reason exit$'

rm -f "$dir"/*
run MEMSHIM_DUMP="$dir/h" MEMSHIM_DUMP_INTERVAL=1 "$program" dumped-exit 400 "$dir/h"
expect_eq "_exit after an interval dump: exit status" "$rc" 0
expect_counts "_exit after an interval dump: the dump has the calls" 400 0 "$dir/h"
expect_match "_exit after an interval dump: _exit dumped last" "$(cat "$dir/h")" '^reason exit$'

rm -f "$dir"/*
run MEMSHIM_DUMP="$dir/h" MEMSHIM_DUMP_INTERVAL=1 "$program" dumped-kill 350 "$dir/h"
expect_eq "SIGKILL after an interval dump: killed" "$rc" 137
expect_counts "SIGKILL after an interval dump: the file is complete, with the calls" 350 0 "$dir/h"

rm -f "$dir"/*
run MEMSHIM_DUMP="$dir/h" MEMSHIM_DUMP_SIGNAL=TERM "$program" sigterm 150
expect_eq "SIGTERM as MEMSHIM_DUMP_SIGNAL: the default action still ends the program" "$rc:$out" \
	"143:pid $(pid_of)"
expect_counts "SIGTERM as MEMSHIM_DUMP_SIGNAL: dumped first" 150 0 "$dir/h"
expect_match "SIGTERM as MEMSHIM_DUMP_SIGNAL: reason signal" "$(cat "$dir/h")" '^reason signal$'

# SIGKILL at any moment of a stream of dumps (one per SIGUSR1, back to
# back): the file must always be the last complete dump, never a half one.
# The moment of the kill varies; no outcome depends on it.
for i in 1 2 3 4 5 6 7 8; do
	rm -rf "$dir" && mkdir "$dir"
	LD_PRELOAD="$MEMSHIM_LIBRARY" timeout -k 5 "$limit" env MEMSHIM_DUMP="$dir/h" \
		MEMSHIM_DUMP_SIGNAL=USR1 "$program" dump-storm 100 "$dir/h" >"$scratch/out" 2>"$scratch/err" &
	background=$!
	tries=0
	while ! grep -q '^dumped$' "$scratch/out" && [ $tries -lt 3000 ]; do
		sleep 0.01
		tries=$((tries + 1))
	done
	sleep "0.0$i"
	kill -KILL "$(pid_of)" 2>/dev/null
	wait $background
	rc=$?
	expect_eq "SIGKILL during dump stream $i: killed, not timed out" "$rc" 137
	expect_counts "SIGKILL during dump stream $i: the file is a complete dump" 100 0 "$dir/h"
done

finish
