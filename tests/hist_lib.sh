# Helpers for the recording tests, after tests/lib.sh: merge dumps with
# `memshim report --json` and check them against tests/hist_program's
# known call sequence (tests/hist_check.py).
check=${top_srcdir:-.}/tests/hist_check.py
# The program with the known sequence, and a folder for its dumps.
program=$(cd "$top_builddir" && pwd)/tests/hist_program
dir=$scratch/dumps
mkdir "$dir"

# report_json FILE... -> $scratch/report.json; status in $rc_report
report_json() { "$T_MEMSHIM_TOOL" report --json "$@" >"$scratch/report.json" 2>"$scratch/report.err"; rc_report=$?; }

# expect_counts WHAT SEQUENCES EXTRA_24_BYTE_COPIES FILE...
expect_counts() {
	what=$1 n=$2 extra=$3
	shift 3
	report_json "$@"
	if [ "$rc_report" -ne 0 ]; then
		fail "$what: memshim report failed: $(cat "$scratch/report.err")"
	elif detail=$(python3 "$check" "$scratch/report.json" "$n" "$extra"); then
		pass "$what"
	else
		fail "$what: $detail"
	fi
}
