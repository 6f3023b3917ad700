/* Call-size distributions: sizes drawn the way real programs call, so that
 * a branch predictor cannot learn one size (memshim bench's dist case). */
#ifndef MEMSHIM_SIZE_DIST_H
#define MEMSHIM_SIZE_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct size_prob {
	size_t size;
	double probability; /* any non-negative weight; the table is normalised */
};

struct size_dist {
	char name[64];
	size_t count;
	size_t *sizes;   /* ascending */
	double *cumulative; /* cumulative[i]: probability of sizes[0..i] */
	double mean;
	size_t max;
	double overlap;  /* probability that memmove's buffers overlap */
	int function;    /* the one base function it is for (a dump's); -1: any */
	/* Pointer alignments (1, 2, 4 ... 64) and their cumulative probabilities; none: any. */
	unsigned align_count;
	unsigned align[8];
	double align_cumulative[8];
};

/* Builds a distribution from a table of sizes and weights: the entry point
 * for any source of sizes (CSV files and histogram dumps: tools/bench/bench.h).
 * NULL and a message in `error` if the table is empty or has no positive
 * weight. */
struct size_dist *size_dist_from_table(const char *name, const struct size_prob *table, size_t count,
				       char *error, size_t error_size);

void size_dist_free(struct size_dist *d);

/* One size, from 64 random bits. */
size_t size_dist_draw(const struct size_dist *d, uint64_t random);

/* One alignment (a power of two up to 64), from 64 random bits; 1 if the distribution has none. */
unsigned size_dist_draw_align(const struct size_dist *d, uint64_t random);

/* Whether a memmove call's buffers overlap, from 64 random bits. */
bool size_dist_draw_overlap(const struct size_dist *d, uint64_t random);

#endif
