#!/bin/sh
# Fuzzes each family of memshim's readers of untrusted files with
# tests/fuzz/fuzz_command.c (the tool in process, under libFuzzer, ASan
# and UBSan), each family from its seed corpus for T_MEMSHIM_FUZZ_RUNS
# inputs or T_MEMSHIM_FUZZ_SECONDS seconds at most.  Exit 77 (automake:
# SKIP) when no clang with libFuzzer is found; 1 with the input kept when
# a family finds something.  Needs a configured tree (make builds the
# harness, with clang, the first time: about a minute).
#   run_fuzz_commands.sh [FAMILY...]   those families (default: all)
#   run_fuzz_commands.sh --build-only  just build tests/fuzz/fuzz_command
#   run_fuzz_commands.sh --list        the families (report-modes last: every
#                                      report mode on each input, not in the default list)
set -u
top=${top_srcdir:-.}
build=${top_builddir:-.}
srcdir=$top/tests/fuzz
runs=${T_MEMSHIM_FUZZ_RUNS:-300000}
seconds=${T_MEMSHIM_FUZZ_SECONDS:-6}
# (tabs: FUZZ_ARGS's words are split at spaces, and cpu-row reads either)
row_cpu=$(printf 'AuthenticAMD\t25\t1\tavx2')

# family NAME: sets $args (FUZZ_ARGS: @@ the input, OUT a scratch file),
# $seeds and $max_len; false for a name that is none.
family() {
	seeds=$srcdir/report_corpus max_len=16384
	case $1 in
	report) args='report @@' ;;
	report-json) args='report --json @@' ;;
	report-svg) args='report --force --svg OUT @@' ;;
	report-folded) args='report --folded @@' ;;
	report-pprof) args='report --force --pprof OUT @@' ;;
	report-by-program) args='report --by-program --top 50 @@' ;;
	report-program) args='report --program hist_program @@' ;;
	report-fleetbench) args='report --force --fleetbench-csv OUT @@' ;;
	report-modes) args=$(family_list report report-json report-svg report-folded report-pprof report-by-program \
		report-program report-fleetbench) ;;
	merge) args='merge -o OUT @@' ;;
	tune) args="tune --calibration $srcdir/calibration_corpus/quick-calibration @@" ;;
	replay) args='replay-plan @@' ;;
	calibration) args="tune --calibration @@ $srcdir/report_corpus/real-calls" seeds=$srcdir/calibration_corpus \
		max_len=131072 ;;
	distribution) args='bench --draws 20 --distribution @@' seeds=$srcdir/dist_corpus ;;
	bench-csv) args="cpu-row --from-bench @@ --cpu $row_cpu -o OUT" seeds=$srcdir/bench_csv_corpus ;;
	*) return 1 ;;
	esac
}
# family_list NAME...: those families' commands as one (FUZZ_ARGS's ";"),
# each input given to every one of them in turn.
family_list() {
	for f; do
		family "$f" && printf '%s' "${sep:-}$args"
		sep=' ; '
	done
}
# report-modes (every report mode on each input) is for long campaigns; the
# default list runs each mode apart.
families="report report-json report-svg report-folded report-pprof report-by-program report-program report-fleetbench merge tune
replay calibration distribution bench-csv"
if [ "${1:-}" = --list ]; then
	echo "$families report-modes"
	exit 0
fi

. "$srcdir/fuzz_lib.sh"
find_fuzz_cc fuzzer,address,undefined
cxx=$(printf '%s' "$cc" | sed 's/clang/clang++/')
echo "building $build/tests/fuzz/fuzz_command with $cc"
# The libraries it links first, with the configured compiler: a stale one
# rebuilt with clang would get the gcc-only flags of its objects.
make -s -C "$build" libdispatch.la libdump_write.la >/dev/null || exit 99
make -s -C "$build" CC="$cc" CXX="$cxx" tests/fuzz/fuzz_command >/dev/null || exit 99
[ "${1:-}" = --build-only ] && exit 0

[ $# -gt 0 ] && families=$*
scratch=$(mktemp -d "${TMPDIR:-/tmp}/memshim-fuzz-out.XXXXXX") || exit 99
trap 'rm -rf "$scratch"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}" UBSAN_OPTIONS=print_stacktrace=1
status=0
for name in $families; do
	family "$name" || { echo "FAIL: no family $name (--list)"; exit 2; }
	echo "$name: memshim $args"
	( # a subshell each: run_fuzzer sets its own EXIT trap
		FUZZ_ARGS=$(printf '%s' "$args" | sed "s|OUT|$scratch/out|g")
		FUZZ_OUTPUT=$scratch/out
		export FUZZ_ARGS FUZZ_OUTPUT
		run_fuzzer "$build/tests/fuzz/fuzz_command" "$seeds" "$name inputs without a crash or sanitizer report" \
			-timeout=10 -max_len="$max_len" -close_fd_mask=2
	) || status=1
done
exit $status
