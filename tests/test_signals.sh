#!/bin/sh
# Nothing is lost when a recording process is told to end: SIGTERM, SIGINT
# and SIGHUP dump before they end a process, under whatever the program
# installs later (preload/signal_dump.c).
#   - a C program whose three children are sent SIGTERM: one left to the
#     default action, one with a handler that puts SIG_DFL back and raises
#     again, one with a handler that calls _exit: every dump is there, with
#     exact counts, and no empty or temporary file is left;
#     MEMSHIM_DUMP_SIGNAL=none turns it off (so the check can fail);
#   - what a program sees of its dispositions: what it set; SIG_IGN at
#     start is kept, and really reaches the kernel when set later;
#   - Python: its SIGINT handler is still installed (KeyboardInterrupt),
#     and an uncaught one still ends the process by SIGINT, after a dump;
#   - a multiprocessing.Pool, which ends its workers with SIGTERM, under
#     memshim record three times: every worker's dump, with its calls.
. "${top_srcdir:-.}/tests/lib.sh"
. "${top_srcdir:-.}/tests/hist_lib.sh"
LC_ALL=C
export LC_ALL
child_of() { awk -v k="$1" '$1 == "child" && ++n == k { print $2 }' "$scratch/out"; }
status_of() { awk -v k="$1" '$1 == "child" && ++n == k { print $3, $4 }' "$scratch/out"; }
# Files that must never be left: empty ones, temporary ones (hidden or *.tmp).
leftovers() { find "$1" -type f \( -empty -o -name '.*' -o -name '*.tmp' \) | wc -l; }

# ---- children ended with SIGTERM ----
run MEMSHIM_DUMP="$dir/h.%p" "$program" term-children 40
expect_eq "SIGTERM'd children: the parent ends normally" "$rc" 0
expect_eq "SIGTERM'd children: how each ended" "$(status_of 1); $(status_of 2); $(status_of 3)" \
	"signal 15; signal 15; exit 7"
parent=$(awk '$1 == "pid" { print $2 }' "$scratch/out")
expect_counts "the parent's dump" 40 0 "$dir/h.$parent"
expect_counts "a child left to SIGTERM's default action: its dump" 80 0 "$dir/h.$(child_of 1)"
expect_match "... written on the signal" "$(cat "$dir/h.$(child_of 1)")" '^reason signal$'
expect_counts "a child whose handler raises SIGTERM again with SIG_DFL: its dump" 120 0 "$dir/h.$(child_of 2)"
expect_counts "a child whose handler calls _exit: its dump" 160 0 "$dir/h.$(child_of 3)"
expect_eq "SIGTERM'd children: four dumps, no empty or temporary file" "$(ls "$dir" | wc -l):$(leftovers "$dir")" "4:0"

rm -rf "$dir" && mkdir "$dir"
run MEMSHIM_DUMP="$dir/h.%p" MEMSHIM_DUMP_SIGNAL=none "$program" term-children 40
parent=$(awk '$1 == "pid" { print $2 }' "$scratch/out")
expect_eq "MEMSHIM_DUMP_SIGNAL=none: only the parent and the child that calls _exit dump" \
	"$(ls "$dir" | sort | tr '\n' ' ')" "$(printf 'h.%s\n' "$parent" "$(child_of 3)" | sort | tr '\n' ' ')"

# MEMSHIM_DUMP_SIGNAL=TERM as well as the default: one dump, then the end.
rm -rf "$dir" && mkdir "$dir"
run MEMSHIM_DUMP="$dir/h" MEMSHIM_DUMP_SIGNAL=TERM "$program" sigterm 30
expect_eq "MEMSHIM_DUMP_SIGNAL=TERM: SIGTERM still ends the program" "$rc" 143
expect_counts "MEMSHIM_DUMP_SIGNAL=TERM: dumped first" 30 0 "$dir/h"

# ---- what the program sees ----
run MEMSHIM_DUMP="$dir/d.%p" "$program" dispositions
expect_eq "dispositions under recording: what the program set" "$(sed 1d "$scratch/out")" \
"start TERM default INT default HUP default
signal gives back its handler: yes
SIG_IGN reaches the kernel: yes
the kernel shows TERM caught: yes"
run MEMSHIM_DUMP="$dir/d.%p" sh -c "trap '' HUP; exec '$program' dispositions"
expect_match "a signal ignored at start stays ignored" "$(cat "$scratch/out")" \
	'^start TERM default INT default HUP ignore$'
run "$program" dispositions
expect_match "without recording the library takes no signal" "$(cat "$scratch/out")" \
	'^the kernel shows TERM caught: no$'

# ---- Python ----
python=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -z "$python" ]; then
	echo "SKIP: Python checks (no python3)"
	finish
	exit $?
fi
run MEMSHIM_DUMP="$dir/p.%p" "$python" -c 'import signal
print(signal.getsignal(signal.SIGTERM) == signal.SIG_DFL, signal.getsignal(signal.SIGHUP) == signal.SIG_DFL,
      signal.getsignal(signal.SIGINT) is signal.default_int_handler)'
expect_eq "Python sees SIG_DFL, and installs its SIGINT handler" "$rc:$out" "0:True True True"
rm -rf "$dir" && mkdir "$dir"
run MEMSHIM_DUMP="$dir/p.%p" "$python" -c 'import os, signal
os.kill(os.getpid(), signal.SIGINT)'
expect_eq "Python: an uncaught KeyboardInterrupt still ends the process by SIGINT" "$rc" 130
expect_match "... after a dump" "$(cat "$dir"/p.*)" '^reason signal$'

# ---- a multiprocessing.Pool, through memshim record ----
pool=${top_srcdir:-.}/tests/pool_workers.py
case $pool in /*) ;; *) pool=$(pwd)/$pool ;; esac
cd "$scratch" || exit 1
for i in 1 2 3; do
	"$T_MEMSHIM_TOOL" record -o "pool$i" --keep --report "$scratch/report$i" -- "$python" "$pool" \
		>"$scratch/out" 2>"$scratch/err"
	expect_eq "Pool run $i: status, nothing on stderr" "$?:$(cat "$scratch/err")" "0:"
	expect_match "Pool run $i: the parent and 3 workers" "$(cat "$scratch/report$i")" '^python3[.0-9]*, 4 processes'
	expect_eq "Pool run $i: no empty or temporary file" "$(leftovers "pool$i")" 0
	awk '$1 == "worker" { print $2, $3 }' "$scratch/out" >"$scratch/workers"
	expect_eq "Pool run $i: 3 workers did 12 tasks" "$(awk '{ n++; s += $2 } END { print n, s }' "$scratch/workers")" \
		"3 1200"
	while read -r pid calls; do
		"$T_MEMSHIM_TOOL" report --json "pool$i"/processes/*."$pid" >"$scratch/w.json" 2>"$scratch/w.err"
		got=$(python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))["functions"]["memmove"]
print(sum(b["calls"] for b in f["buckets"] if b["lo"] <= 77777 < b["hi"]))' "$scratch/w.json" 2>&1)
		expect_eq "Pool run $i: worker $pid's dump has its $calls memmoves of 77777 B" "$got" "$calls"
	done <"$scratch/workers"
done
finish
