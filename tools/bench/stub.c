/* memshim bench --stub: what the exported names' stub (dispatch/export_stub.h)
 * adds to a call, a compare and one indirect jump through a slot the resolvers
 * filled.  From the library bench loads, it takes the exported memcpy and
 * the function its slot jumps to (the chosen variant, named with dladdr),
 * and times calls to each through a function pointer, interleaved in each
 * round with the order alternating, for 8, 64 and 256 bytes in cache; per
 * size the medians and the median of the per-round ratios stub/direct. */
#include "tools/bench/bench.h"

#include "dispatch/export_stub.h"
#include "tools/measure/clock.h"
#include "tools/util/quantile.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { STUB_CALLS = 200000 };

static const size_t stub_sizes[] = { 8, 64, 256 };
#define STUB_SIZES (sizeof stub_sizes / sizeof stub_sizes[0])

/* The function the stub at `code` calls for small sizes (its only one when
 * the function has one band); NULL if it is not memshim's stub. */
static void *stub_target(const void *code)
{
	struct export_bands bands;
	void *rest;
	return export_stub_decode(code, &bands, &rest) ? bands.function[0] : NULL;
}

static char src[512 + 64], dst[512 + 64];

/* ns per call of `copy` for n bytes; the offsets vary so not every copy is aligned. */
static double time_calls(copy_fn *volatile copy, size_t n)
{
	double start = (double)monotonic_ns();
	for (long c = 0; c < STUB_CALLS; c++)
		copy(dst + (c & 7), src + (c & 15), n);
	return ((double)monotonic_ns() - start) / STUB_CALLS;
}

/* One round: each size, the two calls in the round's order. */
static void time_round(copy_fn *direct, copy_fn *stub, unsigned r, double (*direct_ns)[MEASURE_MAX_PAIRS],
                       double (*stub_ns)[MEASURE_MAX_PAIRS])
{
	for (size_t s = 0; s < STUB_SIZES; s++) {
		if (r % 2) {
			stub_ns[s][r] = time_calls(stub, stub_sizes[s]);
			direct_ns[s][r] = time_calls(direct, stub_sizes[s]);
		} else {
			direct_ns[s][r] = time_calls(direct, stub_sizes[s]);
			stub_ns[s][r] = time_calls(stub, stub_sizes[s]);
		}
	}
}

int bench_stub(void *library, unsigned rounds)
{
	copy_fn *stub = (copy_fn *)dlsym(library, "memcpy");
	copy_fn *direct = stub ? (copy_fn *)stub_target((const void *)stub) : NULL;
	Dl_info info;
	if (!direct || !dladdr((void *)direct, &info)) {
		fprintf(stderr, "memshim bench: the library's memcpy is not a stub jumping into a loaded object\n");
		return 1;
	}
	char name[128];
	if (info.dli_sname)
		snprintf(name, sizeof name, "%s", info.dli_sname);
	else /* glibc's own, whose name only its symbol table has */
		snprintf(name, sizeof name, "the function at +0x%lx",
		         (unsigned long)((uintptr_t)direct - (uintptr_t)info.dli_fbase));
	static double direct_ns[STUB_SIZES][MEASURE_MAX_PAIRS], stub_ns[STUB_SIZES][MEASURE_MAX_PAIRS],
		ratio[STUB_SIZES][MEASURE_MAX_PAIRS];
	for (size_t s = 0; s < STUB_SIZES; s++) { /* warm up both */
		time_calls(direct, stub_sizes[s]);
		time_calls(stub, stub_sizes[s]);
	}
	for (unsigned r = 0; r < rounds; r++) {
		time_round(direct, stub, r, direct_ns, stub_ns);
		for (size_t s = 0; s < STUB_SIZES; s++)
			ratio[s][r] = stub_ns[s][r] / direct_ns[s][r];
	}
	printf("memcpy through the exported stub against %s (%s) called directly: %u rounds interleaved, "
	       "%d calls each, CLOCK_MONOTONIC\n", name, info.dli_fname, rounds, STUB_CALLS);
	printf("(a program's own calls of a function with one band skip the stub: direct binding;\n"
	       " bands, libraries loaded later and calls through pointers pay it)\n");
	printf("size  direct ns/call  stub ns/call  added ns  stub/direct  (medians)\n");
	for (size_t s = 0; s < STUB_SIZES; s++) {
		double d = quantile(direct_ns[s], rounds, 0.5), t = quantile(stub_ns[s], rounds, 0.5);
		printf("%-5zu %14.3f %12.3f %9.3f %12.3f\n", stub_sizes[s], d, t, t - d, quantile(ratio[s], rounds, 0.5));
	}
	return dst[3] == 42;
}
