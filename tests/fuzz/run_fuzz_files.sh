#!/bin/sh
# Builds tests/fuzz/fuzz_files.c once per reader (the calibration file,
# call-size distribution files) with libFuzzer, ASan and UBSan, and runs
# each for a bounded number of inputs and time from its seed corpus
# (tests/fuzz/calibration_corpus, tests/fuzz/dist_corpus).  Exit 77
# (automake: SKIP) when no clang with libFuzzer is found.  Needs the
# build's convenience libraries (make first): the calibration's reader
# uses the library's own parsers.
#   run_fuzz_files.sh               each reader: T_MEMSHIM_FUZZ_RUNS inputs,
#                                   at most T_MEMSHIM_FUZZ_SECONDS s
#   run_fuzz_files.sh --build-only  just build them
set -u
top=${top_srcdir:-.}
build=${top_builddir:-.}
srcdir=$top/tests/fuzz
outdir=$build/tests/fuzz
runs=${T_MEMSHIM_FUZZ_RUNS:-300000}
seconds=${T_MEMSHIM_FUZZ_SECONDS:-6}

. "$srcdir/fuzz_lib.sh"
find_fuzz_cc fuzzer,address,undefined
mkdir -p "$outdir" || exit 99
libs="$build/.libs/libdispatch.a $build/.libs/libvariants_gpr.a $build/.libs/libvariants_sse2.a \
$build/.libs/libvariants_avx2.a $build/.libs/libvariants_avx512.a $build/.libs/libvariants_evex.a"

# build NAME READER SOURCES...: $outdir/fuzz_NAME, unless newer than its sources.
build() {
	name=$1 reader=$2
	shift 2
	binary=$outdir/fuzz_$name
	stale=
	for s in "$srcdir/fuzz_files.c" "$@"; do
		[ "$s" -nt "$binary" ] && stale=1
	done
	[ -x "$binary" ] && [ -z "$stale" ] && return 0
	echo "building $binary with $cc"
	# shellcheck disable=SC2086
	# (MEMSHIM_PKGDATADIR: where the built-in distributions would be installed; not read here)
	"$cc" -std=gnu11 -g -O1 -Wall -Wextra -Werror -D_GNU_SOURCE -DFUZZ_READER="$reader" -I"$top" -I"$build" \
		-DMEMSHIM_PKGDATADIR='"/nonexistent"' \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		"$srcdir/fuzz_files.c" "$@" -o "$binary" -lm -ldl || exit 99
}
build calibration 1 "$top/tools/tune/file.c" "$top/tools/util/parse_number.c" "$top/tools/calibrate/cost_model.c" "$top/tools/util/quantile.c" \
	"$top/tools/measure/progress.c" $libs
build dist 2 "$top/tools/measure/dist_file.c" "$top/tools/measure/size_dist.c" "$top/tools/util/parse_number.c"
[ "${1:-}" = --build-only ] && exit 0

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}" UBSAN_OPTIONS=print_stacktrace=1
status=0
(run_fuzzer "$outdir/fuzz_calibration" "$srcdir/calibration_corpus" "calibration files read without a crash or sanitizer report" \
	-timeout=10 -max_len=131072) || status=1
(run_fuzzer "$outdir/fuzz_dist" "$srcdir/dist_corpus" "distribution files read without a crash or sanitizer report" \
	-timeout=10 -max_len=16384) || status=1
exit $status
