# Shared by the libFuzzer runners (run_fuzz.sh, run_fuzz_report.sh, run_fuzz_commands.sh).

# find_fuzz_cc SANITIZERS: sets $cc to a clang that links -fsanitize=SANITIZERS
# (fuzzer included); exits 77 (automake: SKIP) when there is none.
find_fuzz_cc() {
	cc=
	for c in ${FUZZ_CC:-} clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
		command -v "$c" >/dev/null 2>&1 || continue
		if echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }' |
			"$c" -x c -fsanitize="$1" -o /dev/null - >/dev/null 2>&1; then
			cc=$c
			return
		fi
	done
	echo "SKIP: no clang with -fsanitize=$1 (Debian: clang and libclang-rt-dev)"
	exit 77
}

# run_fuzzer BINARY SEED_DIR OK_TEXT [LIBFUZZER_OPTION...]: runs BINARY for
# $runs inputs or $seconds seconds at most, prints its summary, and exits 1
# with any crashing input kept next to the binary (and how to replay it),
# or prints "ok: N OK_TEXT".
run_fuzzer() {
	binary=$1 seeds=$2 ok_text=$3
	shift 3
	work=$(mktemp -d "${TMPDIR:-/tmp}/memshim-fuzz.XXXXXX") || exit 99
	trap 'rm -rf "$work"' EXIT
	mkdir "$work/corpus" "$work/artifacts"
	# New inputs go to the scratch corpus (the first one); the seeds are only read.
	"$binary" -runs="$runs" -max_total_time="$seconds" -rss_limit_mb=1024 "$@" \
		-print_final_stats=1 -artifact_prefix="$work/artifacts/" \
		"$work/corpus" "$seeds" >"$work/log" 2>&1
	status=$?
	grep -E '^Done|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)|^FAIL|ERROR|SUMMARY|runtime error|DEADLYSIGNAL|INFO: seed corpus' "$work/log"
	if [ $status -ne 0 ]; then
		tail -40 "$work/log"
		for crash in "$work"/artifacts/*; do
			[ -f "$crash" ] || continue
			cp "$crash" "$(dirname "$binary")/" &&
				echo "FAIL: input kept as $(dirname "$binary")/$(basename "$crash"); replay: $binary $(dirname "$binary")/$(basename "$crash")"
		done
		echo "FAIL: $(basename "$binary") exited with status $status"
		exit 1
	fi
	echo "ok: $(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log") $ok_text"
}
