#!/bin/sh
# Report's figures with their basis, on hand-made dumps: every share with
# the samples it rests on ("1 sample", not "1 samples"); the CPU time the
# samples stand for, and apart from it that of the threads not sampled;
# and the profile's time beside the timed calls' total, with a note where
# they differ beyond both intervals.
. "${top_srcdir:-.}/tests/lib.sh"
tool=$T_MEMSHIM_TOOL

# dump NAME PROCESS_CPU_NS CPU_LINE TIMED_LINE: 100000 memcpy calls of
# 100 B under glibc, 20000 samples of 1 ms (20 s sampled) in a process of
# PROCESS_CPU_NS, the copies' samples and ns, and their timed calls; and 10
# memset calls, in 1 sample.
dump() {
	printf '%s\n' "memshim-histogram 5" "pid 1" "program p" "reason exit" "variant memcpy glibc" "function memcpy" \
		"bucket 96 104 100000 10000000" "function memset" "bucket 96 104 10 1000" \
		"profile 1000 20000 20000000000 $2 30000000000 0" "recording_apart 1" "function memcpy" \
		"cpu 96 104 $3" "function memset" "cpu 96 104 1 1000000" \
		"timing 64 2600000000 15000 monotonic" "function memcpy" "timed 96 104 $4" "end" >"$scratch/$1.hist"
	"$tool" report "$scratch/$1.hist" >"$scratch/$1.txt" 2>&1
}

# The copies: 2000 samples, 2 s; timed at 20 us a call (2 s for the 100000).
dump agree 20000000000 "2000 2000000000" "1000 20000000 400000000000 0"
text=$(cat "$scratch/agree.txt")
expect_match "a share says how many samples it rests on" "$text" \
	'^  time: 10\.0% of CPU time \([0-9.]+–[0-9.]+%\), 2000\.0 ms, from 2000 samples(;|$)'
expect_match "the samples and the CPU time they stand for" "$text" \
	'^  20000 samples over 20000\.0 ms of CPU time in 1 profiled process$'
expect_eq "the profile and the timed calls agree: no note" "$(grep -c 'differ beyond their intervals' "$scratch/agree.txt")" 0

# The timed calls at 10 ns (1 ms in all), far from the profile's; the
# process took 32 s of CPU, 12 s of it unsampled.
dump apart 32000000000 "2000 2000000000" "1000 10000 100000 0"
text=$(cat "$scratch/apart.txt")
expect_match "one sample, said so" "$text" '^  memset: .*, from 1 sample(;|$)'
expect_eq "never \"1 samples\"" "$(grep -c '[^0-9]1 samples' "$scratch/apart.txt")" 0
expect_match "threads not sampled: their CPU time apart" "$(printf '%s\n' "$text" | tr '\n' ' ')" \
	'20000 samples over 20000\.0 ms of CPU time in 1 profiled process; +12000\.0 ms more in threads before their first call of these functions \(or with none\), +not sampled; the shares below are of all 32000\.0 ms'
expect_match "profile and timed calls apart beyond their intervals: said, with both" "$(printf '%s\n' "$text" | tr '\n' ' ')" \
	'\(the two differ beyond their intervals, profile [0-9.]+–[0-9.]+ ms, timed 1\.0–1\.0 ms: the profile +holds all of each call.s CPU time'

# The timed calls at 100 us (10 s in all), far above the profile's 2 s:
# the other reason, latency.
dump above 32000000000 "2000 2000000000" "1000 100000000 10000000000000 0"
expect_match "timed calls above the profile beyond their intervals: the fenced latency said" \
	"$(tr '\n' ' ' <"$scratch/above.txt")" \
	'\(the two differ beyond their intervals, profile [0-9.]+–[0-9.]+ ms, timed [0-9.]+–[0-9.]+ ms: a timed call +runs alone, fenced, so it pays the whole latency'
finish
