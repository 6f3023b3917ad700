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

. "$srcdir/fuzz_lib.sh"
find_fuzz_cc fuzzer,address,undefined

mkdir -p "$outdir" || exit 99
binary=$outdir/fuzz_report
sources="$srcdir/fuzz_report.c $top/dump/reader/read.c $top/dump/reader/records.c $top/tools/util/parse_number.c $top/dump/reader/add.c $top/dump/write.c $top/dispatch/message.c $top/dispatch/early_env.c"
stale=
for s in $sources $top/dump/format.h $top/dump/counts.h; do
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

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}" UBSAN_OPTIONS=print_stacktrace=1
run_fuzzer "$binary" "$srcdir/report_corpus" "inputs read without a crash or sanitizer report" \
	-timeout=10 -max_len=16384
