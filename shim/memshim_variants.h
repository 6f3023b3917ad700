/* Every variant of memshim, one line each, in the order of the dispatch
 * table (`memshim info`, memshim_variant_name).  This file is a list, not a
 * header: whoever includes it first defines
 *
 *   MEMSHIM_VARIANT(name, code, vector_bytes, rep_range, twin, unmasked, usable, describe, summary)
 *
 *   name          the V of memshim_memcpy_V and the rest (memshim.h)
 *   code          shim: compiled here (shim/, its entry set memshim_entries_V);
 *                 libc: the C library's own functions, looked up at start
 *   vector_bytes  bytes per vector register it copies with; 0: none
 *   rep_range     1: from a threshold on it hands the call to rep movsb or
 *                 rep stosb (the *_erms variants and erms)
 *   twin          the variant whose code it runs below that range; itself
 *                 for one without a rep range, or whose code below it is its own
 *   unmasked      the variant whose code it runs in memset and in copies of
 *                 more than 16 bytes: the same without MASKED_COPY
 *                 (shim/vector_ladder.S); itself for all but the *_mask ones
 *   usable        whether a CPU can run it (dispatch/variants.c); NULL: every x86-64
 *   describe      how `memshim info` shows the thresholds it reads
 *                 (dispatch/variants.c); NULL: it reads none
 *   summary       one line, for `memshim info` and --help
 *
 * and the dispatch table, the declarations of memshim.h, the entry sets and
 * the tools' facts about each variant all follow from it, the way perf's
 * MEMCPY_FN list feeds its declarations and its table
 * (tools/perf/bench/mem-memcpy-x86-64-asm-def.h).  Adding a variant is a
 * line here and its file in shim/ (with its flags in Makefile.am). */

MEMSHIM_VARIANT(fsrm, shim, 0, 0, fsrm, fsrm, NULL, NULL,
		"rep movsb / rep stosb at every size (kernel: CPUs with FSRM)")
MEMSHIM_VARIANT(erms, shim, 0, 1, erms, erms, NULL, describe_erms,
		"scalar below MEMSHIM_MOVSB_THRESHOLD, rep movsb at and above (kernel: ERMS without FSRM)")
MEMSHIM_VARIANT(scalar, shim, 0, 0, scalar, scalar, NULL, NULL,
		"general-purpose registers only, aligned 32-byte loop, no string instructions")
MEMSHIM_VARIANT(movsq, shim, 0, 0, movsq, movsq, NULL, NULL,
		"rep movsq with an 8-byte-aligned destination above 64 bytes (kernel: no ERMS)")
MEMSHIM_VARIANT(glibc, libc, 0, 0, glibc, glibc, NULL, NULL,
		"the C library's own functions (the next definition after this library)")
/* The vector variants (shim/vector_pieces.h); the *_erms variants add a rep
 * movsb range, and the calibration starts from the widest of them on ERMS
 * CPUs (dispatch/builtin.c). */
MEMSHIM_VARIANT(sse2, shim, 16, 0, sse2, sse2, NULL, describe_vector,
		"16-byte vectors, aligned 4-vector loop, non-temporal from MEMSHIM_NT_THRESHOLD")
MEMSHIM_VARIANT(avx2, shim, 32, 0, avx2, avx2, has_avx2, describe_vector,
		"32-byte vectors, aligned 4-vector loop, non-temporal from MEMSHIM_NT_THRESHOLD")
MEMSHIM_VARIANT(avx512, shim, 64, 0, avx512, avx512, has_avx512, describe_vector,
		"64-byte vectors, memset below 64 B one masked store, non-temporal from MEMSHIM_NT_THRESHOLD")
MEMSHIM_VARIANT(sse2_erms, shim, 16, 1, sse2, sse2_erms, has_erms, describe_vector_erms,
		"sse2, with rep movsb/stosb from MEMSHIM_MOVSB/STOSB_THRESHOLD")
MEMSHIM_VARIANT(avx2_erms, shim, 32, 1, avx2, avx2_erms, has_avx2_erms, describe_vector_erms,
		"avx2, with rep movsb/stosb from MEMSHIM_MOVSB/STOSB_THRESHOLD")
MEMSHIM_VARIANT(avx512_erms, shim, 64, 1, avx512, avx512_erms, has_avx512_erms, describe_vector_erms,
		"avx512, with rep movsb/stosb from MEMSHIM_MOVSB/STOSB_THRESHOLD")
MEMSHIM_VARIANT(evex, shim, 32, 0, evex, evex, has_avx512, describe_vector,
		"32-byte EVEX vectors, memset below 32 B one masked store, non-temporal from MEMSHIM_NT_THRESHOLD")
/* A composite of the pieces above, for what calibration measured best per
 * size band (shim/vector_avx2_xmm.c). */
MEMSHIM_VARIANT(avx2_xmm, shim, 32, 0, avx2_xmm, avx2_xmm, has_avx2, describe_vector,
		"avx2 with 32..64 B in 16-byte blocks (no upper half touched below 65 B)")
MEMSHIM_VARIANT(avx2_xmm_erms, shim, 32, 1, avx2_xmm, avx2_xmm_erms, has_avx2_erms, describe_vector_erms,
		"avx2_xmm, with rep movsb/stosb from MEMSHIM_MOVSB/STOSB_THRESHOLD")
/* avx512 and evex with no branch on the size below 16 bytes (shim/vector_ladder.S);
 * evex_erms and evex_mask were retired (D50, dispatch/variants.c). */
MEMSHIM_VARIANT(avx512_mask, shim, 64, 0, avx512_mask, avx512, has_avx512, describe_vector,
		"avx512 with copies of 0..16 B in one masked move (no branch on their size)")
MEMSHIM_VARIANT(avx512_mask_erms, shim, 64, 1, avx512_mask, avx512_erms, has_avx512_erms, describe_vector_erms,
		"avx512_mask, with rep movsb/stosb from MEMSHIM_MOVSB/STOSB_THRESHOLD")
MEMSHIM_VARIANT(evex_mask_erms, shim, 32, 1, evex_mask_erms, evex_mask_erms, has_avx512_erms, describe_vector_erms,
		"evex with copies of 0..16 B in one masked move, and rep movsb/stosb from MEMSHIM_MOVSB/STOSB_THRESHOLD")
/* avx512_erms with no branch on the size below 64 bytes; no CPU's default,
 * for programs whose small copies are cached (D45, D48). */
MEMSHIM_VARIANT(avx512_mask64_erms, shim, 64, 1, avx512_mask64_erms, avx512_mask64_erms, has_avx512_erms, describe_vector_erms,
		"avx512_erms with copies of 0..63 B in one masked move (no branch on their size)")
