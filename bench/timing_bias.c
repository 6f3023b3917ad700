/* Copies of one size after another, in batches timed with CLOCK_MONOTONIC,
 * for bench/timing-bias.sh: what a call takes in a stream of back-to-back
 * calls, to set against what the same calls take timed one by one
 * (MEMSHIM_TIMING).  Each size is alone in its bucket of the histogram, so
 * the dump's timed record for that bucket is that size's.
 * usage: timing_bias SECONDS [memcpy|memset]
 * Prints "SIZE NS_PER_CALL": the mean over the batches no preemption fell
 * into (those at most 1.5 times the fastest fifth's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH_NS 200000.0
#define MAX_BATCHES 20000
#define PREEMPTED 1.5

static const size_t sizes[] = { 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
	                            32768, 65536, 131072, 262144, 1048576 };
#define SIZES (sizeof sizes / sizeof sizes[0])

static void *(*volatile copy)(void *, const void *, size_t) = memcpy;
static void *(*volatile set)(void *, int, size_t) = memset;
static char *src, *dst;
static int setting;

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

static double batch(size_t n, unsigned calls)
{
	double start = now_ns();
	for (unsigned i = 0; i < calls; i++)
		if (setting)
			set(dst + 1024, 0x5a, n);
		else
			copy(dst + 1024, src, n);
	return (now_ns() - start) / calls;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1;
	setting = argc > 2 && strcmp(argv[2], "memset") == 0;
	static unsigned calls[SIZES], batches;
	static double ns[SIZES][MAX_BATCHES];
	src = aligned_alloc(4096, 1 << 20);
	dst = aligned_alloc(4096, (1 << 20) + 4096);
	if (!src || !dst)
		return 1;
	memset(src, 1, 1 << 20);
	memset(dst, 2, (1 << 20) + 4096);
	for (unsigned k = 0; k < SIZES; k++) {
		batch(sizes[k], 16);
		double guess = batch(sizes[k], 16);
		calls[k] = guess > 0 && BATCH_NS / guess > 1 ? (unsigned)(BATCH_NS / guess) : 1;
	}
	for (double end = now_ns() + 1e9 * seconds; now_ns() < end && batches < MAX_BATCHES; batches++)
		for (unsigned k = 0; k < SIZES; k++)
			ns[k][batches] = batch(sizes[k], calls[k]);
	for (unsigned k = 0; k < SIZES; k++) {
		qsort(ns[k], batches, sizeof ns[k][0], by_value);
		double fast = ns[k][batches / 5], sum = 0;
		unsigned kept = 0;
		for (; kept < batches && ns[k][kept] <= PREEMPTED * fast; kept++)
			sum += ns[k][kept];
		printf("%zu %.3f\n", sizes[k], sum / kept);
	}
	return 0;
}
