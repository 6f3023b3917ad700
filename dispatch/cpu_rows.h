/* The shipped CPU rows: for each measured CPU class, the bands the default
 * gives memcpy, memmove and memset there.  Each row is a file in
 * data/cpu-rows/ that `memshim tune` wrote from measurements made on that
 * class (its provenance is in the file); the build compiles them into
 * cpu_rows_table.c (dispatch/cpu_rows.awk), so nothing is read at start-up. */
#ifndef MEMSHIM_CPU_ROWS_H
#define MEMSHIM_CPU_ROWS_H

#include "dispatch/bands.h"
#include "dispatch/cpu_features.h"

struct cpu_row {
	const char *file; /* "zen3.row" */
	/* Which CPUs it serves: vendor, family and model ranges, and feature
	 * names (erms fsrm avx2 avx512, space-separated) they must have and
	 * must lack. */
	const char *vendor;
	unsigned family_lo, family_hi, model_lo, model_hi;
	const char *requires, *excludes;
	struct band_list bands[FN_COUNT];
	const char *why[FN_COUNT];
	const char *measured; /* what, where and when it was measured */
	/* Per function, "VARIANT:NS,...": the ns a byte that (dst - src) mod
	 * 4096 in 1..63 adds to each variant's copies from 2 KiB; NULL if not
	 * measured (see tools/util/alias_hazard.h). */
	const char *alias4k[FN_COUNT];
	/* Per function, "VARIANT:X:HAZARD:SIZE:WHERE,...": each variant's time
	 * in its worst case of the hazard catalogue as a multiple of the best
	 * variant's there; NULL if not measured (tools/util/hazards.h). */
	const char *hazards[FN_COUNT];
	/* Where rep movsb and rep stosb start on this class, and where the
	 * *_erms variants' rep movsb stops, measured there; 0: the built-in
	 * value (dispatch/builtin.c). */
	size_t movsb, stosb, movsb_stop;
};

extern const struct cpu_row cpu_rows[];
extern const unsigned cpu_row_count;

/* Whether f has the feature a row may name: erms, fsrm, avx2 or avx512. */
bool cpu_has_feature(const struct cpu_features *f, const char *name);

/* The first row that serves a CPU with features f, or NULL.  f is a
 * parameter so that tests can describe a CPU other than the one they run on. */
const struct cpu_row *cpu_row_for(const struct cpu_features *f);

/* Row r's bands for fn; false when a CPU with features f (or this
 * C library) cannot run one of its variants. */
bool cpu_row_bands(const struct cpu_row *r, const struct cpu_features *f, enum base_function fn,
                   struct band_list *out);

/* The bands of the row serving f for fn, and the row's reason; false
 * without a row, or with one f cannot run. */
bool cpu_row_choice(const struct cpu_features *f, enum base_function fn, struct band_list *out, const char **why);

#endif
