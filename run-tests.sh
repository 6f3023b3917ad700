#!/bin/sh
# Builds memshim if needed and runs every test (make check); the last line
# is the count: "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")"
if ! { [ -x configure ] || autoreconf -fi; } || ! { [ -f Makefile ] || ./configure -q; }; then
	echo "0 passed, 1 failed"
	exit 1
fi
make -j"$(nproc)" check
status=$?
count() { awk -v k="# $1:" '$0 ~ "^"k { n = $NF } END { print n + 0 }' test-suite.log 2>/dev/null || echo 0; }
if [ -f test-suite.log ]; then
	echo "$(count PASS) passed, $(($(count FAIL) + $(count ERROR) + $(count XPASS))) failed, $(count SKIP) skipped"
else
	echo "0 passed, 1 failed (the build failed before any test ran)"
fi
exit $status
