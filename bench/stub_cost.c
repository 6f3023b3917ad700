/* What the exported stub (dispatch/export_stub.h) adds to a call: one
 * indirect jump.  Run with the library preloaded:
 *
 *   MEMSHIM_MEMCPY=evex LD_PRELOAD=.libs/libmemshim.so bench/stub_cost [VARIANT [ROUNDS]]
 *
 * It calls memcpy through a function pointer two ways, interleaved in each
 * round (the order alternating): straight to the variant,
 * memshim_memcpy_VARIANT (default evex), and to the exported memcpy, which
 * jumps through its slot to that same function (checked first: it refuses
 * to run otherwise).  So the difference is the jump alone.  Sizes 8, 64 and
 * 256 bytes, in cache; prints per size the median ns per call of each and
 * the median of the per-round ratios stub/direct. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *copy_fn(void *, const void *, size_t);

enum { MAX_ROUNDS = 101, CALLS = 200000 };

static const size_t sizes[] = { 8, 64, 256 };
#define SIZE_COUNT (sizeof sizes / sizeof sizes[0])

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Where `jmp *rel32(%rip)` (ff 25 rel32) at `code` goes; NULL if it is not that. */
static void *stub_target(void *code)
{
	const unsigned char *insn = code;
	if (insn[0] != 0xff || insn[1] != 0x25)
		return NULL;
	int32_t rel;
	memcpy(&rel, insn + 2, sizeof rel);
	return *(void **)(insn + 6 + rel);
}

static char src[512 + 64], dst[512 + 64];

/* ns per call of `copy` for n bytes; the offsets vary so not every copy is aligned. */
static double time_calls(copy_fn *volatile copy, size_t n)
{
	double start = now_ns();
	for (long c = 0; c < CALLS; c++)
		copy(dst + (c & 7), src + (c & 15), n);
	return (now_ns() - start) / CALLS;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	const char *variant = argc > 1 ? argv[1] : "evex";
	int rounds = argc > 2 ? atoi(argv[2]) : 21;
	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "stub_cost: ROUNDS must be 1..%d\n", MAX_ROUNDS);
		return 2;
	}
	char name[64];
	snprintf(name, sizeof name, "memshim_memcpy_%s", variant);
	copy_fn *direct = (copy_fn *)dlsym(RTLD_DEFAULT, name);
	copy_fn *stub = (copy_fn *)dlsym(RTLD_DEFAULT, "memcpy");
	if (!direct || !stub || stub_target((void *)stub) != (void *)direct) {
		fprintf(stderr, "stub_cost: memcpy is not memshim's stub jumping to %s "
		                "(preload the library, MEMSHIM_MEMCPY=%s)\n", name, variant);
		return 1;
	}
	static double direct_ns[SIZE_COUNT][MAX_ROUNDS], stub_ns[SIZE_COUNT][MAX_ROUNDS],
		ratio[SIZE_COUNT][MAX_ROUNDS];
	for (size_t s = 0; s < SIZE_COUNT; s++) {
		time_calls(direct, sizes[s]); /* warm up both */
		time_calls(stub, sizes[s]);
	}
	for (int r = 0; r < rounds; r++)
		for (size_t s = 0; s < SIZE_COUNT; s++) {
			if (r % 2) {
				stub_ns[s][r] = time_calls(stub, sizes[s]);
				direct_ns[s][r] = time_calls(direct, sizes[s]);
			} else {
				direct_ns[s][r] = time_calls(direct, sizes[s]);
				stub_ns[s][r] = time_calls(stub, sizes[s]);
			}
			ratio[s][r] = stub_ns[s][r] / direct_ns[s][r];
		}
	printf("memcpy through the exported stub against %s called directly: %d rounds interleaved, "
	       "%d calls each, CLOCK_MONOTONIC\n", name, rounds, CALLS);
	printf("size  direct ns/call  stub ns/call  added ns  stub/direct  (medians)\n");
	for (size_t s = 0; s < SIZE_COUNT; s++) {
		double d = median(direct_ns[s], rounds), t = median(stub_ns[s], rounds);
		printf("%-5zu %14.3f %12.3f %9.3f %12.3f\n", sizes[s], d, t, t - d, median(ratio[s], rounds));
	}
	return dst[3] == 42;
}
