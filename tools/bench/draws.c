/* memshim bench --draws N: what the dist case draws from a distribution,
 * shown instead of timed: N sizes, destination alignments and memmove
 * overlaps drawn with the generator and the draw functions the timed calls
 * use, each counted beside the probability the distribution gives it.  So
 * a distribution can be checked against where it came from (a recording,
 * through report --fleetbench-csv) without a benchmark's noise. */
#include "config.h"

#include "tools/bench/bench.h"
#include "tools/measure/size_dist.h"

#include <inttypes.h>
#include <stdlib.h>

/* The seed of every --draws run: the same draws each time. */
#define DRAWS_SEED 0x6d656d7368696dull

/* Where size falls in d->sizes (ascending). */
static size_t size_index(const struct size_dist *d, size_t size)
{
	size_t lo = 0, hi = d->count - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->sizes[mid] < size)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static double step(const double *cumulative, size_t i) { return cumulative[i] - (i ? cumulative[i - 1] : 0); }

int size_dist_print_draws(FILE *out, const struct size_dist *d, uint64_t n)
{
	uint64_t *sizes = calloc(d->count, sizeof *sizes), aligns[8] = { 0 }, overlaps = 0;
	if (!sizes) {
		fprintf(stderr, "memshim bench: --draws: out of memory\n");
		return 1;
	}
	uint64_t rng = DRAWS_SEED;
	for (uint64_t k = 0; k < n; k++) {
		sizes[size_index(d, size_dist_draw(d, measure_random(&rng)))]++;
		unsigned align = size_dist_draw_align(d, measure_random(&rng));
		for (unsigned a = 0; a < d->align_count; a++)
			aligns[a] += d->align[a] == align;
		overlaps += d->overlap > 0 && size_dist_draw_overlap(d, measure_random(&rng));
	}
	fprintf(out, "# %s: %" PRIu64 " draws\nwhat     value         drawn  probability\n", d->name, n);
	for (size_t i = 0; i < d->count; i++)
		fprintf(out, "size     %-10zu %8" PRIu64 "  %.9g\n", d->sizes[i], sizes[i], step(d->cumulative, i));
	for (unsigned a = 0; a < d->align_count; a++)
		fprintf(out, "align    %-10u %8" PRIu64 "  %.9g\n", d->align[a], aligns[a], step(d->align_cumulative, a));
	fprintf(out, "overlap  %-10d %8" PRIu64 "  %.9g\n", 1, overlaps, d->overlap);
	free(sizes);
	return 0;
}
