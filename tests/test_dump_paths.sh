#!/bin/sh
# Bad dump paths and bad recording variables.  For each the program must run
# to its normal end (status 0, its usual output) with exactly one line on
# stderr naming the variable, and leave no partial dump behind.
#   paths: a missing directory, a directory where the file should be (the
#     dump goes beside it, as for any taken name), a trailing slash, a name
#     longer than NAME_MAX, %p/%e expanding past the limit, unknown escapes;
#   MEMSHIM_DUMP_INTERVAL, MEMSHIM_DUMP_SIGNAL, MEMSHIM_CALLSITES: empty,
#     negative, overflowing, not numbers, unknown signals, 10 KB values.
# (A full disk: tests/test_full_disk.sh.)
. "${top_srcdir:-.}/tests/lib.sh"
. "${top_srcdir:-.}/tests/hist_lib.sh"
LC_ALL=C
export LC_ALL
lines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }
files() { (cd "$dir" && ls -A | sort | tr '\n' ' '); }

# one_warning WHAT REGEX: the last run ended normally and said one line matching REGEX.
one_warning() {
	expect_eq "$1: exit status and output" "$rc:$(printf '%s\n' "$out" | head -c 4)" "0:pid "
	expect_eq "$1: one line on stderr [$(printf '%s' "$err" | head -c 120)]" "$(lines "$err")" 1
	expect_match "$1: the line names the problem" "$err" "$2"
}

# ---- paths ----
rm -rf "${dir:?}"/*
run MEMSHIM_DUMP="$dir/missing/h" "$program" calls 10
one_warning "a missing directory" '^memshim: MEMSHIM_DUMP=".*/missing/h": cannot write dumps there: no such directory$'
expect_eq "a missing directory: nothing created" "$(files)" ""

rm -rf "${dir:?}"/*
mkdir "$dir/h"
run MEMSHIM_DUMP="$dir/h" "$program" calls 10
expect_eq "a directory where the file should be: status, nothing on stderr" "$rc:$err" "0:"
expect_eq "a directory where the file should be: the dump went beside it" "$(files)" "h h.1 "
"$T_MEMSHIM_TOOL" report "$dir/h.1" >/dev/null 2>&1
expect_eq "a directory where the file should be: h.1 is a complete dump" "$?" 0
expect_eq "a directory where the file should be: the directory untouched" "$(ls -A "$dir/h")" ""

rm -rf "${dir:?}"/*
run MEMSHIM_DUMP="$dir/" "$program" calls 10
one_warning "a path ending in /" '^memshim: MEMSHIM_DUMP: cannot create'
expect_eq "a path ending in /: nothing created" "$(files)" ""

rm -rf "${dir:?}"/*
long=$(head -c 300 /dev/zero | tr '\0' 'n')
run MEMSHIM_DUMP="$dir/$long" "$program" calls 10
one_warning "a name longer than NAME_MAX" '^memshim: MEMSHIM_DUMP: cannot create .*: file name too long; '
expect_eq "a name longer than NAME_MAX: nothing created" "$(files)" ""

# %e is the program name (11 bytes), %p up to 7 digits: 950 bytes of
# path with 10 of each is over the 1024-byte limit only once expanded.
rm -rf "${dir:?}"/*
stem=$(printf '%s' "$dir/" | head -c 950)
pad=$(head -c $((950 - ${#stem})) /dev/zero | tr '\0' 'x')
run MEMSHIM_DUMP="$stem$pad%e%e%e%e%e%e%e%e%e%e%p%p%p%p%p%p%p%p%p%p" "$program" calls 10
one_warning "%p/%e expanding too long" '^memshim: MEMSHIM_DUMP: path too long after expanding %p/%e'
expect_eq "%p/%e expanding too long: nothing created" "$(files)" ""
run MEMSHIM_DUMP="$dir/h%%p%" "$program" calls 10
expect_eq "%% and a lone % at the end: status, nothing on stderr" "$rc:$err" "0:"
expect_eq "%% and a lone % at the end: the name" "$(files)" "h%p% "
for escape in %q %P %E %1 '%%%x'; do
	rm -rf "${dir:?}"/*
	run MEMSHIM_DUMP="$dir/h.$escape" "$program" calls 10
	one_warning "an unknown escape $escape" \
		'^memshim: MEMSHIM_DUMP=".*" has a % escape other than %p \(the process id\), %e \(the program name\) and %% \(a %\); using no recording$'
	expect_eq "an unknown escape $escape: nothing created" "$(files)" ""
done

# ---- recording variables ----
ten_k=$(head -c 10240 /dev/zero | tr '\0' 'x')
ten_k_digits=$(head -c 10240 /dev/zero | tr '\0' '7')
huge=99999999999999999999999
numbers_bad="'' -1 -0 - 0 $huge 18446744073709551616 4294967297 abc 1x 0x10 ' 1' '1 ' +1 1.5 1e3 1K 2k"
# bad NAME VALUE: the warning, once, and recording still works.
bad() {
	rm -rf "${dir:?}"/*
	shown=$(printf '%s' "$2" | head -c 24 | tr -c ' -~' '?')
	run MEMSHIM_DUMP="$dir/h" "$1=$2" "$program" calls 10
	one_warning "$1=\"$shown\"" "^memshim: $1=\".*; using no "
	expect_eq "$1=\"$shown\": the exit dump still written" "$(files)" "h "
}
eval "set -- $numbers_bad"
for value in "$@" 1000001 "$ten_k_digits" "$ten_k" "$(printf '1\n2')"; do
	bad MEMSHIM_DUMP_INTERVAL "$value"
done
eval "set -- $numbers_bad"
for value in "$@" 1073741825 "$ten_k_digits" "$ten_k" "$(printf '1\n2')"; do
	bad MEMSHIM_CALLSITES "$value"
done
for value in '' KILL SIGKILL STOP 9 19 SEGV SIGSEGV 11 CHLD 0 65 -10 usr1 Usr1 SIG SIGSIGUSR1 \
	'USR1 ' ' USR1' USR3 "$huge" "$ten_k" "$ten_k_digits"; do
	bad MEMSHIM_DUMP_SIGNAL "$value"
done
# The message gives the unit of the variable.
bad MEMSHIM_DUMP_INTERVAL 0.5
expect_match "MEMSHIM_DUMP_INTERVAL=0.5: says seconds" "$err" 'is not a whole number of seconds from 1 to 1000000; '
bad MEMSHIM_CALLSITES 1K
expect_match "MEMSHIM_CALLSITES=1K: says what N is" "$err" 'is not a whole number from 1 to 1073741824 \(one call in N is sampled\); '
# The good ones around the limits are accepted silently (so the checks can fail).
for good in MEMSHIM_DUMP_INTERVAL=1000000 MEMSHIM_CALLSITES=1073741824 MEMSHIM_DUMP_SIGNAL=SIGUSR2 \
	MEMSHIM_DUMP_SIGNAL=10 MEMSHIM_DUMP_SIGNAL=WINCH; do
	rm -rf "${dir:?}"/*
	run MEMSHIM_DUMP="$dir/h" "$good" "$program" calls 10
	expect_eq "$good: accepted silently" "$rc:$err:$(files)" "0::h "
done

# Without MEMSHIM_DUMP they are one line together, whatever their values.
run MEMSHIM_DUMP_INTERVAL=5 MEMSHIM_DUMP_SIGNAL=USR1 MEMSHIM_CALLSITES=10 "$program" calls 10
one_warning "the three without MEMSHIM_DUMP" 'need MEMSHIM_DUMP; ignored$'

finish
