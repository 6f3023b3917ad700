/* Time per memcpy call through the PLT, as a preloaded program sees it, for
 * 8, 64, 512 and 4096-byte copies in cache, each size in a loop of its
 * own, and for mixed sizes (0 to 512 bytes, drawn at random beforehand):
 * a loop of one size bumps the same counters call after call, mixed sizes
 * spread the bumps over many.  Run by record-overhead.sh with and without
 * MEMSHIM_DUMP to show what recording adds per call.  Each loop is timed in
 * BATCHES batches, and the fastest is taken: on a shared machine a
 * preemption or a tick only ever adds time, and the difference asked for
 * is a fraction of a nanosecond.
 * Prints "SIZE NS_PER_CALL" lines, SIZE "mixed" for the mixed loop, then
 * "cpu_ns N": the process's CPU time over all the loops, where the
 * profiler's samples, spread over the run, show as a share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCHES 20

static double clock_ns(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static double now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 8, 64, 512, 4096 };
	long calls = argc > 1 ? atol(argv[1]) : 2000000, batch = calls / BATCHES;
	static char src[8192 + 64], dst[8192 + 64];
	double cpu_start = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		size_t n = sizes[i];
		double fastest = 0;
		/* the offsets vary a little so the destination is not always aligned */
		for (long warm = 0; warm < calls / 10; warm++)
			memcpy(dst + (warm & 7), src + (warm & 15), n);
		for (int b = 0; b < BATCHES; b++) {
			double start = now_ns();
			for (long c = 0; c < batch; c++)
				memcpy(dst + (c & 7), src + (c & 15), n);
			double elapsed = now_ns() - start;
			fastest = b == 0 || elapsed < fastest ? elapsed : fastest;
		}
		printf("%zu %.3f\n", n, fastest / (double)batch);
	}
	static unsigned short mixed[4096];
	unsigned seed = 12345;
	for (unsigned i = 0; i < 4096; i++)
		mixed[i] = (unsigned short)(rand_r(&seed) % 513);
	for (long warm = 0; warm < calls / 10; warm++)
		memcpy(dst + (warm & 7), src + (warm & 15), mixed[warm & 4095]);
	double fastest = 0;
	for (int b = 0; b < BATCHES; b++) {
		double start = now_ns();
		for (long c = 0; c < batch; c++)
			memcpy(dst + (c & 7), src + (c & 15), mixed[c & 4095]);
		double elapsed = now_ns() - start;
		fastest = b == 0 || elapsed < fastest ? elapsed : fastest;
	}
	printf("mixed %.3f\n", fastest / (double)batch);
	printf("cpu_ns %.0f\n", clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu_start);
	return dst[3] == 42;
}
