/* memshim cpu-row's parts: the alias4k cases of a bench file (tools/cpu_row/alias.c),
 * and its cases of the hazard catalogue (tools/cpu_row/hazard.c). */
#ifndef MEMSHIM_TOOLS_CPU_ROW_H
#define MEMSHIM_TOOLS_CPU_ROW_H
#include <stddef.h>
#include <stdio.h>

/* The alias4k cases: what (dst - src) mod 4096 in 1..63 adds, from 2 KiB */

#define ALIAS_MAX 1024

/* One variant's alias4k median at one size and one distance: a near one
 * (4k+1 .. 4k+63), or the unaffected reference (4k+2048). */
struct alias_case {
	int fn;
	char variant[24];
	size_t size;
	int distance;
	double ns;
};

struct alias_cases {
	unsigned count;
	struct alias_case c[ALIAS_MAX];
};

/* A bench CSV line's alias4k median (where: its alignment column, "4k+16") into a. */
void take_alias(struct alias_cases *a, int fn, const char *variant, size_t size, const char *where,
		double median);
/* "alias4k FN VARIANT:NS,...", each variant once, in the file's order. */
void write_alias(FILE *f, const struct alias_cases *a, int fn);

/* The hazard cases: each candidate variant's ratio to glibc in each case
 * of the catalogue (tools/util/hazards.h) of each bench file; an alias4k
 * case of 2 KiB or more at a near distance counts as the catalogue's alias4k. */
#define HAZARD_LINES_MAX 8192

struct hazard_line {
	int fn;
	unsigned file;
	char key[48]; /* "alias4k:8192:4k+1" */
	char variant[24];
	double ratio;
};

struct hazard_lines {
	unsigned count;
	struct hazard_line l[HAZARD_LINES_MAX];
};

struct calibration;

/* A bench CSV line of the file numbered `file` into h, if it is a hazard
 * case (kind "hazard", or "alias4k" at a near distance) of a candidate variant. */
void take_hazard(struct hazard_lines *h, unsigned file, int fn, const char *kind, const char *variant,
		 const char *size, const char *where, double ratio);
/* Each ratios row of c: its worst case against the best candidate there,
 * over the files the median (band_ratios.hazard and hazard_case). */
void apply_hazards(const struct hazard_lines *h, struct calibration *c);
/* "hazards FN VARIANT:X:HAZARD:SIZE:WHERE,..." for fn's rows that have one. */
void write_hazards(FILE *f, const struct calibration *c, int fn);
#endif
