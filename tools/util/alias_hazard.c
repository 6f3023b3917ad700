/* Naming the 4 KiB-aliasing hazard of rep movsb (tools/util/alias_hazard.h). */
#include "tools/util/alias_hazard.h"

#include "dispatch/settings.h"
#include "dispatch/variants.h"
#include "tools/util/hazards.h"
#include "tools/util/units_shares.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The entry after p in a "NAME:NS,NAME:NS" list, or NULL after the last. */
static const char *next_entry(const char *p)
{
	const char *comma = strchr(p, ',');
	return comma ? comma + 1 : NULL;
}

double alias_extra_ns(const char *list, const char *variant)
{
	const char *entry = row_list_entry(list, variant);
	return entry ? strtod(entry, NULL) : -1;
}

/* Whether one of the bands (NULL: none) runs the variant of that name. */
static bool in_bands(const struct band_list *bands, const char *name, size_t len)
{
	for (unsigned i = 0; bands && i < bands->count; i++)
		if (strlen(bands->variant[i]->name) == len && strncmp(bands->variant[i]->name, name, len) == 0)
			return true;
	return false;
}

/* The variant of the list with the least extra, and that extra; within
 * 0.002 ns a byte of each other (a tie), one that `bands` runs. */
static double best_in(const char *list, const struct band_list *bands, char *name, size_t size)
{
	double best = -1;
	bool best_in_bands = false;
	for (const char *p = list; p && *p; p = next_entry(p)) {
		const char *colon = strchr(p, ':');
		double ns = colon ? strtod(colon + 1, NULL) : -1;
		bool used = colon && in_bands(bands, p, (size_t)(colon - p));
		bool tie = best >= 0 && ns >= best - 0.002 && ns <= best + 0.002;
		if (colon && ns >= 0 && (best < 0 || (tie ? used && !best_in_bands : ns < best))) {
			best = ns;
			best_in_bands = used;
			snprintf(name, size, "%.*s", (int)(colon - p), p);
		}
	}
	return best;
}

/* A copy from 2 KiB away from the hazard takes about this many ns a byte:
 * the rows' own bench files time 4 KiB at 4k+2048 in 40-55 ns with glibc and
 * avx2 on Zen 3 and Zen 4 (data/cpu-rows/measurements/).  A row's list
 * holds only the extras, so this is the time they add to when the rule
 * "more than 1.5x the best variant's time" is applied to a list. */
#define ALIAS_BASE_NS_PER_BYTE 0.0125

/* Whether an extra of ns a byte makes a copy more than the hazard rule's
 * HAZARD_LOSS_RATIO as slow as best does. */
static bool slower_than(double ns, double best)
{
	return ALIAS_BASE_NS_PER_BYTE + ns > HAZARD_LOSS_RATIO * (ALIAS_BASE_NS_PER_BYTE + best);
}

bool alias_hazard_measured(const char *list)
{
	char best_name[32];
	double glibc = alias_extra_ns(list, "glibc"), best = best_in(list, NULL, best_name, sizeof best_name);
	return glibc >= 0 && best >= 0 && slower_than(glibc, best);
}

/* Whether every band of `bands` that serves sizes from 2 KiB runs a variant
 * the list names and not slower_than the best; their names into out. */
static bool bands_avoid(const char *list, const struct band_list *bands, char *out, size_t size)
{
	char best_name[32];
	double best = best_in(list, NULL, best_name, sizeof best_name);
	bool avoids = true;
	out[0] = '\0';
	for (unsigned i = 0; i < bands->count; i++) {
		if (bands->upper[i] < HIST_ALIAS_LARGE)
			continue;
		const char *name = bands->variant[i]->name;
		double ns = alias_extra_ns(list, name);
		avoids = avoids && ns >= 0 && !slower_than(ns, best);
		snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? ", " : "", name);
	}
	return avoids;
}

/* ---- the row: MEMSHIM_CPU_ROW's file, else the shipped one ---- */

/* The alias4k lines of the row file at path into row; false if unreadable. */
static bool read_row_file(const char *path, struct cpu_row *row, char lists[FN_COUNT][1024])
{
	FILE *f = fopen(path, "r");
	char line[1024], name[16];
	int used;
	if (!f)
		return false;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "alias4k %15s %n", name, &used) != 1)
			continue;
		for (int fn = 0; fn < FN_COUNT; fn++)
			if (strcmp(name, base_function_names[fn]) == 0) {
				snprintf(lists[fn], sizeof lists[fn], "%.*s", (int)strcspn(line + used, "\n"), line + used);
				row->alias4k[fn] = lists[fn];
			}
	}
	fclose(f);
	row->file = path;
	return true;
}

