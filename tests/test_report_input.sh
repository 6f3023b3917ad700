#!/bin/sh
# `memshim report` on dump files that are not what they should be: every cut
# of a real dump (read up to the cut, and said), random bytes, huge and negative numbers, bucket bounds that
# are not buckets, counters whose sum over files (or over a function's
# buckets) overflows, empty files, other versions, long lines, NUL bytes.
# Each must be named on stderr with a reason and left out, with exit status
# 1 (never a crash: no status above 128, no sanitizer or glibc abort text).
. "${top_srcdir:-.}/tests/lib.sh"
LC_ALL=C
export LC_ALL
program=$top_builddir/tests/hist_program
bad=$scratch/bad
mkdir "$bad"

preloaded env MEMSHIM_DUMP="$scratch/good" MEMSHIM_CALLSITES=1 "$program" calls 10
"$T_MEMSHIM_TOOL" report "$scratch/good" >/dev/null 2>&1
expect_eq "the good dump is read" "$?" 0

# rejected WHAT REGEX FILE...: status 1, one "left out" line per file (or
# $left_out lines), the reason matches.
rejected() {
	what=$1 regex=$2
	shift 2
	for format in --json ""; do
		# shellcheck disable=SC2086
		"$T_MEMSHIM_TOOL" report $format "$@" >"$scratch/out" 2>"$scratch/err"
		rc=$?
		err=$(cat "$scratch/err")
		if [ "$rc" != 1 ]; then
			fail "$what${format:+ ($format)}: status $rc, expected 1; stderr [$(printf '%s' "$err" | head -c 300)]"
			continue
		fi
		n=$(grep -c '; left out$' "$scratch/err")
		if [ "$n" != "${left_out:-$#}" ]; then
			fail "$what${format:+ ($format)}: $n files left out, expected ${left_out:-$#}: [$err]"
		elif ! printf '%s\n' "$err" | grep -Eq -- "$regex"; then
			fail "$what${format:+ ($format)}: reason [$err] does not match /$regex/"
		else
			pass "$what${format:+ ($format)}"
		fi
	done
}

# Every cut of the good dump, on and between lines.
size=$(wc -c <"$scratch/good")
cuts=0
for at in $(seq 0 7 $((size - 1))); do
	head -c "$at" "$scratch/good" >"$bad/cut$at"
	cuts=$((cuts + 1))
done
# Each cut is named on stderr, with status 1: one past the header is read
# up to its last complete line, one before it is left out.
for format in --json ""; do
	# shellcheck disable=SC2046
	"$T_MEMSHIM_TOOL" report $format $(ls "$bad"/cut* | sort -V) >"$scratch/out" 2>"$scratch/err"
	expect_eq "every cut of a dump ($cuts files)${format:+ ($format)}: status 1" "$?" 1
	expect_eq "... each named once" "$(grep -c "^memshim report: $bad/cut[0-9]*: " "$scratch/err")" "$cuts"
	expect_eq "... each as a cut: read in part, or left out" "$(grep -v -E -e 'truncated: .*; its complete lines are read$' \
		-e '(empty file|truncated: .*|not a memshim histogram .*); left out$' "$scratch/err" | head -3)" ""
done
rm -f "$bad"/cut*

# A dump cut before its end line keeps every count it had written.
sed '$d' "$scratch/good" >"$bad/no-end"
calls() { "$T_MEMSHIM_TOOL" report --json "$1" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["functions"]["memcpy"]["calls"])'; }
expect_eq "a dump cut before its end line: its counts read" "$(calls "$bad/no-end")" "$(calls "$scratch/good")"
"$T_MEMSHIM_TOOL" report "$bad/no-end" >/dev/null 2>"$scratch/err"
expect_match "... said, with status 1" "$?:$(cat "$scratch/err")" \
	"^1:memshim report: $bad/no-end: line [0-9]+: truncated: no end line; its complete lines are read$"
rm -f "$bad/no-end"

i=0
while [ $i -lt 20 ]; do
	head -c $((i * 97 + 1)) /dev/urandom >"$bad/random$i"
	i=$((i + 1))
