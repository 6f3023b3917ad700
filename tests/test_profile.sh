#!/bin/sh
# Profiling (MEMSHIM_PROFILE): a program that measures its own CPU shares
# in 64 KiB and 16-byte copies gets them back from the dump within 5
# points, in one thread, in four, in a forked child, beside its own
# SIGPROF profiler; sleeps and pipe reads are never cut short; a program
# that takes over the profiler's signal is said to have done so; exec
# keeps profiling; bad values get one message.
. "${top_srcdir:-.}/tests/lib.sh"
program=$(cd "$top_builddir" && pwd)/tests/profile_program
check=${top_srcdir:-.}/tests/profile_check.py
dir=$scratch/dumps
mkdir "$dir"

# profiled WHAT MODE SECONDS: runs the program profiled; the dump is $dump.
profiled() {
	rm -f "$dir"/*
	preloaded env MEMSHIM_PROFILE=on MEMSHIM_HIST="$dir/p.%p" "$program" "$2" "$3"
	expect_eq "$1: exits 0" "$rc" 0
	expect_eq "$1: nothing on stderr" "$err" ""
	dump=$(ls -t "$dir"/p.* 2>/dev/null | head -1)
}

# shares_match WHAT: the dump's shares against the program's own.
shares_match() {
	if detail=$(python3 "$check" "$dump" "$scratch/out" 2>&1); then
		pass "$1: shares within 5 points ($(echo $detail))"
	else
		fail "$1: $detail"
	fi
}

profiled "one thread" mix 2.5
shares_match "one thread"
expect_match "one thread: the dump has a profile with samples" "$(grep '^profile' "$dump")" '^profile 1000 [1-9][0-9]+ '

profiled "four threads" threads 0.8
shares_match "four threads"

profiled "forked child" fork 2
child_dump=$(grep -l "^pid $(awk '$1 == "pid" {print $2}' "$dir"/p.* | sort -n | tail -1)\$" "$dir"/p.*)
dump=$child_dump
shares_match "forked child"

profiled "own SIGPROF profiler" sigprof 2
shares_match "own SIGPROF profiler"
expect_match "own SIGPROF profiler: its handler still runs" "$out" '^sigprof [1-9][0-9]*$'

profiled "sleeps and pipe reads" sleeper 1
expect_match "sleeps and pipe reads: none cut short or failed" "$out" '^sleeper ok$'

profiled "program takes the signal" takeover 0.3
expect_match "program takes the signal: the dump says so" "$(grep '^profile' "$dump")" ' 1$'

rm -f "$dir"/*
preloaded env MEMSHIM_PROFILE=on MEMSHIM_HIST="$dir/p.%p" sh -c "exec '$program' mix 0.5"
expect_eq "after exec: exits 0" "$rc" 0
expect_match "after exec: the new program's dump has samples" \
	"$(grep -h '^profile' "$dir"/p.* | sort -k3 -n | tail -1)" '^profile 1000 [1-9][0-9]+ '

preloaded env MEMSHIM_PROFILE=often MEMSHIM_HIST="$dir/bad.%p" true
expect_match "a bad rate: one message" "$err" '^memshim: MEMSHIM_PROFILE="often" is not a number.*no profile'
expect_eq "a bad rate: one line" "$(printf '%s\n' "$err" | wc -l)" 1
preloaded env MEMSHIM_PROFILE=on true
expect_match "without MEMSHIM_HIST: said" "$err" 'MEMSHIM_PROFILE need MEMSHIM_HIST; ignored'
finish