const struct cpu_row *alias_hazard_row(void)
{
	static struct cpu_row from_file;
	static char lists[FN_COUNT][1024];
	static const struct cpu_row *row;
	static bool known;
	if (known)
		return row;
	known = true;
	const char *path = getenv("MEMSHIM_CPU_ROW");
	row = cpu_row_for(cpu_features());
	if (path && !read_row_file(path, &from_file, lists))
		fprintf(stderr, "memshim: MEMSHIM_CPU_ROW=%s: %s; using the shipped row for this CPU\n", path,
			strerror(errno));
	else if (path)
		row = &from_file;
	return row;
}

/* ---- what the hazard costs, and what avoids it ---- */

/* The worst extra among the variants of setting serving sizes from 2 KiB
 * (one the list does not name counted as glibc); -1 if it is no setting. */
static double setting_extra(const char *list, const char *setting)
{
	struct band_list bands;
	double glibc = alias_extra_ns(list, "glibc"), worst = -1;
	if (band_list_parse(setting, &bands))
		return -1;
	for (unsigned i = 0; i < bands.count; i++) {
		double ns = alias_extra_ns(list, bands.variant[i]->name);
		if (bands.upper[i] >= HIST_ALIAS_LARGE)
			worst = fmax(worst, ns < 0 ? glibc : ns);
	}
	return worst;
}

double alias_hazard_ns(const struct function_histogram *f, const char *list, const char *setting)
{
	if (!list || !f->alias_near_large_bytes || !alias_hazard_measured(list))
		return 0;
	return fmax(setting_extra(list, setting), 0) * (double)f->alias_near_large_bytes;
}

/* The variant of the list with the least extra that this CPU runs. */
static const char *best_usable(const char *list, char *name, size_t size)
{
	double best = -1;
	for (const char *p = list; p && *p; p = next_entry(p)) {
		char here[32];
		const char *colon = strchr(p, ':');
		const struct variant *v;
		if (!colon || (size_t)(colon - p) >= sizeof here)
			continue;
		snprintf(here, sizeof here, "%.*s", (int)(colon - p), p);
		double ns = strtod(colon + 1, NULL);
		if ((v = variant_named(here)) && variant_usable(v) && ns >= 0 && (best < 0 || ns < best)) {
			best = ns;
			snprintf(name, size, "%s", here);
		}
	}
	return best >= 0 ? name : NULL;
}

const char *alias_hazard_remedy(enum base_function fn, const char *list, const struct band_list *bands, char *out,
				size_t size)
{
	char names[128], best[32];
	if (bands && bands_avoid(list, bands, names, sizeof names))
		snprintf(out, size, "the default avoids it here (%s from 2 KiB)", names);
	else if (best_usable(list, best, sizeof best))
		snprintf(out, size, "%s=%s avoids it", setting_keys(function_setting(fn))->variable, best);
	else
		snprintf(out, size, "no variant this CPU runs avoids it");
	return out;
}

static void print_cost(FILE *out, const char *indent, const struct function_histogram *f, const char *list,
		       const struct cpu_row *row, const struct band_list *bands)
{
	char best_name[32], duration[32], variants[128];
	double glibc = alias_extra_ns(list, "glibc"), best = best_in(list, bands, best_name, sizeof best_name);
	fprintf(out, "%s  rep movsb is slow for those on this CPU (row %s): under glibc they take about %s more "
		     "(%.3f ns a byte); %s avoids it (%.3f ns a byte)\n",
		indent, row->file, human_duration(glibc * (double)f->alias_near_large_bytes, duration, sizeof duration),
		glibc, best_name, best);
	if (!bands)
		return;
	bool avoids = bands_avoid(list, bands, variants, sizeof variants);
	fprintf(out, "%s  the default here (%s from 2 KiB) %s\n", indent, variants, avoids ? "avoids it" : "does not avoid it");
}

bool alias_hazard_print(FILE *out, const char *indent, const struct function_histogram *f, enum base_function fn,
			const struct cpu_row *row, const struct band_list *bands)
{
	if (!f->alias_near_large_calls)
		return false;
	char size[32];
	fprintf(out, "%s(dst - src) mod 4096 in 1..63 from 2 KiB: %" PRIu64 " calls, %s (where rep movsb can be slow)\n", indent,
		f->alias_near_large_calls, human_size(f->alias_near_large_bytes, size, sizeof size));
	const char *list = row ? row->alias4k[fn] : NULL;
	bool measured = list && alias_hazard_measured(list);
	if (measured)
		print_cost(out, indent, f, list, row, bands);
	else if (!list)
		fprintf(out, "%s  whether rep movsb is slow for those on this CPU: %s\n", indent, ALIAS_HAZARD_MEASURE);
	return measured;
}
