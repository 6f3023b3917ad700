#!/bin/sh
# No test decides on a clock (tests/check_no_timing.py): none reads one,
# none expects ab's verdict on wall or CPU time.  Then the check itself, on
# a copy of the tests with a timed assertion planted in each kind of file:
# it must fail, naming each.
. "${top_srcdir:-.}/tests/lib.sh"
need_python "tests that never time"
check=$top_srcdir/tests/check_no_timing.py
run_checker "no timing" "$PYTHON" "$check" "$top_srcdir"

mkdir -p "$scratch/tree/tests"
# The planted lines are printed from pieces, so that this file holds none.
{
	printf 'start=$(date +%%s%s)\n' N
	printf 'ab --runs 5 --env WORK=1 --env WORK=2 -- sh work.sh\n'
	printf 'expect_match "twice the work: slower" "$(cat out)" '"'"'^  WORK=2: %s [0-9.]+ (.*): %s$'"'"'\n' cpu slower
} >"$scratch/tree/tests/test_planted.sh"
printf 'import time\nt = time.%s()\n' monotonic >"$scratch/tree/tests/planted_check.py"
printf 'int main(void) { struct timespec t; return %s(CLOCK_MONOTONIC, &t); }\n' clock_gettime \
	>"$scratch/tree/tests/test_planted.c"
out=$("$PYTHON" "$check" "$scratch/tree" 2>&1)
expect_eq "a tree with timed tests fails the check" "$?" 1
expect_eq "each timed line is named, with its file and line" "$(printf '%s\n' "$out" | sed 's/: decides on a clock: .*//')" \
	"FAIL: tests/planted_check.py:2
FAIL: tests/test_planted.c:1
FAIL: tests/test_planted.sh:1
FAIL: tests/test_planted.sh:3"
finish
