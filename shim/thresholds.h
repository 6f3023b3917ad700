/* The size thresholds the variants read on every call.  Written by the
 * configuration at start-up (dispatch/config.c), before any resolver hands
 * out a function that reads them, and afterwards only by the measurement
 * entry point memshim_measure_thresholds (preload/exports.c), which
 * memshim's tools call to time a variant under thresholds they pass. */
#ifndef MEMSHIM_THRESHOLDS_H
#define MEMSHIM_THRESHOLDS_H

/* Where the members the vector ladders read lie (shim/vector_ladder.S). */
#define THRESHOLDS_MOVSB 0
#define THRESHOLDS_STOSB 8
#define THRESHOLDS_NT 16

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stddef.h>

/* glibc's least non-temporal threshold (0x4040, sysdeps/x86/dl-cacheinfo.h):
 * below it, copies that fit in the caches would bypass them.  The
 * calibration never chooses one below it, and its file may not hold one. */
#define NT_THRESHOLD_LEAST 16448

/* Every variant that uses rep movsb or rep stosb (erms, and the *_erms
 * vector variants, shim/vector_pieces.h) reads the same two thresholds;
 * built-in values per CPU from dispatch/builtin.c.  Sizes up to
 * 8 vectors never leave a vector variant's code, whatever these say. */
struct thresholds {
	size_t movsb; /* memcpy/memmove: rep movsb from this size on */
	size_t stosb; /* memset: rep stosb from this size on */
	size_t nt;    /* vector variants: non-temporal stores from this size on, when nothing overlaps */
	/* *_erms variants, memcpy/memmove: the cached vector loop again from this
	 * size on, below nt; 0: rep movsb up to nt.  glibc's
	 * rep_movsb_stop_threshold, which it puts at the L2's size on AMD. */
	size_t movsb_stop;
	/* memset from nt on, in every vector variant: rep stosb in place of the
	 * non-temporal loop.  Per CPU, from dispatch/builtin.c. */
	bool set_stosb_beyond_nt;
};

extern struct thresholds memshim_thresholds __attribute__((visibility("hidden")));

_Static_assert(offsetof(struct thresholds, movsb) == THRESHOLDS_MOVSB, "shim/vector_ladder.S reads it there");
_Static_assert(offsetof(struct thresholds, stosb) == THRESHOLDS_STOSB, "shim/vector_ladder.S reads it there");
_Static_assert(offsetof(struct thresholds, nt) == THRESHOLDS_NT, "shim/vector_ladder.S reads it there");
#endif

#endif
