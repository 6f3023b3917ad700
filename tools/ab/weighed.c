/* The headline of memshim ab --in-process: size classes weighed by A's time.
 *
 * The weights are A's ns in each class over every pair, not over a
 * resample: every call of the run was timed, so they are what the run
 * spent, not an estimate; what the pairs sample is how B compares, so the
 * resamples redraw the classes' ratios and keep the weights. */
#include "tools/ab/weighed.h"

#include "tools/measure/measure.h"
#include "tools/util/paired_stats.h"
#include "tools/util/quantile.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELLS (FN_COUNT * AB_PAIR_CLASSES) /* a function and size class each */

/* A pair that called a cell in both arms: which of the holding pairs it
 * is (0..holders), and B's ns per call in that cell against A's. */
struct held {
	unsigned pair;
	double ratio;
};

/* Each cell's holding pairs, sorted by ratio (held[start[c]..start[c + 1])),
 * and its weight, A's ns over every pair. */
struct cells {
	size_t start[CELLS + 1];
	double weight[CELLS];
	struct held *held;
	unsigned holders; /* pairs that hold one cell or more */
};

static bool wanted(unsigned fns, unsigned cell) { return fns >> (cell / AB_PAIR_CLASSES) & 1; }

double ab_pair_ratio(const struct ab_pair *p, int fn, unsigned k)
{
	double ca = (double)p->calls[0][fn][k], cb = (double)p->calls[1][fn][k], a = (double)p->ns[0][fn][k];
	return ca && cb && a ? (double)p->ns[1][fn][k] / cb / (a / ca) : -1;
}

/* Whether p called the cell in both arms; its ratio then. */
static bool holds(const struct ab_pair *p, unsigned cell, double *ratio)
{
	*ratio = ab_pair_ratio(p, (int)(cell / AB_PAIR_CLASSES), cell % AB_PAIR_CLASSES);
	return *ratio >= 0;
}

static int by_ratio(const void *x, const void *y)
{
	double a = ((const struct held *)x)->ratio, b = ((const struct held *)y)->ratio;
	return (a > b) - (a < b);
}

/* The weights, and where each cell's holders will go; false: no memory. */
static bool count_cells(struct cells *c, const struct ab_pair *pairs, size_t count, unsigned fns)
{
	size_t held[CELLS] = { 0 };
	double ratio;
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < count; i++)
		for (unsigned cell = 0; cell < CELLS; cell++)
			if (wanted(fns, cell)) {
				c->weight[cell] += (double)pairs[i].ns[0][cell / AB_PAIR_CLASSES][cell % AB_PAIR_CLASSES];
				held[cell] += holds(&pairs[i], cell, &ratio);
			}
	for (unsigned cell = 0; cell < CELLS; cell++)
		c->start[cell + 1] = c->start[cell] + held[cell];
	c->held = malloc((c->start[CELLS] ? c->start[CELLS] : 1) * sizeof *c->held);
	return c->held != NULL;
}

/* Each cell's holders, numbered in the order of the pairs, and sorted. */
static void fill_cells(struct cells *c, const struct ab_pair *pairs, size_t count, unsigned fns)
{
	size_t next[CELLS];
	memcpy(next, c->start, sizeof next);
	for (size_t i = 0; i < count; i++) {
		bool any = false;
		for (unsigned cell = 0; cell < CELLS; cell++) {
			double ratio;
			if (!wanted(fns, cell) || !holds(&pairs[i], cell, &ratio))
				continue;
			c->held[next[cell]++] = (struct held){ c->holders, ratio };
			any = true;
		}
		c->holders += any;
	}
	for (unsigned cell = 0; cell < CELLS; cell++)
		qsort(c->held + c->start[cell], c->start[cell + 1] - c->start[cell], sizeof *c->held, by_ratio);
}

/* The median of sorted h[0..n), each drawn times[h[i].pair] times (once
 * each where times is NULL), as tools/util/quantile.h interpolates it;
 * -1 if none is drawn (a ratio of 0 is one). */
