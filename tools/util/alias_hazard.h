/* The 4 KiB-aliasing hazard of rep movsb: on some CPUs (AMD Zen 3 among
 * them) a rep movsb whose destination starts 1 to 63 bytes past the source
 * in the page runs at a few GB/s, and glibc copies with rep movsb from
 * about 2 KiB.  A recording counts such copies (alias4k_near); a CPU row
 * says what they cost each variant on its class (cpu_rows.h, alias4k).
 * report and tune name the hazard where both show it. */
#ifndef MEMSHIM_ALIAS_HAZARD_H
#define MEMSHIM_ALIAS_HAZARD_H

#include "dispatch/bands.h"
#include "dispatch/cpu_rows.h"
#include "dump/counts.h"

#include <stdio.h>

/* A variant's ns a byte in a row's alias4k list ("glibc:0.336,avx2:0.006"),
 * or -1 when the list does not name it. */
double alias_extra_ns(const char *list, const char *variant);

/* Whether the row's list shows rep movsb slow there: glibc's extra makes a
 * copy from 2 KiB more than 1.5 times as slow as the best variant's does. */
bool alias_hazard_measured(const char *list);

/* The row report and tune weigh the hazard with: the file MEMSHIM_CPU_ROW
 * names (its alias4k lines: a row measured on another machine, or a test's),
 * else the shipped row serving this CPU; NULL: neither. */
const struct cpu_row *alias_hazard_row(void);

/* What fn's copies from 2 KiB at a near distance cost on top under `setting` (a
 * variant, or bands in their text form), in ns: the extra of the worst
 * variant serving them times their bytes; a variant the list does not name
 * counted as glibc.  0 where the list does not show the hazard. */
double alias_hazard_ns(const struct function_histogram *f, const char *list, const char *setting);

/* What avoids the hazard for fn, into out: "the default avoids it here"
 * when every band of `bands` from 2 KiB does, else the setting of the best
 * variant usable here ("MEMSHIM_MEMCPY=avx2 avoids it"). */
const char *alias_hazard_remedy(enum base_function fn, const char *list, const struct band_list *bands, char *out,
				size_t size);

/* The command that measures the hazard on this CPU, for where no row has. */
/* Above this share (of a function's recorded time, or of its bytes) the
 * hazard is named first: report's top lines, tune's check. */
#define ALIAS_HAZARD_NOTICEABLE 0.01

#define ALIAS_HAZARD_MEASURE "memshim bench --cases hazard"

/* Lines, each starting with indent, about fn's copies from 2 KiB at a
 * near distance: their share of f, and when row (the CPU's, or NULL) measured the
 * hazard, what they cost under glibc, which variant avoids it, and whether
 * `bands` (the default the program ran or would run with) does.  Nothing
 * when f has no such copies.  True when the row measured the hazard. */
bool alias_hazard_print(FILE *out, const char *indent, const struct function_histogram *f, enum base_function fn,
			const struct cpu_row *row, const struct band_list *bands);

#endif
