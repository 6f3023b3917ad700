/* memshim cpu-row: what (dst - src) mod 4096 = 16 adds, from 2 KiB, read from
 * bench's alias4k cases and written as the row's alias4k lines. */
#include "tools/cpu_row/cpu_row.h"

#include "dispatch/variants.h"
#include "preload/histogram.h"

#include <stdbool.h>
#include <string.h>

void take_alias(struct alias_cases *a, int fn, const char *variant, size_t size, const char *where,
		       double median)
{
	bool near = strcmp(where, "4k+16") == 0, reference = strcmp(where, "4k+2048") == 0;
	if (size < HIST_ALIAS_LARGE || fn == FN_MEMSET || (!near && !reference))
		return;
	struct alias_case *c = NULL;
	for (unsigned i = 0; i < a->count && !c; i++)
		if (a->c[i].fn == fn && a->c[i].size == size && strcmp(a->c[i].variant, variant) == 0)
			c = &a->c[i];
	if (!c && a->count < ALIAS_MAX) {
		c = &a->c[a->count++];
		*c = (struct alias_case){ .fn = fn, .size = size };
		snprintf(c->variant, sizeof c->variant, "%s", variant);
	}
	if (c)
		*(near ? &c->near_ns : &c->reference_ns) = median;
}

/* The least extra ns a byte over the sizes measured for fn and variant (the
 * figure most favourable to it), or -1 when no size has both cases. */
static double alias_extra(const struct alias_cases *a, int fn, const char *variant)
{
	double least = -1;
	for (unsigned i = 0; i < a->count; i++) {
		const struct alias_case *c = &a->c[i];
		if (c->fn != fn || strcmp(c->variant, variant) != 0 || !(c->near_ns > 0 && c->reference_ns > 0))
			continue;
		double extra = (c->near_ns - c->reference_ns) / (double)c->size;
		extra = extra > 0 ? extra : 0;
		least = least < 0 || extra < least ? extra : least;
	}
	return least;
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
