/* A calibration: this machine's measured cost curves and the choices made
 * from them, which memshim tune writes and reads and cpu-row measures.
 *
 * The calibration file (dispatch/calibration.h has its first eight lines,
 * the library's part) goes on with what memshim tune measured:
 *
 *   unit cycles                    the unit of every cost below
 *   clock CPU cycles (...)         how they were taken
 *   rounds 11                      costs per grid size
 *   ratios memcpy evex 0.61 ...    the band choice's measurements: the
 *                                  median ratio to glibc's time in each size
 *                                  class (0-16 B ... 4-16 MiB) and placement
 *                                  (l1, l2, cold), class by class
 *   curve memcpy avx2 44           function, measured curve, grid sizes;
 *   0 3.1 3.0 ...                  then one line per size: the mean size
 *   ...                            of the calls timed, each round's cost
 *   end
 *
 * The measured curves are each usable variant with its thresholds at
 * "never" (erms: its scalar part; the vector variants: the cached loop),
 * and NAME:nt for the vector variants with non-temporal stores from the
 * first size where they could pay (calibrate_nt_from: the L2's size, at
 * least 16 KiB; below, NAME:nt is NAME), and NAME:cold for the vector
 * variants, rep movsb (fsrm) and glibc, and NAME:nt:cold, with the sizes
 * from 1 KiB on timed on data flushed from the caches (below 1 KiB and from
 * the first cold grid size on, the same as NAME and NAME:nt).  The *_erms variants and every threshold
 * are composed from these (model.c).  From 512 B on (the sizes a threshold
 * can apply to) a cost includes reading the destination after the call:
 * non-temporal stores leave it in memory, not in the cache, and a program
 * that uses what it copied pays for that (tools/measure/measure.h, read_back).
 *
 * A version 1 file (no choice lines, no ratios) is read as well. */
#ifndef MEMSHIM_CALIBRATE_CURVES_H
#define MEMSHIM_CALIBRATE_CURVES_H

/* From this size on a threshold can apply (beyond 8 vectors of the widest),
 * and the curves' costs include reading the destination back. */
#define CALIBRATE_READ_BACK_FROM (8 * 64)

#include "dispatch/bands.h"
#include "dispatch/calibration.h"
#include "dispatch/config.h"
#include "dispatch/variants.h"
#include "tools/calibrate/cost_model.h"
#include "tools/measure/placement.h"
#include "dump/size_classes.h"

#include <stdbool.h>
#include <stddef.h>

/* The curves timed on flushed data, from which the rep thresholds are
 * picked as well as from the cached ones. */
#define CALIBRATE_COLD_SUFFIX ":cold"
#define CALIBRATE_COLD_FROM 1024

/* Non-temporal stores for a copy below this would evict almost nothing and
 * slow the caller that reads it (shim/thresholds.h); calibrate_nt_from()
 * (model.h) raises it to the L2's size. */
#define CALIBRATE_NT_FROM NT_THRESHOLD_LEAST

/* Every variant timed (at most all of the table), its :nt, :cold and :nt:cold forms, per function. */
#define CALIBRATE_MAX_CURVES (4 * VARIANT_COUNT * FN_COUNT)

/* The band choice (measure_classes.c) measures each function in the size
 * classes (dump/size_classes.h), each in these placements of its
 * data; bands are runs of classes, so a band bound is a class's upper bound. */
enum { CHOICE_CLASS_COUNT = MEMSHIM_SIZE_CLASS_COUNT };
_Static_assert(CHOICE_CLASS_COUNT <= MAX_BANDS, "a band per class must fit a band list");
/* Beside the classes, one more cell: the function's fleet distribution
 * (google/fleetbench's Memcpy_Fleet, ...), on which the default is judged. */
enum { CHOICE_FLEET = CHOICE_CLASS_COUNT, CHOICE_CELLS };
struct choice_class {
	size_t lo, hi;
	const char *name; /* "0-16 B", ... */
};
extern const struct choice_class choice_classes[CHOICE_CLASS_COUNT];

/* One candidate's measurements for one function. */
struct band_ratios {
	enum base_function fn;
	char variant[24];
	/* each cell in each placement (tools/measure/placement.h): the median of
	 * the pairs' ratios to glibc, 0 where not measured, and its ~95%
	 * interval (not in the file) */
	double ratio[CHOICE_CELLS][PLACE_COUNT];
	double low[CHOICE_CELLS][PLACE_COUNT], high[CHOICE_CELLS][PLACE_COUNT];
	/* its time in its worst case of the hazard catalogue (tools/util/hazards.h)
	 * as a multiple of the best variant's there, 0 where none was measured,
	 * and that case ("alias4k:8192:4k+1") */
	double hazard;
	char hazard_case[48];
};

/* Every candidate variant and the stub probe, per function. */
#define CALIBRATE_MAX_RATIOS (FN_COUNT * (VARIANT_COUNT + 1))

/* The ratios that are no variant's but glibc's function behind a copy
 * of memshim's exported stub (tools/calibrate/stub_probe.h): what a composition
 * of bands costs a call. */
#define STUB_PROBE_NAME "stub"

struct named_curve {
	enum base_function fn;
	char name[24];
	struct cm_curve curve;
};

struct calibration {
	char vendor[16];
	unsigned family, model;
	size_t movsb, stosb, nt; /* the library's part */
	size_t movsb_stop;            /* memshim cpu-row's: the stop its bench files ran under */
	char choice[FN_COUNT][BAND_TEXT_MAX]; /* the default's bands per function */
	char choice_why[FN_COUNT][CALIBRATION_WHY_MAX];
	unsigned ratio_count;
	struct band_ratios ratios[CALIBRATE_MAX_RATIOS];
	char unit[16], clock[256];
	unsigned rounds, count;
	/* The calibration's resolution: how far glibc against itself (A/A) read
	 * from 1 at worst on the fleet distributions (not in the file). */
	double aa_deviation;
	struct named_curve curves[CALIBRATE_MAX_CURVES];
};

#endif
