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

. "$srcdir/fuzz_lib.sh"
find_fuzz_cc fuzzer,address

mkdir -p "$outdir" || exit 99
binary=$outdir/fuzz_variants
if [ ! -x "$binary" ] || [ "$srcdir/fuzz_variants.c" -nt "$binary" ] || [ "${top_srcdir:-.}/shim/entry_set.h" -nt "$binary" ]; then
	echo "building $binary with $cc"
	"$cc" -std=gnu11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address \
		-I"${top_srcdir:-.}" "$srcdir/fuzz_variants.c" -o "$binary" -ldl || exit 99
fi
[ "${1:-}" = --build-only ] && exit 0

: "${MEMSHIM_LIBRARY:?run through make check, or set MEMSHIM_LIBRARY}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=0}"
run_fuzzer "$binary" "$srcdir/corpus" "inputs, no difference from the reference" -timeout=20
