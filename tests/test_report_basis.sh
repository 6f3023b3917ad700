#!/bin/sh
# Report's figures with their basis, on hand-made dumps: the bottom line
# (the three's share, the recording's, the hazard, what a setting must
# win to show, or that nothing can); every share with
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

# The bottom line, first: the three's share together (2001 samples, 2001 ms
# of 20 s), what the recording added, the hazard, where the time goes (the
# memset class, 1 ms, too small to name), and the cut a setting must make
# to show in a recording like this: the interval's half-width, 0.4 points
# of 10%, 5% of the time.
expect_eq "the bottom line: the share of all three, where it goes, what a setting must win" "$(sed -n 2,8p "$scratch/agree.txt")" \
"bottom line: memcpy, memmove and memset together took 10.0% of CPU time (9.6–10.4%), 2001.0 ms, from 2001 samples
  memshim's recording added 0.0% of CPU time (0.0–0.0%) on top, not in that share
  hazard: none that takes 1% of a function's time
  where the time goes: memcpy at 65-256 B (10.0% of CPU time);
  a setting must cut the three's time by 5% or more to show in a recording like this one
  (+-0.4 points); memshim tune predicts what this machine's variants win, ab --in-process
  proves a smaller gain"
# 20 samples of 20000 in the copies: under 1% in all, nothing to gain.
dump little 20000000000 "19 19000000" "1000 20000000 400000000000 0"
expect_match "under 1% in all: nothing to gain here" "$(sed -n 5p "$scratch/little.txt")" \
	'^  nothing to gain here: the three take under 1% of CPU time, so no setting can win more$'
# 3 samples of 100: an interval wider than the share itself.
dump few 100000000 "2 2000000" "1000 20000000 400000000000 0"
sed -i 's/^profile 1000 20000 20000000000 /profile 1000 100 100000000 /' "$scratch/few.hist"
"$tool" report "$scratch/few.hist" >"$scratch/few.txt" 2>&1
expect_match "a share its interval does not resolve: said, with its upper end" "$(sed -n 5p "$scratch/few.txt")" \
	'^  their time is not resolved: from 3 samples, at most [0-9.]+% of CPU time; a longer run$'

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
