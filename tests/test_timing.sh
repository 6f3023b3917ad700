#!/bin/sh
# Timed calls (MEMSHIM_TIMING): a program whose copies take known times gets
# timed calls back in the report, class by class, with the report's ns per
# call printed beside the program's own (a figure, not judged: no test
# decides on a clock, and a shared machine moved one such call's time past
# a factor of 2; bench/timing-bias.sh measures the timer); one call in N is
# timed (N = 1: every one), in threads too, and a program whose calls repeat
# with a period N divides still has each of them timed; a program that
# forbids itself the time-stamp counter stops timing with one line; bad
# values get one line each; the dump's timing records are read, merged and
# refused when malformed, and dumps of older formats still read; report
# (text, JSON, SVG), record --timing, ab --timing and tune's check by size
# class use them.  tests/timing_check.py, which compares the figures, is
# checked on reports made up for it.
. "${top_srcdir:-.}/tests/lib.sh"
program=$(cd "$top_builddir" && pwd)/tests/timing_program
check=${top_srcdir:-.}/tests/timing_check.py
tool=$T_MEMSHIM_TOOL
dir=$scratch/dumps
mkdir "$dir"

# timed VARIABLE... -- ARGS: the program with the library, MEMSHIM_DUMP and
# the variables; its dump (the newest) in $dump.
timed() {
	vars=
	while [ "$1" != -- ]; do
		vars="$vars $1"
		shift
	done
	shift
	rm -f "$dir"/*
	# shellcheck disable=SC2086 # the variables are words
	preloaded env MEMSHIM_DUMP="$dir/t.%p" $vars "$program" "$@"
	dump=$(ls -t "$dir"/t.* 2>/dev/null | head -1)
}

# timed_count FUNCTION SIZE: "kept dropped" of the dump's timed record of
# FUNCTION whose bucket holds SIZE (after the timing line).
timed_count() {
	awk -v f="$1" -v n="$2" '$1 == "timing" { on = 1 } on && $1 == "function" { fn = $2 }
		on && $1 == "timed" && fn == f && $2 <= n && n < $3 { print $4, $7; found = 1 }
		END { if (!found) print "0 0" }' "$dump"
}

# within WHAT VALUE EXPECTED FRACTION
within() {
	if awk -v v="$2" -v e="$3" -v f="$4" 'BEGIN { exit !(v >= e * (1 - f) && v <= e * (1 + f)) }'; then
		pass "$1 ($2, expected about $3)"
	else
		fail "$1: $2, expected $3 within $4"
	fi
}

# ---- times ----
timed MEMSHIM_TIMING=16 -- known 2
expect_eq "known times: exits 0" "$rc" 0
expect_eq "known times: nothing on stderr" "$err" ""
printf '%s\n' "$out" >"$scratch/own"
"$tool" report --json "$dump" >"$scratch/known.json"
python3 "$check" "$scratch/known.json" "$scratch/own" 2>&1 | sed 's/^/figure: /'
expect_eq "known times: each known size's class has at least 100 timed calls and an ns per call" \
	"$(python3 -c 'import json, sys
report = json.load(open(sys.argv[1]))
for line in open(sys.argv[2]):
    w = line.split()
    if w and w[0] == "known":
        c = next(c for c in report["functions"][w[1]]["size_classes"] if c["lo"] <= int(w[2]) < c["hi"])
        if not ((c["timed_calls"] or 0) >= 100 and (c["ns_per_call"] or 0) > 0):
            print(w[1], w[2], c)' "$scratch/known.json" "$scratch/own")" ""
# The check itself, on a report made up for it: a class inside the range
# from half the quiet mean to twice the busy one passes, one outside fails,
# and the failure names that class only; a larger size read faster fails.
printf '%s\n' "known memcpy 131072 1000.0 400 1400.0 500" "known memset 262144 1000.0 400 1010.0 500" >"$scratch/own.made"
printf '%s' '{"functions": {"memcpy": {"size_classes": [{"name": "a", "lo": 0, "hi": 1000000, "ns_per_call": 1300,
	"timed_calls": 1000}]}, "memset": {"size_classes": [{"name": "b", "lo": 0, "hi": 1000000, "ns_per_call": 2100,
	"timed_calls": 1000}]}}}' >"$scratch/made.json"
made=$(python3 "$check" "$scratch/made.json" "$scratch/own.made" 2>&1)
expect_eq "timing_check: a class outside its range fails the check" "$?" 1
expect_match "timing_check: the failure names the class off, memset" "$(printf '%s\n' "$made" | grep '^off:')" \
	'^off: memset 262144 B \(b\): .*allowed 500\.0\.\.2020\.0$'
expect_eq "timing_check: and not the class within the busy range, memcpy" \
	"$(printf '%s\n' "$made" | grep '^off:' | grep -c memcpy)" 0
printf '%s\n' "known memcpy 131072 1000.0 400 1000.0 500" "known memcpy 1048576 1500.0 400 1500.0 500" >"$scratch/own.order"
printf '%s' '{"functions": {"memcpy": {"size_classes": [{"name": "a", "lo": 0, "hi": 200000, "ns_per_call": 1400,
	"timed_calls": 1000}, {"name": "c", "lo": 200000, "hi": 2000000, "ns_per_call": 1300, "timed_calls": 1000}]}}}' \
	>"$scratch/order.json"
made=$(python3 "$check" "$scratch/order.json" "$scratch/own.order" 2>&1)
expect_eq "timing_check: a larger size read faster fails the check" "$?" 1
expect_match "timing_check: and says which order" "$(printf '%s\n' "$made" | grep '^off:')" \
	'^off: memcpy: 1048576 B read 1300\.0 ns, not more than 131072 B.s 1400\.0$'

# ---- which calls are timed ----
timed MEMSHIM_TIMING=1 -- calls 5000
set -- $(timed_count memcpy 1000)
expect_eq "MEMSHIM_TIMING=1: every call timed (kept + left out as interrupted)" "$(($1 + $2))" 5000
timed MEMSHIM_TIMING=64 -- calls 320000
set -- $(timed_count memcpy 1000)
within "MEMSHIM_TIMING=64: one call in 64" "$(($1 + $2))" 5000 0.1
timed MEMSHIM_TIMING=64 -- periodic 320000
set -- $(timed_count memcpy 24)
within "sizes alternating with a period dividing 64: the one size timed" "$(($1 + $2))" 2500 0.15
set -- $(timed_count memcpy 2000)
within "sizes alternating with a period dividing 64: the other size timed" "$(($1 + $2))" 2500 0.15
timed MEMSHIM_TIMING=16 -- threads 40000
set -- $(timed_count memcpy 300)
within "four threads: each thread's calls timed" "$(($1 + $2))" 10000 0.1
expect_eq "threads: nothing on stderr" "$err" ""
timed MEMSHIM_TIMING=16 -- serial 400
set -- $(timed_count memcpy 300)
within "600 threads, the last ones sharing a slot: each thread's calls timed" "$(($1 + $2))" 15000 0.1

timed MEMSHIM_TIMING=16 -- fork 32000
expect_eq "fork: exits 0" "$rc" 0
child=$(awk '$1 == "pid" { print $2 }' "$dir"/t.* | sort -n | tail -1)
dump=$(grep -l "^pid $child\$" "$dir"/t.*)
set -- $(timed_count memcpy 700)
within "fork: the child's calls timed in the child's dump" "$(($1 + $2))" 2000 0.15
parent=$(awk '$1 == "pid" { print $2 }' "$dir"/t.* | sort -n | head -1)
dump=$(grep -l "^pid $parent\$" "$dir"/t.*)
expect_eq "fork: none of them in the parent's" "$(timed_count memcpy 700)" "0 0"

timed MEMSHIM_TIMING=16 -- forbid 32000
expect_eq "prctl PR_SET_TSC: the program runs on" "$rc" 0
expect_eq "prctl PR_SET_TSC: one line" \
	"$err" "memshim: MEMSHIM_TIMING: the program forbade itself the time-stamp counter (prctl PR_SET_TSC); no more timed calls"
set -- $(timed_count memcpy 64)
within "prctl PR_SET_TSC: the calls before it timed, none after" "$(($1 + $2))" 2000 0.15

# ---- settings ----
for value in often -3 0x10 1073741825 ''; do
	timed MEMSHIM_TIMING="$value" -- calls 100
	expect_match "MEMSHIM_TIMING=\"$value\": one line" "$err" \
		"^memshim: MEMSHIM_TIMING=\"$value\" .*; using no timed calls \(give on, off, or N"
	expect_eq "MEMSHIM_TIMING=\"$value\": one line only" "$(printf '%s\n' "$err" | wc -l)" 1
	expect_eq "MEMSHIM_TIMING=\"$value\": no timing in the dump" "$(grep -c '^timing' "$dump")" 0
done
for value in off 0; do
	timed MEMSHIM_TIMING=$value -- calls 100
	expect_eq "MEMSHIM_TIMING=$value: quiet, and no timing" "$err$(grep -c '^timing' "$dump")" 0
done
timed MEMSHIM_TIMING=on -- calls 100
expect_match "MEMSHIM_TIMING=on: one call in 64" "$(grep '^timing' "$dump")" \
	'^timing 64 [1-9][0-9]* [0-9]+ (cpuid-0x15|cpuid-0x16|monotonic)$'
preloaded env MEMSHIM_TIMING=on "$program" calls 10
expect_match "without MEMSHIM_DUMP: said" "$err" 'MEMSHIM_TIMING and MEMSHIM_PROFILE need MEMSHIM_DUMP; ignored$'

if timed MEMSHIM_TIMING=4 MEMSHIM_CALLSITES=1 -- calls 2000 && ! printf '%s\n' "$err" | grep -q libunwind; then
	expect_match "call sites on: timed calls by caller" "$(grep '^time_site memcpy' "$dump" | head -1)" \
		'^time_site memcpy [1-9][0-9]* [0-9]+ [^ ]+$'
	"$tool" report "$dump" >"$scratch/sites.txt"
	expect_match "call sites on: the report's callers by timed time" "$(cat "$scratch/sites.txt")" \
		'top call sites by timed time'
else
	echo "note: no call sites here (libunwind); their timed calls not checked"
fi

# ---- report ----
timed MEMSHIM_TIMING=8 -- calls 40000
"$tool" report --svg "$scratch/t.svg" "$dump" >"$scratch/report.txt"
report=$(cat "$scratch/report.txt")
expect_match "report: the timer and its cost" "$report" \
	"^time per call \(MEMSHIM_TIMING\): one call in 8 timed with the time-stamp counter"
expect_match "report: the cost subtracted" "$report" "the timer's own cost,\$"
expect_match "report: ns per call for memcpy" "$report" \
	'^  memcpy: [0-9.]+ ns per call \(95%: [0-9.]+–[0-9.]+\), [0-9]+ timed; about [0-9.]+ ms in all$'
expect_match "report: the size classes have ns per call" "$report" \
	'^    257 B-1 KiB .* [0-9.]+ \([0-9.]+–[0-9.]+\) '
json=$("$tool" report --json "$dump" | python3 -c 'import json, sys
d = json.load(sys.stdin)
c = next(c for c in d["functions"]["memcpy"]["size_classes"] if c["name"] == "257 B-1 KiB")
print(d["timing"]["every"], d["timing"]["overhead_ns"] > 0, c["timed_calls"] > 4000,
      c["ns_per_call_low"] <= c["ns_per_call"] <= c["ns_per_call_high"])')
expect_eq "report --json: timing, and a class's timed calls and interval" "$json" "8 True True True"
expect_match "report --svg: timed time and ns per call" "$(grep -c 'timed time\|>[0-9.]*</text>' "$scratch/t.svg")" '^[1-9]'

# ---- dumps: merged, refused, older ----
cp "$dump" "$scratch/a.hist"
cp "$dump" "$scratch/b.hist"
"$tool" merge -o "$scratch/merged" "$scratch/a.hist" "$scratch/b.hist"
expect_eq "merge: the timing of two processes" "$(grep -c '^timing_processes 2$' "$scratch/merged")" 1
set -- $(timed_count memcpy 1000)
kept=$1
dump=$scratch/merged
set -- $(timed_count memcpy 1000)
expect_eq "merge: the timed calls add up" "$1" "$((kept * 2))"
expect_match "a merged dump reads" "$("$tool" report "$scratch/merged" 2>&1)" 'timed calls in 2 processes'
old=${top_srcdir:-.}/tests/fuzz/report_corpus/real-calls
printf '%s\n' "memshim-histogram 2" "pid 9" "program old" "reason exit" "function memcpy" "bucket 96 104 10 1000" \
	"profile 1000 10 10000000 10000000 10000000 0" "function memcpy" "cpu 96 104 2 2000000" "end" >"$scratch/v2.hist"
"$tool" report "$old" "$scratch/v2.hist" "$scratch/a.hist" >"$scratch/old.txt" 2>&1
expect_eq "versions 1, 2 and 3 read together" "$?" 0
expect_match "versions 1, 2 and 3: timing from the one that has it" "$(cat "$scratch/old.txt")" 'timed calls in 1 process;'
bad_timing() { # WHAT PATTERN LINES...: a dump with these lines before its end must be refused
	what=$1 pattern=$2
	shift 2
	printf '%s\n' "memshim-histogram 3" "pid 1" "program p" "reason exit" "function memcpy" "bucket 96 104 10 1000" \
		"$@" "end" >"$scratch/bad.hist"
	"$tool" report "$scratch/bad.hist" >/dev/null 2>"$scratch/bad.err"
	expect_match "refused: $what" "$(cat "$scratch/bad.err")" "$pattern"
}
bad_timing "timed before the timing line" 'line 8: timed before the timing line' \
	"function memcpy" "timed 96 104 1 10 100 0"
bad_timing "an unknown source of the rate" "line 7: timing: the Hz's source" "timing 64 2600000000 15000 guess"
bad_timing "a second timing line" 'line 8: a second timing line' "timing 64 2600000000 15000 monotonic" \
	"timing 64 2600000000 15000 monotonic"
bad_timing "every 0" 'line 7: timing needs every \(from 1\)' "timing 0 2600000000 15000 monotonic"
bad_timing "a timed bucket that is no bucket" 'line 9: timed bounds' "timing 64 2600000000 15000 monotonic" \
	"function memcpy" "timed 96 105 1 10 100 0"
bad_timing "time_site before the timing line" 'line 7: time_site before the timing line' "time_site memcpy 1 10 main+0x1(p)"
bad_timing "timing_processes beyond the section's" 'line 8: timing_processes needs' \
	"timing 64 2600000000 15000 monotonic" "timing_processes 2"

# ---- record, ab ----
out_dir=$scratch/rec
"$tool" record -o "$out_dir" --timing=4 -- "$program" calls 4000 >"$scratch/record.txt" 2>&1
expect_match "record --timing=4" "$(cat "$scratch/record.txt")" 'one call in 4 timed'
"$tool" record -o "$scratch/rec2" --timing=x -- "$program" calls 10 >/dev/null 2>"$scratch/err"
expect_match "record --timing=x: refused" "$(cat "$scratch/err")" '^memshim record: --timing=x is not on or a whole number'
"$tool" ab --timing=4 --runs 2 --impl glibc,erms -- "$program" calls 200000 >"$scratch/ab.txt" 2>&1
ab=$(cat "$scratch/ab.txt")
expect_match "ab --timing: the timed column" "$ab" 'timed ns per call +ratio'
expect_match "ab --timing: a timed verdict" "$ab" '^  erms: in-function \(timed\) per call [0-9.]+ \([0-9.]+\.\.[0-9.]+\): '
expect_match "ab --timing: by size class, with the timed calls a run it rests on" "$ab" \
	'^    257 B-1 KiB +[0-9.]+ \([0-9.]+\.\.[0-9.]+\): [a-z].*; [1-9][0-9]* timed calls a run$'
"$tool" ab --timing=0 -- true >/dev/null 2>"$scratch/err"
expect_match "ab --timing=0: refused" "$(cat "$scratch/err")" '^memshim ab: --timing="0": expected one call in N'

# ---- tune's check, size class by size class ----
cal=$scratch/calibration
"$tool" tune --calibrate --tiny --calibration "$cal" >/dev/null 2>&1
# 100 B calls timed at 1 us each (far above any model), 8 KiB ones at 100 us
# (cold), 20 B ones at 0.001 ns (far below: predictable sizes).
printf '%s\n' "memshim-histogram 3" "pid 1" "program fake" "reason exit" "variant memcpy glibc" "function memcpy" \
	"bucket 20 22 100000 2000000" "bucket 96 104 100000 10000000" "bucket 8192 9216 1000 8192000" \
	"timing 64 2600000000 15000 monotonic" "function memcpy" "timed 20 22 1000 1 1 0" \
	"timed 96 104 1000 1000000 1000000000 0" "timed 8192 9216 100 10000000 1000000000000 0" "end" >"$scratch/tune.hist"
"$tool" tune --calibration "$cal" "$scratch/tune.hist" >"$scratch/tune.txt" 2>&1
tune=$(cat "$scratch/tune.txt")
expect_match "tune: the model by size class against the timed" "$tune" \
	'memcpy \(glibc\), size class by size class: the model.s ns per call against the timed ns per call'
expect_match "tune: the classes where the model is off, named" "$tune" \
	'the model is off in: 17-64 B, 65-256 B, 4-32 KiB$'
expect_match "tune: large copies slower than the model: cold data" \
	"$(sed -n '/^    4-32 KiB/{n;p}' "$scratch/tune.txt")" 'the data \(or the code\) was probably cold'
expect_match "tune: small copies faster than the model: predictable sizes" \
	"$(sed -n '/^    17-64 B/{n;p}' "$scratch/tune.txt")" 'the sizes were probably predictable'
finish
