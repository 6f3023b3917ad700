#!/bin/sh
# The tools' other inputs are untrusted too (issue 51): calibration files,
# call-size distribution files and bench CSVs are read by the one checked
# number parser (tools/util/parse_number.c), which refuses a sign where
# none belongs, a leading blank and an overflow.  Each input here is a
# regression input of tests/fuzz/*_corpus that the earlier parsers
# (sscanf's %u, strtod) took: "-4294967292" as 4, "-0" as 0.
. "${top_srcdir:-.}/tests/lib.sh"
fuzz=${top_srcdir:-.}/tests/fuzz
tool=$T_MEMSHIM_TOOL
dump=$fuzz/report_corpus/real-calls

# status CMD...: the tool's status, stderr in $err.
status() {
	timeout -k 5 60 "$tool" "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	err=$(cat "$scratch/err")
}

status tune --calibration "$fuzz/calibration_corpus/quick-calibration" "$dump"
expect_eq "tune reads the corpus's calibration file" "$rc" 0
for input in rounds-sign:11 curve-points-sign:60 ratio-negative-zero:13; do
	status tune --calibration "$fuzz/calibration_corpus/regress-${input%:*}" "$dump"
	expect_eq "a calibration file with a sign where none belongs (${input%:*}) is refused" "$rc" 1
	expect_match "at its line" "$err" "regress-${input%:*} line ${input#*:} is not"
done

status bench --draws 10 --distribution "$fuzz/dist_corpus/Memcpy_0.csv"
expect_eq "bench --draws reads the corpus's distribution" "$rc" 0
for input in negative-zero leading-space; do
	status bench --draws 10 --distribution "$fuzz/dist_corpus/regress-$input.csv"
	expect_eq "a distribution with $input is refused" "$rc" 1
	expect_match "with a reason" "$err" "regress-$input.csv"
done

status cpu-row --from-bench "$fuzz/bench_csv_corpus/class-cases.csv" --cpu 'AuthenticAMD -4294967271 1 avx2' \
	-o "$scratch/row"
expect_eq "cpu-row --cpu with a negative family is a usage error, and no row" "$rc:$(ls "$scratch")" "2:err
out"
status cpu-row --from-bench "$fuzz/bench_csv_corpus/regress-threshold-sign.csv" --cpu 'AuthenticAMD 25 1 avx2' \
	-o "$scratch/row"
expect_eq "a bench CSV's threshold with a sign is not read as one" "$rc:$(grep -c '^thresholds' "$scratch/row")" "0:0"

finish
