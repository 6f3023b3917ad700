#!/bin/sh
# memshim bench --path, and the rule the vector ladders keep
# (shim/vector_ladder.S): in every size class up to 1 KiB, no vector variant
# takes more branches than glibc's function of the same width, or runs more
# than 3 instructions more.  glibc's widths come from its own tunables, as
# it picks them on a lesser CPU; the path is the same on any CPU that runs
# the same code, so this holds on every machine (a width this CPU cannot
# run is a SKIP).
. "${top_srcdir:-.}/tests/lib.sh"
need_python "the path check"
if ! have_config HAVE_ZYDIS; then
	skip "bench --path: built without Zydis (libzydis-dev)"
	finish
	exit
fi

# path NAME TUNABLES: bench --path's CSV under GLIBC_TUNABLES, headed by
# what glibc picked there.
path() {
	GLIBC_TUNABLES=$2 "$T_MEMSHIM_TOOL" bench --path --csv "$scratch/$1.body" >"$scratch/$1.out" 2>"$scratch/$1.err"
	rc=$?
	{ sed -n 's/^glibc here:/# glibc:/p' "$scratch/$1.out"; cat "$scratch/$1.body"; } >"$scratch/$1.csv"
}

path ours ""
expect_eq "bench --path runs" "$rc" 0
expect_eq "bench --path writes nothing on stderr" "$(cat "$scratch/ours.err")" ""
expect_match "one table per function" "$(grep -c '^## mem' "$scratch/ours.out")" '^3$'
expect_eq "the CSV: one line per function, variant and size 0..1024" \
	"$(sed 1d "$scratch/ours.body" | awk -F, '{ n[$1 "," $2]++ } END { for (k in n) if (n[k] != 1025) print k, n[k] }')" ""
# A rep movsb variant runs one instruction for any size: string
# instructions count once, not once per byte.
expect_eq "fsrm's memcpy: the same path at every size" \
	"$(awk -F, '$1 == "memcpy" && $2 == "fsrm" { print $4 "/" $5 }' "$scratch/ours.body" | sort -u | wc -l)" 1

path evex glibc.cpu.hwcaps=Prefer_No_AVX512
path avx glibc.cpu.hwcaps=-AVX512F,-AVX512VL
path sse2 glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX2,-AVX_Fast_Unaligned_Load,-SSSE3
run_checker "path" "$PYTHON" "$top_srcdir/tests/path_check.py" "$scratch/ours.csv" "$scratch/ours.csv" \
	"$scratch/evex.csv" "$scratch/avx.csv" "$scratch/sse2.csv"
skipped=$((skipped + $(grep -c '^SKIP:' "$scratch/checker.out")))

# The check can fail: one more taken branch at a single size of a class
# is caught.
awk -F, -v OFS=, 'NR > 1 && $2 == "sse2" && $1 == "memcpy" && $3 == 300 { $5++ } { print }' \
	"$scratch/ours.csv" >"$scratch/planted.csv"
"$PYTHON" "$top_srcdir/tests/path_check.py" "$scratch/planted.csv" "$scratch/sse2.csv" >"$scratch/planted.out" 2>&1
expect_match "a planted branch fails the check" "$(grep '^FAIL' "$scratch/planted.out")" \
	'memcpy sse2 at 257-512 B against __memcpy_sse2_unaligned(_erms)?: branches taken'
# And a branch on the size below 64 B in the branch-free variant is caught.
if grep -q '^memcpy,avx512_mask64_erms,' "$scratch/ours.csv"; then
	awk -F, -v OFS=, '$2 == "avx512_mask64_erms" && $1 == "memcpy" && $3 == 9 { $5++ } { print }' \
		"$scratch/ours.csv" >"$scratch/planted64.csv"
	"$PYTHON" "$top_srcdir/tests/path_check.py" "$scratch/planted64.csv" "$scratch/ours.csv" >"$scratch/planted64.out" 2>&1
	expect_match "a branch on the size below 64 B fails the check" "$(grep '^FAIL' "$scratch/planted64.out")" \
		'memcpy avx512_mask64_erms at 0-63 B'
else
	skip "the branch-free path check's own failure: this CPU runs no avx512_mask64_erms"
fi
finish
