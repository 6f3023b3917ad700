#!/bin/sh
# Builds memshim if needed and runs every test (make check); the last line
# is the count: "N passed, N failed, N skipped", the check that the suite
# left the user's HOME and cache alone (tests/home-check.sh) counted as one
# more test (run here if make check stopped before it; where it could not
# run at all, the count line says so).  Before it, the parts of tests that
# this machine could not check (their "SKIP:" lines) are listed.
set -u
cd "$(dirname "$0")"
if ! { [ -x configure ] || autoreconf -fi; } || ! { [ -f Makefile ] || ./configure -q; }; then
	echo "0 passed, 1 failed"
	exit 1
fi
rm -f tests/home-check.log
make -j"$(nproc)" check
status=$?
# make check stops at a failed test before its HOME check (check-local):
# run it here then, so that the suite's files are still looked at.
if [ ! -f tests/home-check.log ] && [ -f tests/home-before.snapshot ]; then
	sh tests/home-check.sh tests/home-before.snapshot >tests/home-check.log 2>&1
	cat tests/home-check.log
fi
count() { awk -v k="# $1:" '$0 ~ "^"k { n = $NF } END { print n + 0 }' test-suite.log 2>/dev/null || echo 0; }
if [ -f test-suite.log ]; then
	passed=$(count PASS) failed=$(($(count FAIL) + $(count ERROR) + $(count XPASS)))
	home=" (the HOME check did not run)"
	if [ -f tests/home-check.log ]; then
		home=
		if grep -q '^FAIL' tests/home-check.log; then failed=$((failed + 1)); else passed=$((passed + 1)); fi
	fi
	skipped_parts=$(find tests -name '*.log' -exec grep -H '^SKIP:' {} + 2>/dev/null | sed 's/\.log:SKIP:/:/' | sort)
	if [ -n "$skipped_parts" ]; then
		echo "Not checked on this machine:"
		printf '%s\n' "$skipped_parts" | sed 's/^/  /'
	fi
	echo "$passed passed, $failed failed, $(count SKIP) skipped$home"
else
	echo "0 passed, 1 failed (the build failed before any test ran)"
fi
exit $status
