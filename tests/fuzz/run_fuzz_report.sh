#!/bin/sh
# Builds tests/fuzz/fuzz_report.c (the dump reader under libFuzzer, ASan and
# UBSan) and runs it for a bounded number of inputs and time from the seed
# corpus tests/fuzz/report_corpus.  Exit 77 (automake: SKIP) when no clang
# with libFuzzer is found.
#   run_fuzz_report.sh               the make check run (T_MEMSHIM_FUZZ_RUNS
#                                    inputs, at most T_MEMSHIM_FUZZ_SECONDS s)
#   run_fuzz_report.sh --build-only  just build $top_builddir/tests/fuzz/fuzz_report
# Environment: FUZZ_CC (the clang to use).
set -u
top=${top_srcdir:-.}
srcdir=$top/tests/fuzz
outdir=${top_builddir:-.}/tests/fuzz
runs=${T_MEMSHIM_FUZZ_RUNS:-300000}
seconds=${T_MEMSHIM_FUZZ_SECONDS:-6}

cc=
for c in ${FUZZ_CC:-} clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
	command -v "$c" >/dev/null 2>&1 || continue
	if echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }' |
		"$c" -x c -fsanitize=fuzzer,address,undefined -o /dev/null - >/dev/null 2>&1; then
		cc=$c
		break
	fi
done
if [ -z "$cc" ]; then
	echo "SKIP: no clang with -fsanitize=fuzzer,address,undefined (Debian: clang and libclang-rt-dev)"
	exit 77
fi

mkdir -p "$outdir" || exit 99
binary=$outdir/fuzz_report
sources="$srcdir/fuzz_report.c $top/shim/histogram_read.c $top/shim/histogram_write.c $top/dispatch/message.c"
stale=
for s in $sources $top/shim/histogram_format.h $top/shim/histogram.h; do
	[ "$s" -nt "$binary" ] && stale=1
done
if [ ! -x "$binary" ] || [ -n "$stale" ]; then
	echo "building $binary with $cc"
	# shellcheck disable=SC2086
	"$cc" -std=gnu11 -g -O1 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$top" -I"${top_builddir:-.}" \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		$sources -o "$binary" || exit 99
fi
[ "${1:-}" = --build-only ] && exit 0

work=$(mktemp -d "${TMPDIR:-/tmp}/memshim-fuzz-report.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus" "$work/artifacts"
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1} UBSAN_OPTIONS=print_stacktrace=1 \
	"$binary" -runs="$runs" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -max_len=16384 \
	-print_final_stats=1 -artifact_prefix="$work/artifacts/" \
	"$work/corpus" "$srcdir/report_corpus" >"$work/log" 2>&1
status=$?
grep -E '^Done|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|ERROR|SUMMARY|runtime error|DEADLYSIGNAL|INFO: seed corpus' "$work/log"
if [ $status -ne 0 ]; then
	tail -40 "$work/log"
	for crash in "$work"/artifacts/*; do
		[ -f "$crash" ] || continue
		cp "$crash" "$outdir/" && echo "FAIL: input kept as $outdir/$(basename "$crash"); replay: $binary $outdir/$(basename "$crash")"
	done
	echo "FAIL: fuzz_report exited with status $status"
	exit 1
fi
echo "ok: $(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log") inputs read without a crash or sanitizer report"
