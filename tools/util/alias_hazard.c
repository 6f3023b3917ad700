/* Naming the 4 KiB-aliasing hazard of rep movsb (tools/util/alias_hazard.h). */
#include "tools/util/alias_hazard.h"

#include "dispatch/variants.h"
#include "tools/util/units_shares.h"

#include <inttypes.h>
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
	size_t len = strlen(variant);
	for (const char *p = list; p && *p; p = next_entry(p))
		if (strncmp(p, variant, len) == 0 && p[len] == ':')
			return strtod(p + len + 1, NULL);
	return -1;
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

bool alias_hazard_measured(const char *list)
{
	char best_name[32];
	double glibc = alias_extra_ns(list, "glibc"), best = best_in(list, NULL, best_name, sizeof best_name);
	return glibc >= 0.05 && best >= 0 && glibc >= 4 * best;
}

/* Whether every band of `bands` that serves sizes from 2 KiB runs a variant
 * whose extra in the list is under a quarter of glibc's; its names into out. */
static bool bands_avoid(const char *list, const struct band_list *bands, char *out, size_t size)
{
	double glibc = alias_extra_ns(list, "glibc");
	bool avoids = true;
	out[0] = '\0';
	for (unsigned i = 0; i < bands->count; i++) {
		if (bands->upper[i] < HIST_ALIAS_LARGE)
			continue;
		const char *name = bands->variant[i]->name;
		double ns = alias_extra_ns(list, name);
		avoids = avoids && ns >= 0 && ns * 4 <= glibc;
		snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? ", " : "", name);
	}
	return avoids;
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
		fprintf(out, "%s  whether rep movsb is slow for those on this CPU: memshim bench --cases alias4k "
			     "(4k+16 against 4k+2048)\n",
			indent);
	return measured;
}
