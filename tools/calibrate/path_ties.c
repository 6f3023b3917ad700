/* The path rule of the band choice (tools/calibrate/path_ties.h). */
#include "config.h"

#include "tools/calibrate/path_ties.h"

#include "tools/measure/library.h"
#include "tools/measure/measure.h"
#include "tools/measure/path_trace.h"
#include "tools/calibrate/choose_bands.h"

#include <stdio.h>
#include <string.h>

/* Where `name` is in v[0..*count), added if it is a usable variant; -1 if not. */
static int variant_index(struct measure_variant *v, unsigned *count, const char *name)
{
	for (unsigned i = 0; i < *count; i++)
		if (strcmp(v[i].name, name) == 0)
			return (int)i;
	const struct variant *entry = variant_named(name);
	if (!entry || !variant_usable(entry) || *count >= MEASURE_MAX_VARIANTS)
		return -1;
	v[*count] = measure_variant_of(entry);
	return (int)(*count)++;
}

/* A path no longer than glibc's ties in a placement unless the timing
 * there is slower even by its lower bound beyond this: then the loss is
 * the code's, not the machine's noise (D25). */
#define PATH_TIE_LIMIT 1.25

/* A path no longer than glibc's ties, but not one that takes a branch
 * fewer: that one differs where a call's time does (the branches a size
 * mispredicts), and its timing says by how much.  The masked copies below
 * 16 bytes and the ladders' fall-through at 33-64 B where glibc's AVX-512
 * function takes two branches are such paths (D25). */
static bool path_ties_class(const struct path *ours, const struct path *glibc, size_t lo, size_t hi)
{
	return path_no_longer(ours, glibc, lo, hi) && !path_fewer_branches(ours, glibc, lo, hi);
}

bool path_ties(struct band_ratios *ratios, unsigned n, bool *tied, char *why, size_t why_size)
{
	struct measure_variant v[MEASURE_MAX_VARIANTS];
	unsigned count = 0;
	int at[CALIBRATE_MAX_RATIOS];
	variant_index(v, &count, "glibc");
	for (unsigned i = 0; i < n; i++) {
		tied[i] = false;
		at[i] = strcmp(ratios[i].variant, "glibc") == 0 ? -1 : variant_index(v, &count, ratios[i].variant);
	}
	struct path *paths = path_trace(v, count, (1u << FN_COUNT) - 1, why, why_size);
	if (!paths)
		return false;
	for (unsigned i = 0; i < n; i++)
		for (int k = 0; at[i] > 0 && k < CHOICE_CLASS_COUNT && choice_classes[k].hi <= PATH_MAX_SIZE; k++)
			if (path_ties_class(path_of(paths, (unsigned)at[i], ratios[i].fn), path_of(paths, 0, ratios[i].fn),
					    choice_classes[k].lo, choice_classes[k].hi)) {
				for (int p = 0; p < PLACE_COUNT; p++)
					if (ratios[i].low[k][p] <= PATH_TIE_LIMIT)
						ratios[i].ratio[k][p] = ratios[i].low[k][p] = ratios[i].high[k][p] = 1.0;
				tied[i] = true;
			}
	path_free(paths, count);
	return true;
}

bool path_tied_choice(const struct band_ratios *ratios, unsigned n, const bool *tied, enum base_function fn,
		      const char *choice)
{
	size_t len = strcspn(choice, ":,");
	for (unsigned i = 0; i < n; i++)
		if (tied[i] && ratios[i].fn == fn && strlen(ratios[i].variant) == len && strncmp(choice, ratios[i].variant, len) == 0)
			return true;
	return false;
}
