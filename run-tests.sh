#!/bin/sh
# Installs what the tests need on Debian (tests/install-packages.sh: the
# packages of .ci/packages.txt and tests/packages.txt that are missing, one
# line saying so, with sudo where not root), builds memshim if needed and
# runs every test (make check); the last line is the count: "N passed, N
# failed, N skipped", the check that the suite left the user's HOME and
# cache alone (tests/home-check.sh) counted as one more test (run here if
# make check stopped before it; where it could not run at all, the count
# line says so).  Before it, the parts of tests that this machine could not
# check (their "SKIP:" lines) are listed.
#
# usage: ./run-tests.sh [--masked[=LIST]]
# --masked runs the whole suite a second time as on a CPU without the
# features of LIST (MEMSHIM_HWCAPS; default -avx512f,-fsrm,-erms: no
# AVX-512, no FSRM, no ERMS), so that a test that assumes the CPU it was
# written on fails here too; each pass's count comes first, the last line
# adds them up.  The first pass runs in the environment as given
# (MEMSHIM_HWCAPS=LIST ./run-tests.sh is one masked pass).
set -u
cd "$(dirname "$0")" || exit 1
mask=""
case ${1:-} in
"") ;;
--masked) mask=-avx512f,-fsrm,-erms ;;
--masked=?*) mask=${1#--masked=} ;;
*)
	echo "usage: ./run-tests.sh [--masked[=LIST]] (LIST: MEMSHIM_HWCAPS, default -avx512f,-fsrm,-erms)" >&2
	exit 2
	;;
esac

count() { awk -v k="# $1:" '$0 ~ "^"k { n = $NF } END { print n + 0 }' test-suite.log 2>/dev/null || echo 0; }

# One pass of make check, its counts added to the totals (PASS_NAME says
# which in its lines); a build that fails ends the run.
total_passed=0 total_failed=0 total_skipped=0 status=0 home=""
run_pass() {
	rm -f tests/home-check.log test-suite.log
	started=$(date +%s)
	make -j"$(nproc)" check || status=1
	if [ ! -f test-suite.log ]; then
		echo "$total_passed passed, $((total_failed + 1)) failed (the build failed before any test ran)"
		exit 1
	fi
	# make check stops at a failed test before its HOME check (check-local):
	# run it here then, so that the suite's files are still looked at.
	if [ ! -f tests/home-check.log ] && [ -f tests/home-before.snapshot ]; then
		sh tests/home-check.sh tests/home-before.snapshot >tests/home-check.log 2>&1
		cat tests/home-check.log
	fi
	passed=$(count PASS) failed=$(($(count FAIL) + $(count ERROR) + $(count XPASS))) skipped=$(count SKIP)
	if [ -f tests/home-check.log ]; then
		if grep -q '^FAIL' tests/home-check.log; then failed=$((failed + 1)); else passed=$((passed + 1)); fi
	else
		home=" (the HOME check did not run)"
	fi
	skipped_parts=$(find tests -name '*.log' -exec grep -H '^SKIP:' {} + 2>/dev/null | sed 's/\.log:SKIP:/:/' | sort)
	if [ -n "$skipped_parts" ]; then
		echo "Not checked on $PASS_NAME:"
		printf '%s\n' "$skipped_parts" | sed 's/^/  /'
	fi
	echo "$PASS_NAME: $passed passed, $failed failed, $skipped skipped ($(($(date +%s) - started)) s)"
	total_passed=$((total_passed + passed)) total_failed=$((total_failed + failed))
	total_skipped=$((total_skipped + skipped))
}

sh tests/install-packages.sh .
if ! { [ -x configure ] || autoreconf -fi; } || ! { [ -f Makefile ] || ./configure -q; }; then
	echo "0 passed, 1 failed"
	exit 1
fi
PASS_NAME="this machine${MEMSHIM_HWCAPS:+ (MEMSHIM_HWCAPS=$MEMSHIM_HWCAPS)}"
run_pass
if [ -n "$mask" ]; then
	PASS_NAME="this machine with MEMSHIM_HWCAPS=$mask"
	export MEMSHIM_HWCAPS="$mask"
	run_pass
fi
echo "$total_passed passed, $total_failed failed, $total_skipped skipped$home"
exit $status
