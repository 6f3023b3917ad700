#!/bin/sh
# A calibration file's rep and non-temporal thresholds are taken as
# written, however low (a person may write one by hand).  The *_erms twins'
# memset leaves the ladder for rep stosb above 2V, before its test against
# 8V; with nt that low as well it once ran the non-temporal loop, which
# needs more than 8V, on 2V-8V bytes and wrote past the destination.
# tests/test_variants checks every size to 1 KiB against canaries, under
# such a file.  (sse2_erms runs everywhere; the rows a CPU cannot run are
# skipped.)
. "${top_srcdir:-.}/tests/lib.sh"
cpu=$("$T_MEMSHIM_TOOL" info 2>/dev/null | sed -n 's/^CPU: \([^,]*\), family \([0-9]*\) .*, model \([0-9]*\) .*/cpu \1 \2 \3/p')
printf 'memshim-calibration 1\n%s\nauto_movsb 100\nauto_stosb 100\nnt 100\n' "$cpu" >"$scratch/low"
MEMSHIM_CONFIG="$scratch/low"
export MEMSHIM_CONFIG
expect_match "the library takes the file's thresholds" "$("$T_MEMSHIM_TOOL" info 2>&1)" \
	'auto_stosb 100 B \[calibration file\], nt 100 B \[calibration file\]'
"$top_builddir/tests/test_variants" sse2_erms avx2_erms avx512_erms evex_erms avx2_xmm_erms >"$scratch/out" 2>&1
rc=$?
if grep -q 'no variant tested' "$scratch/out"; then
	skip "the *_erms variants under low thresholds: this CPU (or MEMSHIM_HWCAPS) lacks ERMS, which they need"
else
	expect_eq "every *_erms variant this CPU runs copies and sets exactly, nothing past its end" \
		"$rc $(grep -c 'FAIL' "$scratch/out")" "0 0"
	grep FAIL "$scratch/out" | head -n 5
fi
finish