done
rejected "random bytes (20 files)" 'left out' "$bad"/random*

: >"$bad/empty"
rejected "an empty file" 'empty file' "$bad/empty"
printf '\n' >"$bad/newline"
rejected "one empty line" 'not a memshim histogram' "$bad/newline"
for v in 0 10 11 -1 1x 01x '1 ' '9 ' 99999999999999999999 ''; do
	printf 'memshim-histogram %s\nend\n' "$v" >"$bad/version"
	rejected "version [$v]" 'unsupported format version|not a memshim histogram' "$bad/version"
done
printf 'memshim-histogram\nend\n' >"$bad/noversion"
rejected "no version" 'not a memshim histogram' "$bad/noversion"

# body LINES...: a dump with a good header and these lines in memcpy's section.
body() {
	{
		printf 'memshim-histogram 1\npid 1\nprogram p\nreason exit\nfunction memcpy\n'
		for l in "$@"; do printf '%s\n' "$l"; done
		printf 'end\n'
	} >"$bad/body"
}
max=18446744073709551615
body "bucket 17 18 1 17"
"$T_MEMSHIM_TOOL" report "$bad/body" >/dev/null 2>&1
expect_eq "the template dump is good" "$?" 0
while IFS='|' read -r line reason; do
	body "$line"
	rejected "[$line]" "$reason" "$bad/body"
done <<EOF2
bucket 17 18 18446744073709551616 1|expected numbers
bucket 17 18 99999999999999999999999999999 1|expected numbers
bucket 17 18 -1 5|expected numbers
bucket -17 18 1 5|expected numbers
bucket 17 19 1 17|not a bucket
bucket 18 19 1 18|not a bucket
bucket 0 0 1 0|not a bucket
bucket 281474976710656 18446744073709551614 1 1|not a bucket
bucket 17 18 1|bucket needs
bucket 17 18 1 17 1|expected numbers
bucket  17 18 1 17|expected numbers
bucket 17 18 1 17 |expected numbers
dst_mod64 64 1|offset below 64
dst_mod64 18446744073709551615 1|offset below 64
overlap 1|two numbers
zero 1 2 3|two numbers
callsite memcpy 1 2|callsite needs
callsite memcpy 99999999999999999999999 2 f|callsite needs
callsite memcpy|callsite needs
callsite frobnicate 1 2 f|callsite needs a function
function frobnicate|unknown function
frobnicate 1 2|unknown record
entry memcpy|entry needs
entry frobnicate 1|unknown entry point
entry memcpy -1|entry needs|counter
variant memcpy|variant needs
end extra|text after end
EOF2
# The profile's records, and the recording's apart (version 5).
profile_line='profile 1000 10 40000000 50000000 60000000 0'
while IFS='|' read -r first second reason; do
	body "bucket 17 18 1 17" "$first" "function memcpy" "$second"
	rejected "[$first] then [$second]" "$reason" "$bad/body"
done <<EOF2
recording_apart 1|cpu 17 18 1 1|recording_apart before the profile line
bucket 17 18 1 17|recording_cpu 1 1|recording_cpu before the profile line
$profile_line|recording_cpu 1|recording_cpu needs
$profile_line|recording_cpu 11 1|more samples inside a function than in the profile
$profile_line|recording_apart 2|recording_apart needs a count of at most the profiled processes
ab_pair 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0|ab glibc sse2 1024|ab_pair before the ab line
ab glibc sse2 1024|ab_pair 1 2 3|ab_pair needs four numbers a function and size class
ab glibc sse2 1024|ab_pair -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0|ab_pair needs
ab glibc sse2 1024|ab_pair 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0|ab_pair needs
ab glibc sse2 1024|ab glibc sse2 1024|a second ab line
ab glibc|ab_dropped memcpy 1 1|ab needs setting A, setting B
ab glibc sse2 0|ab_dropped memcpy 1 1|ab needs
ab glibc sse2 1024|ab_dropped memcpy 1|ab_dropped needs
EOF2
body "bucket 17 18 1 17" "$profile_line" "recording_apart 1" "function memcpy" "cpu 17 18 6 24000000" \
	"recording_cpu 5 20000000"
