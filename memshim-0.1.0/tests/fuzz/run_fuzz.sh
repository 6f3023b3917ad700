#!/bin/sh
# Builds tests/fuzz/fuzz_variants.c with clang's libFuzzer and AddressSanitizer
# and runs it for a bounded time and number of inputs, starting from the seed
# corpus in tests/fuzz/corpus.  Exit 77 (automake: SKIP) when no clang with
# libFuzzer is found.
#
#   run_fuzz.sh                the make check run (T_MEMSHIM_FUZZ_RUNS inputs,
#                              at most T_MEMSHIM_FUZZ_SECONDS seconds)
#   run_fuzz.sh --build-only   just build $top_builddir/tests/fuzz/fuzz_variants
#
# For a longer run by hand, see the comment at the top of fuzz_variants.c.
# Environment: FUZZ_CC (the clang to use), MEMSHIM_LIBRARY (set by make check).
set -u
srcdir=${top_srcdir:-.}/tests/fuzz
outdir=${top_builddir:-.}/tests/fuzz
runs=${T_MEMSHIM_FUZZ_RUNS:-400000}
seconds=${T_MEMSHIM_FUZZ_SECONDS:-25}

cc=
for c in ${FUZZ_CC:-} clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
	command -v "$c" >/dev/null 2>&1 || continue
	if echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }' |
		"$c" -x c -fsanitize=fuzzer,address -o /dev/null - >/dev/null 2>&1; then
		cc=$c
		break
	fi
done
if [ -z "$cc" ]; then
	echo "SKIP: no clang with -fsanitize=fuzzer (Debian: clang and libclang-rt-dev)"
	exit 77
fi

mkdir -p "$outdir" || exit 99
binary=$outdir/fuzz_variants
if [ ! -x "$binary" ] || [ "$srcdir/fuzz_variants.c" -nt "$binary" ]; then
	echo "building $binary with $cc"
	"$cc" -std=gnu11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address \
		"$srcdir/fuzz_variants.c" -o "$binary" -ldl || exit 99
fi
[ "${1:-}" = --build-only ] && exit 0

: "${MEMSHIM_LIBRARY:?run through make check, or set MEMSHIM_LIBRARY}"
work=$(mktemp -d "${TMPDIR:-/tmp}/memshim-fuzz.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus" "$work/artifacts"
# New inputs go to the scratch corpus (the first one); the seeds are only read.
# A crash is kept as $work/artifacts/crash-*, copied next to the binary.
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=0} \
	"$binary" -runs="$runs" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=1024 \
	-print_final_stats=1 -artifact_prefix="$work/artifacts/" \
	"$work/corpus" "$srcdir/corpus" >"$work/log" 2>&1
status=$?
grep -E '^fuzz_variants:|^Done|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|^FAIL|ERROR|SUMMARY|DEADLYSIGNAL|INFO: seed corpus' "$work/log"
if [ $status -ne 0 ]; then
	tail -40 "$work/log"
	for crash in "$work"/artifacts/*; do
		[ -f "$crash" ] || continue
		cp "$crash" "$outdir/" && echo "FAIL: input kept as $outdir/$(basename "$crash"); replay: $binary $outdir/$(basename "$crash")"
	done
	echo "FAIL: fuzz_variants exited with status $status"
	exit 1
fi
echo "ok: $(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log") inputs, no difference from the reference"
