#!/bin/sh
# memshim ab end to end on a small real command; the shape of the report,
# never a timing.
. "${top_srcdir:-.}/tests/lib.sh"
ab() { "$T_MEMSHIM_TOOL" ab "$@" >"$scratch/out" 2>"$scratch/err"; rc=$?; }
head -c 300000 "$MEMSHIM_LIBRARY" >"$scratch/small"

ab --runs 2 --impl none,fsrm --env 'MEMSHIM_IMPL=scalar MEMSHIM_VERBOSE=0' -- gzip -c "$scratch/small"
expect_eq "ab runs" "$rc" 0
expect_eq "ab: nothing on stderr" "$(cat "$scratch/err")" ""
expect_match "ab names its clocks" "$(cat "$scratch/out")" 'wall: clock_gettime\(CLOCK_MONOTONIC\)'
expect_eq "ab: a row per setting, in order" "$(awk '/^(none|fsrm|MEMSHIM_IMPL=scalar) / { print $1 }' "$scratch/out" | tr '\n' ' ')" \
	"none fsrm MEMSHIM_IMPL=scalar "
expect_match "the first setting's ratio is 1" "$(grep '^none ' "$scratch/out")" ' 1\.000 '
expect_eq "the command's output went to /dev/null" "$(grep -c . "$scratch/out")" 8

ab --runs 2 --impl fsrm --show-output -- echo hello-from-ab
expect_match "--show-output keeps it" "$(cat "$scratch/out")" 'hello-from-ab'

ab --runs 2 --impl none,glibc -- sh -c 'exit 3'
expect_eq "a failing command: status 1" "$rc" 1
expect_match "a failing command is reported" "$(cat "$scratch/err")" 'glibc: the command failed in 2 of 2 runs \(exit status 3\)'

for args in "--runs 0 -- true" "--runs" "--impl nosuch -- true" "--env NOEQUALS -- true" "--frob -- true" "--runs 2" "true"; do
	# shellcheck disable=SC2086
	ab $args
	expect_eq "ab $args: exit status" "$rc" 2
	expect_eq "ab $args: one line on stderr" "$(wc -l <"$scratch/err")" 1
done
finish