rejected "copies' and recording's samples together more than the profile's" \
	'more samples inside a function than in the profile' "$bad/body"
body "bucket 17 18 1 17" "$profile_line" "recording_apart 1" "function memcpy" "cpu 17 18 6 24000000" \
	"recording_cpu 4 16000000"
"$T_MEMSHIM_TOOL" report "$bad/body" >/dev/null 2>&1
expect_eq "the copies' and the recording's samples, 10 of 10: good" "$?" 0

body "bucket 17 18 $max 1" "bucket 17 18 1 1"
rejected "one bucket's count overflowing within a file" 'counter overflow' "$bad/body"
body "bucket 17 18 $max $max" "bucket 4096 4608 1 4096"
rejected "a function's calls summed over buckets overflowing" 'overflow' "$bad/body"
body "bucket 17 18 1 $max" "bucket 4096 4608 1 4096"
rejected "a function's bytes summed over buckets overflowing" 'overflow' "$bad/body"
body "bucket 17 18 $max 17"
cp "$bad/body" "$bad/body2"
"$T_MEMSHIM_TOOL" report "$bad/body" >/dev/null 2>&1
expect_eq "one file with the largest count is good" "$?" 0
# The first file is read, the second left out.
left_out=1 rejected "counts overflowing when two files are merged" 'body2: counts overflow when added' "$bad/body" "$bad/body2"
body "dst_mod64 3 $max"
cp "$bad/body" "$bad/body2"
left_out=1 rejected "alignment counts overflowing when two files are merged" 'body2: counts overflow when added' "$bad/body" "$bad/body2"

{ printf 'memshim-histogram 1\npid '; head -c 66000 /dev/zero | tr '\0' 7; printf '\nend\n'; } >"$bad/long"
rejected "a line over 64 KiB" 'line too long' "$bad/long"
printf 'memshim-histogram 1\npid 1\0junk\nend\n' >"$bad/nul"
rejected "a NUL byte in a line" 'line 2' "$bad/nul"
printf 'memshim-histogram 1\r\nend\r\n' >"$bad/crlf"
rejected "CRLF line ends" 'unsupported|not a memshim' "$bad/crlf"
mkdir "$bad/dir"
rejected "a directory" 'directory' "$bad/dir"
rejected "a file that does not exist" 'No such file' "$bad/none"
# A bad file among good ones: the good ones are still reported.
"$T_MEMSHIM_TOOL" report --json "$scratch/good" "$bad/empty" "$scratch/good" >"$scratch/out" 2>/dev/null
expect_eq "bad among good: status 1" "$?" 1
expect_match "bad among good: the two good ones merged" "$(cat "$scratch/out")" '"calls": 60'

# Every command that reads dumps: the same status, 1, for a cut one, alone
# or beside a good one (the README's "1: an unreadable dump").
head -c 150 "$scratch/good" >"$bad/cut"
cal=$scratch/calibration
"$T_MEMSHIM_TOOL" tune --calibrate --tiny --calibration "$cal" >/dev/null 2>&1 || fail "a tiny calibration"
for inputs in "$bad/cut" "$scratch/good $bad/cut"; do
	# shellcheck disable=SC2086
	for cmd in "report" "report --json" "merge -o $scratch/merged" "tune --calibration $cal"; do
		"$T_MEMSHIM_TOOL" $cmd $inputs >/dev/null 2>"$scratch/err"
		rc=$?
		expect_match "a cut dump$([ "$inputs" = "$bad/cut" ] || echo " beside a good one"): memshim ${cmd%% /*}: status 1, and says which" \
			"$rc:$(head -n 1 "$scratch/err")" "^1:memshim ${cmd%% *}: $bad/cut: line [0-9]+: truncated"
	done
done
"$T_MEMSHIM_TOOL" bench --distribution "$bad/cut" --quick >/dev/null 2>"$scratch/err"
expect_match "a cut dump: memshim bench --distribution: status 1, and says which" "$?:$(cat "$scratch/err")" \
	"^1:memshim bench: --distribution: $bad/cut: line [0-9]+: truncated"

finish
