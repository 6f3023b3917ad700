#!/bin/sh
# tests/test_variants on the vector variants with thresholds low enough that the
# test's sizes (up to 4 MiB) reach the rep movsb / rep stosb range and the
# non-temporal loop, which the built-in thresholds (MiB of L3) put out of reach.
# evex has no rep range, but on CPUs whose CPU row fills from nt with rep stosb
# (dispatch/builtin.c: AMD family 0x19) its memset takes that path too.
# (sse2 runs everywhere; the *_erms variants a CPU cannot run are skipped.)
: "${top_builddir:=.}"
MEMSHIM_MOVSB_THRESHOLD=1K MEMSHIM_STOSB_THRESHOLD=1K MEMSHIM_NT_THRESHOLD=64K \
	exec "$top_builddir/tests/test_variants" sse2 sse2_erms avx2_erms avx512_erms evex avx2_xmm_erms avx512_mask_erms avx512_mask64_erms evex_mask_erms
