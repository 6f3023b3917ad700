/* Call-size distributions: made from a table of sizes and weights, and
 * drawn from. */
#include "tools/measure/size_dist.h"
#include "tools/util/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_size(const void *a, const void *b)
{
	const struct size_prob *x = a, *y = b;
	return (x->size > y->size) - (x->size < y->size);
}

struct size_dist *size_dist_from_table(const char *name, const struct size_prob *table, size_t count,
				       char *error, size_t error_size)
{
	struct size_prob *sorted = malloc((count ? count : 1) * sizeof *sorted);
	struct size_dist *d = calloc(1, sizeof *d);
	if (!sorted || !d) {
		free(sorted);
		free(d);
		snprintf(error, error_size, "out of memory");
		return NULL;
	}
	/* Sorted, so that the largest size and a reader's view are in order. */
	memcpy(sorted, table, count * sizeof *sorted);
	sort_items(sorted, count, sizeof *sorted, by_size);
	double total = 0;
	for (size_t i = 0; i < count; i++)
		if (sorted[i].probability > 0)
			total += sorted[i].probability;
	d->sizes = malloc((count ? count : 1) * sizeof *d->sizes);
	d->cumulative = malloc((count ? count : 1) * sizeof *d->cumulative);
	if (total <= 0 || !d->sizes || !d->cumulative) {
		snprintf(error, error_size, total <= 0 ? "has no size with a positive probability" : "out of memory");
		free(sorted);
		size_dist_free(d);
		return NULL;
	}
	snprintf(d->name, sizeof d->name, "%s", name);
	d->function = -1;
	double running = 0;
	for (size_t i = 0; i < count; i++) {
		if (sorted[i].probability <= 0)
			continue; /* never drawn: keep the table to what occurs */
		running += sorted[i].probability / total;
		d->sizes[d->count] = sorted[i].size;
		d->cumulative[d->count++] = running;
		d->mean += (double)sorted[i].size * sorted[i].probability / total;
		d->max = sorted[i].size;
	}
	d->cumulative[d->count - 1] = 1.0; /* rounding must not leave the last size unreachable */
	free(sorted);
	return d;
}

void size_dist_free(struct size_dist *d)
{
	if (!d)
		return;
	free(d->sizes);
	free(d->cumulative);
	free(d);
}

static double unit_interval(uint64_t random) { return (double)(random >> 11) * 0x1p-53; }

size_t size_dist_draw(const struct size_dist *d, uint64_t random)
{
	double u = unit_interval(random);
	size_t lo = 0, hi = d->count - 1;
	while (lo < hi) { /* the first size whose cumulative probability exceeds u */
		size_t mid = lo + (hi - lo) / 2;
		if (d->cumulative[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return d->sizes[lo];
}

unsigned size_dist_draw_align(const struct size_dist *d, uint64_t random)
{
	double u = unit_interval(random);
	for (unsigned i = 0; i < d->align_count; i++)
		if (d->align_cumulative[i] > u)
			return d->align[i];
	return 1;
}

bool size_dist_draw_overlap(const struct size_dist *d, uint64_t random)
{
	return unit_interval(random) < d->overlap;
}
