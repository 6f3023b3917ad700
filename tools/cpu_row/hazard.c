/* memshim cpu-row: the cases of the hazard catalogue in bench files, and
 * each variant's worst one against the best variant there (the rule's
 * first test, tools/calibrate/choose_bands.c), written as the row's
 * hazards lines. */
#include "tools/cpu_row/cpu_row.h"

#include "dispatch/variants.h"
#include "dump/counts.h"
#include "tools/calibrate/curves.h"
#include "tools/calibrate/measure_classes.h"
#include "tools/util/hazards.h"
#include "tools/util/quantile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether an alias4k column ("4k+16", "4k-16") is a near distance (1..63). */
static bool at_near_distance(const char *where)
{
	int d = 0;
	char sign = 0;
	if (sscanf(where, "4k%c%d", &sign, &d) != 2 || (sign != '+' && sign != '-'))
		return false;
	return d >= 1 && d < HIST_ALIAS_WINDOW;
}

/* The case's key, "HAZARD:SIZE:WHERE", into key; false if the line is not
 * a judged case of the catalogue. */
static bool case_key(const char *kind, const char *size, const char *where, char *key, size_t key_size)
{
	bool judged = false;
	if (strcmp(kind, "hazard") == 0 && hazard_of_column(where, &judged) && judged) {
		const char *colon = strchr(where, ':');
		snprintf(key, key_size, "%.*s:%s:%s", (int)(colon - where), where, size, colon + 1);
		return true;
	}
	if (strcmp(kind, "alias4k") == 0 && strtoull(size, NULL, 10) >= HIST_ALIAS_LARGE && at_near_distance(where)) {
		snprintf(key, key_size, "alias4k:%s:%s", size, where);
		return true;
	}
	return false;
}

void take_hazard(struct hazard_lines *h, unsigned file, int fn, const char *kind, const char *variant,
		 const char *size, const char *where, double ratio)
{
	char key[48];
	if (fn < 0 || !(ratio > 0) || !calibrate_is_candidate(variant) || h->count == HAZARD_LINES_MAX ||
	    !case_key(kind, size, where, key, sizeof key))
		return;
	struct hazard_line *l = &h->l[h->count++];
	*l = (struct hazard_line){ .fn = fn, .file = file, .ratio = ratio };
	snprintf(l->key, sizeof l->key, "%s", key);
	snprintf(l->variant, sizeof l->variant, "%s", variant);
}

/* The least ratio of any candidate in line l's case of its file. */
static double best_of_case(const struct hazard_lines *h, const struct hazard_line *l)
{
	double best = l->ratio;
	for (unsigned i = 0; i < h->count; i++) {
		const struct hazard_line *o = &h->l[i];
		if (o->fn == l->fn && o->file == l->file && strcmp(o->key, l->key) == 0 && o->ratio < best)
			best = o->ratio;
	}
	return best;
}

/* Row r's multiple of the best in case `key`, the median over the files. */
static double case_multiple(const struct hazard_lines *h, const double *multiple, const struct band_ratios *r,
			    const char *key)
{
	double x[64];
	unsigned n = 0;
	for (unsigned i = 0; i < h->count && n < 64; i++)
		if (h->l[i].fn == (int)r->fn && strcmp(h->l[i].variant, r->variant) == 0 && strcmp(h->l[i].key, key) == 0)
			x[n++] = multiple[i];
	return n ? quantile(x, n, 0.5) : 0;
}

void apply_hazards(const struct hazard_lines *h, struct calibration *c)
{
	double *multiple = malloc((h->count ? h->count : 1) * sizeof *multiple);
	if (!multiple)
		return;
	for (unsigned i = 0; i < h->count; i++)
		multiple[i] = h->l[i].ratio / best_of_case(h, &h->l[i]);
	for (unsigned r = 0; r < c->ratio_count; r++) {
		struct band_ratios *row = &c->ratios[r];
		for (unsigned i = 0; i < h->count; i++) {
			if (h->l[i].fn != (int)row->fn || strcmp(h->l[i].variant, row->variant) != 0)
				continue;
			double x = case_multiple(h, multiple, row, h->l[i].key);
			if (x > row->hazard) {
				row->hazard = x;
				snprintf(row->hazard_case, sizeof row->hazard_case, "%s", h->l[i].key);
			}
		}
	}
	free(multiple);
}

void write_hazards(FILE *f, const struct calibration *c, int fn)
{
	bool any = false;
	for (unsigned i = 0; i < c->ratio_count; i++) {
		const struct band_ratios *r = &c->ratios[i];
		if ((int)r->fn != fn || !(r->hazard > 0))
			continue;
		if (!any)
			fprintf(f, "hazards %s ", base_function_names[fn]);
		fprintf(f, "%s%s:%.2f:%s", any ? "," : "", r->variant, r->hazard, r->hazard_case);
		any = true;
	}
	if (any)
		fputc('\n', f);
}
