#!/bin/sh
# The dump readers under AddressSanitizer and UBSan (issue 51), as .ci/run
# runs them after the suite: builds tools/memshim-asan (the tool with both
# sanitizers; see Makefile.am), runs the tests that read dumps with it as
# the tool under test, replays the regression inputs and a real dump with
# bench --replay, and fuzzes the dump reader for a short while
# (tests/fuzz/run_fuzz_report.sh, FUZZ_SECONDS) and every family of the
# commands' readers of untrusted files (tests/fuzz/run_fuzz_commands.sh:
# report's modes, merge, tune, bench --replay's planning, calibration
# files, distributions, bench CSVs; FUZZ_SECONDS / 4 each).
# A sanitizer report anywhere fails the
# pass: each is written to a file of its own (log_path), so that one a
# test swallowed with its stderr is still seen.  About five minutes on 2
# cores, the builds included.
#
# usage: tests/sanitizer_pass.sh [FUZZ_SECONDS]   (default 20)
set -u
cd "$(dirname "$0")/.." || exit 1
seconds=${1:-20}
reports=$(mktemp -d "${TMPDIR:-/tmp}/memshim-sanitizer.XXXXXX") || exit 1
trap 'rm -rf "$reports"' EXIT
status=0

make -s -j"$(nproc)" all tools/memshim-asan >/dev/null || { echo "FAIL: the sanitizer build failed"; exit 1; }
tool=$PWD/tools/memshim-asan
export ASAN_OPTIONS="detect_leaks=1:log_path=$reports/asan" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan"

# (not tests/test_sequences.sh: it compares bench's figures, which the
# sanitizers' own cost moves; its dumps are replayed below instead)
tests="tests/test_untrusted_dumps.sh tests/test_untrusted_files.sh tests/test_report_input.sh tests/test_report_svg.sh \
tests/test_stacks.sh tests/test_fleetbench.sh tests/test_pprof.sh tests/test_report_basis.sh"
make -s check TESTS="$tests" TOOL_UNDER_TEST="$tool" >"$reports/check.out" 2>&1 || {
	grep -E '^(FAIL|ERROR)' "$reports/check.out"
	status=1
}

# bench --replay on every input of the corpus with calls to replay (the
# quick settings: the pass is about memory errors, not figures).  A
# memcpy recorded on overlapping ranges was replayed with memcpy.
for dump in tests/fuzz/report_corpus/*; do
	grep -q '^seq ' "$dump" || continue
	timeout -k 5 120 "$tool" bench --replay "$dump" --quick >/dev/null 2>&1
	rc=$?
	[ $rc -le 1 ] || { echo "FAIL: bench --replay $dump: status $rc"; status=1; }
done

for each in run_fuzz_report.sh:$seconds run_fuzz_commands.sh:$((seconds / 4 + 1)); do
	runner=tests/fuzz/${each%:*}
	T_MEMSHIM_FUZZ_SECONDS=${each#*:} T_MEMSHIM_FUZZ_RUNS=100000000 top_srcdir=. top_builddir=. \
		ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 sh "$runner"
	case $? in
	0) ;;
	77) echo "SKIP: no clang with libFuzzer: $runner did not run" ;;
	*) status=1 ;;
	esac
done

for report in "$reports"/asan.* "$reports"/ubsan.*; do
	[ -f "$report" ] || continue
	echo "FAIL: a sanitizer report ($report):"
	head -40 "$report"
	status=1
done
[ $status -eq 0 ] && echo "ok: the dump readers under ASan and UBSan"
exit $status
