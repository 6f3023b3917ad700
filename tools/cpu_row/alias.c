/* memshim cpu-row: what (dst - src) mod 4096 in 1..63 adds, from 2 KiB, read
 * from bench's alias4k cases (and the hazard catalogue's) and written as the
 * row's alias4k lines. */
#include "tools/cpu_row/cpu_row.h"

#include "dispatch/variants.h"
#include "dump/counts.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void take_alias(struct alias_cases *a, int fn, const char *variant, size_t size, const char *where,
		double median)
{
	int d = -1;
	char end;
	if (sscanf(where, "4k+%d%c", &d, &end) != 1 || !(d == 2048 || (d >= 1 && d < HIST_ALIAS_WINDOW)))
		return;
	if (size < HIST_ALIAS_LARGE || fn == FN_MEMSET || a->count == ALIAS_MAX)
		return;
	struct alias_case *c = &a->c[a->count++];
	*c = (struct alias_case){ .fn = fn, .size = size, .distance = d, .ns = median };
	snprintf(c->variant, sizeof c->variant, "%s", variant);
}

/* The reference (4k+2048) median of fn and variant at size, or 0. */
static double reference_ns(const struct alias_cases *a, int fn, const char *variant, size_t size)
{
	for (unsigned i = 0; i < a->count; i++)
		if (a->c[i].fn == fn && a->c[i].size == size && a->c[i].distance == 2048 &&
		    strcmp(a->c[i].variant, variant) == 0)
			return a->c[i].ns;
	return 0;
}

/* The mean extra ns a byte over the sizes and near distances (1..63)
 * measured for fn and variant, or -1 when none has its reference.  The
 * mean, not the median: the cliff is steep across the near distances (on a Zen 4
 * 25x at 4k+1, 2.6x at 4k+16, none at 4k+63), and the copies a recording
 * counts there pay it whichever of them they fall at. */
static double alias_extra(const struct alias_cases *a, int fn, const char *variant)
{
	double sum = 0;
	unsigned n = 0;
	for (unsigned i = 0; i < a->count; i++) {
		const struct alias_case *c = &a->c[i];
		double reference = c->fn == fn && c->distance != 2048 && strcmp(c->variant, variant) == 0
					   ? reference_ns(a, fn, variant, c->size) : 0;
		if (reference > 0 && c->ns > 0) {
			sum += fmax(0, (c->ns - reference) / (double)c->size);
			n++;
		}
	}
	return n ? sum / n : -1;
}

/* "alias4k FN VARIANT:NS,...", each variant once, in the file's order. */
void write_alias(FILE *f, const struct alias_cases *a, int fn)
{
	bool any = false;
	for (unsigned i = 0; i < a->count; i++) {
		const struct alias_case *c = &a->c[i];
		bool first_of_variant = c->fn == fn;
		for (unsigned j = 0; j < i && first_of_variant; j++)
			first_of_variant = !(a->c[j].fn == fn && strcmp(a->c[j].variant, c->variant) == 0);
		double extra = first_of_variant ? alias_extra(a, fn, c->variant) : -1;
		if (extra < 0)
			continue;
		if (!any)
			fprintf(f, "alias4k %s ", base_function_names[fn]);
		fprintf(f, "%s%s:%.3f", any ? "," : "", c->variant, extra);
		any = true;
	}
	if (any)
		fputc('\n', f);
}