static double drawn_median(const struct held *h, size_t n, const unsigned *times)
{
	uint64_t total = 0, seen = 0;
	for (size_t i = 0; i < n; i++)
		total += times ? times[h[i].pair] : 1;
	if (!total)
		return -1;
	uint64_t low_rank = (total - 1) / 2, high_rank = total / 2;
	double low = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t before = seen;
		seen += times ? times[h[i].pair] : 1;
		if (before <= low_rank && low_rank < seen)
			low = h[i].ratio;
		if (high_rank < seen)
			return (low + h[i].ratio) / 2;
	}
	return -1; /* not reached: high_rank < total */
}

/* sum w_c r_c / sum w_c over the cells that have holders drawn; 0 if none. */
static double weighed_ratio(const struct cells *c, const unsigned *times)
{
	double sum = 0, weights = 0;
	for (unsigned cell = 0; cell < CELLS; cell++) {
		double r = drawn_median(c->held + c->start[cell], c->start[cell + 1] - c->start[cell], times);
		if (r >= 0) {
			sum += c->weight[cell] * r;
			weights += c->weight[cell];
		}
	}
	return weights > 0 ? sum / weights : 0;
}

/* The 95% interval of the weighed ratio over resamples of the holders. */
static void resample(const struct cells *c, unsigned resamples, uint64_t seed, struct ab_weighed *w)
{
	unsigned *times = malloc(c->holders * sizeof *times);
	double *ratios = malloc((resamples ? resamples : 1) * sizeof *ratios);
	w->low = w->high = w->ratio;
	if (times && ratios && resamples) {
		for (unsigned r = 0; r < resamples; r++) {
			memset(times, 0, c->holders * sizeof *times);
			for (unsigned i = 0; i < c->holders; i++)
				times[measure_random(&seed) % c->holders]++;
			ratios[r] = weighed_ratio(c, times);
		}
		w->low = quantile(ratios, resamples, 0.025);
		w->high = quantile(ratios, resamples, 0.975);
	}
	free(times);
	free(ratios);
}

struct ab_weighed ab_weigh_classes(const struct ab_pair *pairs, size_t count, unsigned fns, unsigned resamples,
                                   uint64_t seed)
{
	struct ab_weighed w = { 0 };
	struct cells c;
	if (count_cells(&c, pairs, count, fns)) {
		fill_cells(&c, pairs, count, fns);
		for (unsigned cell = 0; cell < CELLS; cell++)
			w.classes += c.start[cell + 1] > c.start[cell];
		w.pairs = c.holders;
		w.ratio = weighed_ratio(&c, NULL);
		if (c.holders)
			resample(&c, resamples, seed, &w);
	}
	free(c.held);
	return w;
}

void ab_saving_text(double share, double ratio, double low, double high, const char *no_verdict, char *out,
                    size_t size)
{
	int n = snprintf(out, size, "the calls took %.1f%% of the runs' CPU time at A's time per call", 100 * share);
	size_t at = n > 0 && (size_t)n < size ? (size_t)n : size - 1;
	enum paired_verdict_kind kind = paired_verdict_of(low, high);
	if (no_verdict)
		snprintf(out + at, size - at, "; no saving from them: %s", no_verdict);
	else if (kind == PAIRED_FASTER)
		snprintf(out + at, size - at, "; B would save %.2f%% of it (%.2f%% to %.2f%%)", 100 * share * (1 - ratio),
			 100 * share * (1 - high), 100 * share * (1 - low));
	else if (kind == PAIRED_SLOWER)
		snprintf(out + at, size - at, "; B would add %.2f%% to it (%.2f%% to %.2f%%)", 100 * share * (ratio - 1),
			 100 * share * (low - 1), 100 * share * (high - 1));
	else
		snprintf(out + at, size - at, "; B would change it by %+.2f%% to %+.2f%%: %s", 100 * share * (low - 1),
			 100 * share * (high - 1), paired_verdict_words(kind));
}
