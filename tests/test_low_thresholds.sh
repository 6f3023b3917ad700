#!/bin/sh
# The rep and non-temporal thresholds' variables are taken as written,
# however low (with a warning).  The *_erms twins' memset leaves the ladder
# for rep stosb above 2V, before its test against 8V; with nt that low as
# well it once ran the non-temporal loop, which needs more than 8V, on 2V-8V
# bytes and wrote past the destination.  tests/test_variants checks every
# size to 1 KiB against canaries, under such values.  (sse2_erms runs
# everywhere; the variants a CPU cannot run are skipped.)  A calibration file
# may not hold an nt that low: it is set aside, with one message.  With a
# stop to the rep range, the copies from the stop to nt take the cached loop
# again, which is checked the same way.
. "${top_srcdir:-.}/tests/lib.sh"
cpu=$("$T_MEMSHIM_TOOL" info 2>/dev/null | sed -n 's/^CPU: \([^,]*\), family \([0-9]*\) .*, model \([0-9]*\) .*/cpu \1 \2 \3/p')
printf 'memshim-calibration 1\n%s\nauto_movsb 100\nauto_stosb 100\nnt 100\n' "$cpu" >"$scratch/low"
err=$(env MEMSHIM_CALIBRATION="$scratch/low" "$T_MEMSHIM_TOOL" info 2>&1 >/dev/null)
expect_eq "a file with nt below 16448 B: one message, the built-in thresholds" "$err" \
	"memshim: calibration file \"$scratch/low\" line 5: nt is below 16448 B, glibc's least and the calibration's (copies that small would bypass the caches); using the built-in thresholds"
MEMSHIM_MOVSB_THRESHOLD=100 MEMSHIM_STOSB_THRESHOLD=100 MEMSHIM_NT_THRESHOLD=100
export MEMSHIM_MOVSB_THRESHOLD MEMSHIM_STOSB_THRESHOLD MEMSHIM_NT_THRESHOLD
expect_match "the library takes the variables' thresholds" "$("$T_MEMSHIM_TOOL" info 2>&1)" \
	'stosb 100 B \[environment\], nt 100 B \[environment\]'
"$top_builddir/tests/test_variants" sse2_erms avx2_erms avx512_erms avx2_xmm_erms avx512_mask_erms avx512_mask64_erms evex_mask_erms >"$scratch/out" 2>&1
rc=$?
if grep -q 'no variant tested' "$scratch/out"; then
	skip "the *_erms variants under low thresholds: this CPU (or MEMSHIM_HWCAPS) lacks ERMS, which they need"
else
	expect_eq "every *_erms variant this CPU runs copies and sets exactly, nothing past its end" \
		"$rc $(grep -c 'FAIL' "$scratch/out")" "0 0"
	grep FAIL "$scratch/out" | head -n 5
fi
unset MEMSHIM_NT_THRESHOLD
MEMSHIM_MOVSB_THRESHOLD=600 MEMSHIM_MOVSB_STOP_THRESHOLD=2000
export MEMSHIM_MOVSB_STOP_THRESHOLD
expect_match "the library takes the stop of the rep range" "$("$T_MEMSHIM_TOOL" info 2>&1)" \
	'movsb_stop 2000 B \[environment\]'
"$top_builddir/tests/test_variants" sse2_erms avx2_erms avx512_erms avx2_xmm_erms avx512_mask_erms avx512_mask64_erms evex_mask_erms >"$scratch/out" 2>&1
rc=$?
if ! grep -q 'no variant tested' "$scratch/out"; then
	expect_eq "with rep movsb from 600 B to 2000 B, the loop above: exact, nothing past the end" \
		"$rc $(grep -c 'FAIL' "$scratch/out")" "0 0"
	grep FAIL "$scratch/out" | head -n 5
fi
finish
