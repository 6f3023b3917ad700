/* memshim cpu-row's parts: the alias4k cases of a bench file (tools/cpu_row/alias.c). */
#ifndef MEMSHIM_TOOLS_CPU_ROW_H
#define MEMSHIM_TOOLS_CPU_ROW_H
#include <stddef.h>
#include <stdio.h>

/* The alias4k cases: what (dst - src) mod 4096 = 16 adds, from 2 KiB */

#define ALIAS_MAX 64

/* One variant's alias4k medians at one size: in the window (4k+16) and the
 * unaffected reference (4k+2048). */
struct alias_case {
	int fn;
	char variant[24];
	size_t size;
	double near_ns, reference_ns;
};

struct alias_cases {
	unsigned count;
	struct alias_case c[ALIAS_MAX];
};

/* A bench CSV line's alias4k median (where: its alignment column) into a. */
void take_alias(struct alias_cases *a, int fn, const char *variant, size_t size, const char *where,
		double median);
/* "alias4k FN VARIANT:NS,...", each variant once, in the file's order. */
void write_alias(FILE *f, const struct alias_cases *a, int fn);
#endif
