#!/bin/sh
# Installs what the tests need on Debian (tests/install-packages.sh: the
# packages of .ci/packages.txt and tests/packages.txt that are missing, one
# line saying so, with sudo where not root), builds memshim and the tests'
# programs once, and runs every test (make check, two at a time on two
# cores): one line per test as it ends, then the logs of those that failed,
# the parts of tests this machine could not check (their "SKIP:" lines) and
# the count, "N passed, N failed, N skipped", which is automake's summary
# (test-suite.log; the check that the suite left the user's HOME and cache
# alone, tests/test_home_untouched.sh, is one of its tests).  make's own
# output goes to tests/run-tests.make.log (--verbose: to the terminal too).
#
# usage: ./run-tests.sh [--verbose] [--masked[=LIST]]
# --masked runs the whole suite a second time as on a CPU without the
# features of LIST (MEMSHIM_HWCAPS; default -avx512f,-fsrm,-erms: no
# AVX-512, no FSRM, no ERMS), so that a test that assumes the CPU it was
# written on fails here too; each pass's count comes first, the last line
# adds them up.  The first pass runs in the environment as given
# (MEMSHIM_HWCAPS=LIST ./run-tests.sh is one masked pass).
set -u
cd "$(dirname "$0")" || exit 1
usage="usage: ./run-tests.sh [--verbose] [--masked[=LIST]] (LIST: MEMSHIM_HWCAPS, default -avx512f,-fsrm,-erms)"
mask="" verbose=""
for arg in "$@"; do
	case $arg in
	--verbose) verbose=1 ;;
	--masked) mask=-avx512f,-fsrm,-erms ;;
	--masked=?*) mask=${arg#--masked=} ;;
	*)
		echo "$usage" >&2
		exit 2
		;;
	esac
done
makelog=tests/run-tests.make.log
jobs=$(nproc 2>/dev/null || echo 2)

# quiet COMMAND...: runs it with its output in $makelog, and on the
# terminal too with --verbose; returns its status.
quiet() {
	if [ -n "$verbose" ]; then
		{ "$@" 2>&1; echo $? >"$makelog.status"; } | tee -a "$makelog"
	else
		{ "$@" 2>&1; echo $? >"$makelog.status"; } >>"$makelog"
	fi
	read -r rc <"$makelog.status"
	rm -f "$makelog.status"
	return "$rc"
}

count() { awk -v k="# $1:" '$0 ~ "^"k { n = $NF } END { print n + 0 }' test-suite.log 2>/dev/null || echo 0; }

# The logs of the tests whose result is not PASS or SKIP, each under a
# line that names it.
failed_logs() {
	for trs in $(find tests -name '*.trs' | sort); do
		grep -q '^:global-test-result: \(FAIL\|ERROR\|XPASS\)' "$trs" || continue
		echo "---- ${trs%.trs}.log"
		cat "${trs%.trs}.log"
	done
}

# The parts of tests this machine could not check, each reason once, with
# the tests that gave it: a reason given in a loop, or by several tests,
# is one line, not one a time.
skip_reasons() {
	find tests -name '*.log' -exec grep -H '^SKIP:' {} + 2>/dev/null | sed 's/\.log:SKIP: */\t/' |
		sort -t "$(printf '\t')" -k 2 -k 1 | awk -F '\t' '
		$2 != reason { if (NR > 1) print reason " (" tests ")"; reason = $2; tests = $1; last = $1; next }
		$1 != last { tests = tests ", " $1; last = $1 }
		END { if (NR) print reason " (" tests ")" }'
}

# One pass of make check, its counts added to the totals (PASS_NAME says
# which in its lines).  The per-test lines are automake's, as each test ends.
total_passed=0 total_failed=0 total_skipped=0 status=0
run_pass() {
	rm -f test-suite.log
	started=$(date +%s)
	if [ -n "$verbose" ]; then
		quiet make -k -j"$jobs" check || status=1
	else
		{ make -k -j"$jobs" check 2>&1; echo $? >"$makelog.status"; } | tee -a "$makelog" |
			grep --line-buffered -E '^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): '
		read -r rc <"$makelog.status"
		rm -f "$makelog.status"
		[ "$rc" -eq 0 ] || status=1
	fi
	if [ ! -f test-suite.log ]; then
		echo "$PASS_NAME: no test ran (make check stopped before them: see $makelog)"
		status=1 total_failed=$((total_failed + 1))
		return
	fi
	failed_logs
	skipped_parts=$(skip_reasons)
	if [ -n "$skipped_parts" ]; then
		echo "Not checked on $PASS_NAME:"
		printf '%s\n' "$skipped_parts" | sed 's/^/  /'
	fi
	passed=$(count PASS) failed=$(($(count FAIL) + $(count ERROR) + $(count XPASS))) skipped=$(count SKIP)
	echo "$PASS_NAME: $passed passed, $failed failed, $skipped skipped ($(($(date +%s) - started)) s)"
	total_passed=$((total_passed + passed)) total_failed=$((total_failed + failed))
	total_skipped=$((total_skipped + skipped))
}

sh tests/install-packages.sh .
: >"$makelog"
# The build, once for both passes: memshim, and the tests' programs
# (make check with no test).
if ! { [ -x configure ] || quiet autoreconf -fi; } || ! { [ -f Makefile ] || quiet ./configure -q; } ||
	! quiet make -j"$jobs" || ! quiet make -j"$jobs" check TESTS=; then
	echo "the build failed; its last lines (all of them in $makelog):"
	tail -n 20 "$makelog"
	echo "0 passed, 1 failed (the build failed before any test ran)"
	exit 1
fi
PASS_NAME="this machine${MEMSHIM_HWCAPS:+ (MEMSHIM_HWCAPS=$MEMSHIM_HWCAPS)}"
run_pass
if [ -n "$mask" ]; then
	PASS_NAME="this machine with MEMSHIM_HWCAPS=$mask"
	export MEMSHIM_HWCAPS="$mask"
	run_pass
fi
echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
exit $status
