#include "tools/measure/caches.h"

#include "dispatch/config.h"
#include "dispatch/cpu_features.h"

#include <cpuid.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* When CPUID says nothing: sizes common on x86-64 servers of recent years. */
#define L1D_FALLBACK (32u << 10)
#define L2_FALLBACK (1u << 20)
#define L3_FALLBACK (32u << 20)
/* Smaller or larger caches than these are typos, not machines. */
#define CACHE_MIN 4096ull
#define CACHE_MAX (1ull << 36)

/* "L1D,L2,L3" into s; false unless each is a byte count in range. */
static bool parse_sizes(const char *text, struct cache_sizes *s)
{
	char copy[128];
	size_t *field[3] = { &s->l1d, &s->l2, &s->l3 };
	if (strlen(text) >= sizeof copy)
		return false;
	strcpy(copy, text);
	char *rest = copy;
	for (unsigned i = 0; i < 3; i++) {
		char *item = strsep(&rest, ",");
		unsigned long long n;
		if (!item || parse_byte_count(item, CACHE_MAX, &n) || n < CACHE_MIN)
			return false;
		*field[i] = (size_t)n;
	}
	return rest == NULL;
}

const struct cache_sizes *tool_cache_sizes(void)
{
	static struct cache_sizes sizes;
	static bool ready;
	if (ready)
		return &sizes;
	const struct cpu_features *f = cpu_features();
	const char *value = getenv("MEMSHIM_CACHE_SIZES");
	if (!value || !parse_sizes(value, &sizes)) {
		if (value)
			fprintf(stderr, "memshim: MEMSHIM_CACHE_SIZES=\"%.64s\" is not L1D,L2,L3 (byte counts from 4K, "
					"e.g. 48K,2M,300M); using the CPU's\n", value);
		sizes = (struct cache_sizes){ f->l1d_bytes ? f->l1d_bytes : L1D_FALLBACK,
					      f->l2_bytes ? f->l2_bytes : L2_FALLBACK,
					      f->l3_bytes ? f->l3_bytes : L3_FALLBACK };
	}
	ready = true;
	return &sizes;
}

typedef void flush_fn(const char *p, size_t n);

static void flush_lines(const char *p, size_t n)
{
	for (uintptr_t a = (uintptr_t)p & ~(uintptr_t)63; a < (uintptr_t)p + n; a += 64)
		_mm_clflush((const void *)a);
}

/* CLFLUSHOPT flushes the same lines without ordering each against the
 * others: under a hypervisor CLFLUSH was most of a calibration's time
 * (D30). */
__attribute__((target("clflushopt"))) static void flush_lines_unordered(const char *p, size_t n)
{
	for (uintptr_t a = (uintptr_t)p & ~(uintptr_t)63; a < (uintptr_t)p + n; a += 64)
		_mm_clflushopt((void *)a);
}

static flush_fn *line_flusher(void)
{
	unsigned eax, ebx = 0, ecx, edx;
	if (__get_cpuid_max(0, NULL) >= 7)
		__cpuid_count(7, 0, eax, ebx, ecx, edx);
	return (ebx >> 23) & 1 ? flush_lines_unordered : flush_lines;
}

void caches_flush(const char *p, size_t n)
{
	static flush_fn *flush;
	if (!flush)
		flush = line_flusher();
	flush(p, n);
}
