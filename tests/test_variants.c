/* Correctness of every variant and every exported function, called through
 * the names the library exports (memshim_<function>_<variant>), and of the
 * plain exported names as this process resolves them.
 *
 *   - every size 0..1024 at source/destination alignments 0..63, the two
 *     apart mod 4096 and within 63 bytes of each other mod 4096;
 *   - powers of two -65..+65 up to 4 MiB;
 *   - copies ending exactly at a PROT_NONE page and starting right after one;
 *   - every size 0..256 with only the source, or only the destination, at
 *     a page end (the masked short paths switch pieces there);
 *   - no byte copied or set and no fault where there is nothing to do
 *     (size 0) from or to a null pointer or the first byte of a PROT_NONE
 *     page, and copies into pages not written since a fork (write-protected
 *     for copy-on-write), checked in the child and unchanged in the parent;
 *   - canary bytes on both sides untouched; return values;
 *   - memmove at every overlap distance 0..256 and some large ones, both ways;
 *   - memset with 0, 0xff, negative ints and ints above 255;
 *   - the _chk functions abort when the length exceeds the room.
 *
 * Usage: test_variants [VARIANT...] (default: every usable variant).  The
 * library is $MEMSHIM_LIBRARY. */
#include "tests/guarded.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>

#include "shim/entry_set.h" /* the function types */

typedef unsigned char byte;

struct functions {
	memmove_fn *memcpy, *mempcpy, *memmove;
	memmove_chk_fn *memcpy_chk, *mempcpy_chk, *memmove_chk;
	bcopy_fn *bcopy;
	memset_fn *memset;
	memset_chk_fn *memset_chk;
	bzero_fn *bzero, *explicit_bzero;
	explicit_bzero_chk_fn *explicit_bzero_chk;
};

static void *library;
static unsigned long cases, failures;
/* The case being checked, formatted only where it is printed (a failure,
 * a fault): "KIND_VARIANT n=N" and a tail, a format of x and y.  Formatting
 * each of the millions of cases as it began took a quarter of the test's
 * time. */
static struct {
	const char *kind, *variant, *tail;
	size_t n;
	long long x, y;
} current;

static void describe(const char *kind, const char *variant, size_t n, const char *tail, long long x, long long y)
{
	current.kind = kind, current.variant = variant, current.tail = tail;
	current.n = n, current.x = x, current.y = y;
}

static const char *current_case(void)
{
	static char text[256];
	int len = snprintf(text, sizeof text, "%s_%s n=%zu", current.kind, current.variant, current.n);
	if (len >= 0 && (size_t)len < sizeof text)
		snprintf(text + len, sizeof text - (size_t)len, current.tail, current.x, current.y);
	return text;
}

/* snprintf in a signal handler: the fault is in a variant's copy, never
 * inside stdio, and the process dies right after. */
static void on_fault(int sig)
{
	static const char msg[] = "FAIL: fault (out-of-bounds access) in: ";
	const char *what = current_case();
	(void)!write(2, msg, sizeof msg - 1);
	(void)!write(2, what, strlen(what));
	(void)!write(2, "\n", 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void fail(const char *fmt, ...)
{
	va_list ap;
	if (++failures > 20)
		return;
	fprintf(stderr, "FAIL: %s: ", current_case());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void *symbol(const char *function, const char *variant)
{
	char name[128];
	snprintf(name, sizeof name, "memshim_%s_%s", function, variant);
	void *p = dlsym(library, name);
	if (!p) {
		fprintf(stderr, "FAIL: %s is not exported\n", name);
		exit(1);
	}
	return p;
}

static struct functions variant_functions(const char *v)
{
	return (struct functions){
		.memcpy = symbol("memcpy", v), .mempcpy = symbol("mempcpy", v),
		.memmove = symbol("memmove", v), .memcpy_chk = symbol("memcpy_chk", v),
		.mempcpy_chk = symbol("mempcpy_chk", v), .memmove_chk = symbol("memmove_chk", v),
		.bcopy = symbol("bcopy", v), .memset = symbol("memset", v),
		.memset_chk = symbol("memset_chk", v), .bzero = symbol("bzero", v),
		.explicit_bzero = symbol("explicit_bzero", v),
		.explicit_bzero_chk = symbol("explicit_bzero_chk", v),
	};
}

/* ---- the reference: plain byte loops, nothing clever ---- */

static uint32_t rng_state = 12345;
static byte next_byte(void)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return (byte)(rng_state >> 16);
}

static void fill_random(byte *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = next_byte();
}

#define CANARY 0xa5
#define CANARY_BYTES 64

/* The first index in [0, n) where a and b differ, or n. */
static size_t first_difference(const byte *a, const byte *b, size_t n)
{
	if (memcmp(a, b, n) == 0)
		return n;
	size_t i = 0;
	while (a[i] == b[i])
		i++;
	return i;
}

/* Whether every byte of p[0..n) is value: the first is, and each equals
 * the next.  memcmp of the buffer against itself one byte on is glibc's
 * vector compare; the byte loop it replaces took half the test's time (the
 * memsets of up to 4 MiB, 17 times per size), and test_low_thresholds and
 * test_simd_bands run this test again. */
static int all_equal(const byte *p, size_t n, byte value)
{
	return n == 0 || (p[0] == value && memcmp(p, p + 1, n - 1) == 0);
}

/* ---- one copy, checked ---- */

enum copy_kind { K_MEMCPY, K_MEMPCPY, K_MEMMOVE, K_MEMCPY_CHK, K_MEMPCPY_CHK, K_MEMMOVE_CHK, K_BCOPY };
static const char *const copy_kind_names[] = { "memcpy", "mempcpy", "memmove", "__memcpy_chk",
	                                           "__mempcpy_chk", "__memmove_chk", "bcopy" };

/* Calls the function of that kind; returns what it returned, or what it
 * should have returned for bcopy (which returns nothing). */
static void *call_copy(const struct functions *f, enum copy_kind k, byte *d, const byte *s, size_t n)
{
	switch (k) {
	case K_MEMCPY: return f->memcpy(d, s, n);
	case K_MEMPCPY: return f->mempcpy(d, s, n);
	case K_MEMMOVE: return f->memmove(d, s, n);
	case K_MEMCPY_CHK: return f->memcpy_chk(d, s, n, n);
	case K_MEMPCPY_CHK: return f->mempcpy_chk(d, s, n, n);
	case K_MEMMOVE_CHK: return f->memmove_chk(d, s, n, n + 1);
	case K_BCOPY: f->bcopy(s, d, n); return d;
	}
	return NULL;
}

static void *expected_return(enum copy_kind k, byte *d, size_t n)
{
	return k == K_MEMPCPY || k == K_MEMPCPY_CHK ? d + n : d;
}

/* Copies n bytes from src to dst (disjoint) and checks the bytes, the
 * canaries the caller put around dst, and the return value. */
static void check_disjoint_copy(const struct functions *f, enum copy_kind k, byte *dst,
                                const byte *src, size_t n, size_t canary_before, size_t canary_after)
{
	cases++;
	memset(dst - canary_before, CANARY, canary_before + n + canary_after);
	void *ret = call_copy(f, k, dst, src, n);
	size_t bad = first_difference(dst, src, n);
	if (bad != n)
		fail("byte %zu of %zu differs", bad, n);
	if (!all_equal(dst - canary_before, canary_before, CANARY))
		fail("wrote before the destination");
	if (!all_equal(dst + n, canary_after, CANARY))
		fail("wrote after the destination");
	if (ret != expected_return(k, dst, n))
		fail("returned %p, expected %p", ret, expected_return(k, dst, n));
}

static const size_t alignments[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 47, 48, 55, 56, 62, 63 };
#define N_ALIGN (sizeof alignments / sizeof alignments[0])

static void sweep_small_copies(const char *v, const struct functions *f, enum copy_kind k,
                               size_t max_size, size_t alignment_step)
{
	static struct guarded src_buf, dst_buf;
	if (!src_buf.begin) {
		src_buf = guarded_alloc(4096);
		dst_buf = guarded_alloc(4096);
		fill_random(src_buf.begin, 4096);
	}
	for (size_t sa = 0; sa < N_ALIGN; sa += alignment_step)
		for (size_t da = 0; da < N_ALIGN; da += alignment_step)
			for (size_t n = 0; n <= max_size; n++) {
				describe(copy_kind_names[k], v, n, " src%%64=%lld dst%%64=%lld", (long long)alignments[sa],
				         (long long)alignments[da]);
				check_disjoint_copy(f, k, dst_buf.begin + 1024 + alignments[da],
				                    src_buf.begin + 64 + alignments[sa], n, CANARY_BYTES,
				                    CANARY_BYTES);
				/* (dst - src) mod 4096 within 63 either side, where
				   loads seem to hit the stores before them */
				describe(copy_kind_names[k], v, n, " src%%64=%lld dst%%64=%lld, 4 KiB-aliased",
				         (long long)alignments[sa], (long long)alignments[da]);
				check_disjoint_copy(f, k, dst_buf.begin + 64 + alignments[da],
				                    src_buf.begin + 64 + alignments[sa], n, CANARY_BYTES,
				                    CANARY_BYTES);
			}
}

/* Sizes around every power of two up to 4 MiB, and copies flush against guard pages. */
#define BIG (4u << 20)
static void sweep_powers_of_two(const char *v, const struct functions *f, enum copy_kind k)
{
	static struct guarded src_buf, dst_buf;
	if (!src_buf.begin) {
		src_buf = guarded_alloc(BIG + 4096);
		dst_buf = guarded_alloc(BIG + 4096);
		fill_random(src_buf.begin, BIG + 4096);
	}
	for (size_t p = 64; p <= BIG; p *= 2)
		for (long delta = -65; delta <= 65; delta++) {
			if (p >= (1u << 17) && labs(delta) % 8 > 1 && labs(delta) != 65 && labs(delta) != 63)
				continue; /* above 128 KiB: the deltas that change the tail's shape */
			size_t n = p + (size_t)delta;
			if (n > BIG)
				continue;
			/* ends at the guard page after the destination and after the source */
			describe(copy_kind_names[k], v, n, " ending at a guard page", 0, 0);
			check_disjoint_copy(f, k, dst_buf.end - n, src_buf.end - n, n, CANARY_BYTES, 0);
			/* starts right after the guard page before them */
			describe(copy_kind_names[k], v, n, " starting after a guard page", 0, 0);
			check_disjoint_copy(f, k, dst_buf.begin, src_buf.begin, n, 0, CANARY_BYTES);
		}
}

/* Every short size with one buffer at a guard page, ending there or
 * starting up to 64 bytes after it, and the other in the middle of a page:
 * the AVX-512 variants copy below 64 bytes with masked accesses whose
 * span depends on where each pointer lies in its page, so each side
 * alone takes the other span or piece. */
static void sweep_page_ends(const char *v, const struct functions *f, enum copy_kind k)
{
	static struct guarded src_buf, dst_buf;
	if (!src_buf.begin) {
		src_buf = guarded_alloc(4096);
		dst_buf = guarded_alloc(4096);
		fill_random(src_buf.begin, 4096);
	}
	/* Within 64 bytes after a guard page: where the masked copies switch
	   from spans ending at the bytes to spans starting at them. */
	for (size_t offset = 0; offset <= 64; offset++)
		for (size_t n = 0; n <= 64; n++) {
			describe(copy_kind_names[k], v, n, " source %lld bytes after a guard page", (long long)offset, 0);
			check_disjoint_copy(f, k, dst_buf.begin + 1024, src_buf.begin + offset, n, CANARY_BYTES, CANARY_BYTES);
			describe(copy_kind_names[k], v, n, " destination %lld bytes after a guard page", (long long)offset, 0);
			check_disjoint_copy(f, k, dst_buf.begin + offset, src_buf.begin + 1024, n, offset, CANARY_BYTES);
		}
	for (size_t n = 0; n <= 256; n++) {
		describe(copy_kind_names[k], v, n, " source ending at a guard page", 0, 0);
		check_disjoint_copy(f, k, dst_buf.begin + 1024, src_buf.end - n, n, CANARY_BYTES, CANARY_BYTES);
		describe(copy_kind_names[k], v, n, " destination ending at a guard page", 0, 0);
		check_disjoint_copy(f, k, dst_buf.end - n, src_buf.begin + 1024, n, CANARY_BYTES, 0);
	}
}

/* ---- nothing to do, and pages shared with a fork ---- */

/* Size 0 from and to places no byte may be read or written: the null
 * pointer and the first byte of a PROT_NONE page (the masked paths load
 * and store whole spans with every byte masked off there). */
static void check_size_zero(const char *v, const struct functions *f, byte *nowhere)
{
	byte *places[] = { NULL, nowhere };
	for (unsigned i = 0; i < 2; i++)
		for (unsigned j = 0; j < 2; j++) {
			byte *d = places[i], *s = places[j];
			describe("memcpy", v, 0, ", destination %#llx, source %#llx", (long long)(uintptr_t)d, (long long)(uintptr_t)s);
			cases++;
			if (f->memcpy(d, s, 0) != d || f->memmove(d, s, 0) != d || f->mempcpy(d, s, 0) != d)
				fail("wrong return value");
			f->bcopy(s, d, 0);
		}
	for (unsigned i = 0; i < 2; i++) {
		describe("memset", v, 0, " at %#llx", (long long)(uintptr_t)places[i], 0);
		cases++;
		if (f->memset(places[i], 0x5a, 0) != places[i])
			fail("wrong return value");
		f->bzero(places[i], 0);
	}
}

/* Every size 0..128 copied in a child into pages the parent wrote before
 * forking (so write-protected until the child's first store to each), at
 * the start and the end of a page, checked there; the parent's pages must
 * keep their bytes. */
static void check_after_fork(const char *v, const struct functions *f)
{
	enum { PAGES = 2 * 130 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	byte *shared = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	byte source[128];
	if (shared == MAP_FAILED) {
		fail("mmap failed");
		return;
	}
	memset(shared, 0x11, PAGES * page);
	fill_random(source, sizeof source);
	describe("memcpy", v, 128, " and below into pages not written since a fork", 0, 0);
	cases++;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int bad = 0;
		for (size_t n = 0; n <= 128; n++) {
			byte *at_start = shared + 2 * n * page, *at_end = shared + (2 * n + 2) * page - n;
			f->memcpy(at_start, source, n);
			f->memmove(at_end, source, n);
			bad |= memcmp(at_start, source, n) || memcmp(at_end, source, n);
			bad |= at_start[n] != 0x11 || at_end[-1] != 0x11;
		}
		_exit(bad);
	}
	int status;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail("the child's copies were wrong (status 0x%x)", status);
	for (size_t i = 0; i < PAGES * page; i++)
		if (shared[i] != 0x11) {
			fail("the parent's byte %zu changed", i);
			break;
		}
	munmap(shared, PAGES * page);
}

/* ---- memmove with overlap ---- */


/* n random bytes at p, different from one call to the next: a slice of a
 * pool filled once, at an offset that moves by a prime each call.  Filling
 * each case's region byte by byte from the generator took a third of the
 * test's time (its steps depend on each other, several cycles a byte). */
#define POOL_BYTES (16u << 20)
static void random_bytes(byte *p, size_t n)
{
	static byte *pool;
	static size_t offset;
	if (!pool) {
		pool = malloc(POOL_BYTES);
		if (!pool) {
			perror("malloc");
			exit(99);
		}
		fill_random(pool, POOL_BYTES);
	}
	offset = (offset + 1000003) % (POOL_BYTES - n + 1);
	memcpy(p, pool + offset, n);
}

/* memmove of n bytes between overlapping places `distance` apart, the
 * destination after the source (forward=0) or before it; the whole region
 * and its surroundings must equal the byte-loop reference. */
static void check_overlap(const char *v, const struct functions *f, enum copy_kind k, size_t n,
                          size_t distance, int dst_after_src)
{
	static struct guarded buf;
	static byte *expected;
	size_t region = n + distance + 2 * CANARY_BYTES;
	if (!buf.begin) {
		buf = guarded_alloc(8u << 20);
		expected = malloc(8u << 20);
	}
	if (region > (size_t)(buf.end - buf.begin))
		return;
	describe(copy_kind_names[k], v, n,
	         dst_after_src ? " overlap distance %lld, destination after source"
	                       : " overlap distance %lld, destination before source",
	         (long long)distance, 0);
	cases++;
	byte *base = buf.begin + CANARY_BYTES;
	random_bytes(buf.begin, region);
	memcpy(expected, buf.begin, region);
	byte *src = dst_after_src ? base : base + distance;
	byte *dst = dst_after_src ? base + distance : base;
	byte *exp_src = expected + (src - buf.begin), *exp_dst = expected + (dst - buf.begin);
	if (dst_after_src)
		for (size_t i = n; i-- > 0;)
			exp_dst[i] = exp_src[i];
	else
		for (size_t i = 0; i < n; i++)
			exp_dst[i] = exp_src[i];
	void *ret = call_copy(f, k, dst, src, n);
	size_t bad = first_difference(buf.begin, expected, region);
	if (bad != region)
		fail("byte %zd (relative to the destination) differs", (ssize_t)(bad - (size_t)(dst - buf.begin)));
	if (ret != dst)
		fail("returned %p, expected %p", ret, (void *)dst);
}

static void sweep_overlaps(const char *v, const struct functions *f, enum copy_kind k)
{
	static const size_t sizes[] = { 0,   1,   2,   3,   7,   8,   9,   15,  16,   17,   31,  32,
		                            33,  63,  64,  65,  100, 127, 128, 129, 255,  256,  257, 300,
		                            511, 512, 513, 1000, 2047, 2048, 2049, 4096, 4097, 65549 };
	for (size_t distance = 0; distance <= 256; distance++)
		for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
			for (int after = 0; after <= 1; after++)
				check_overlap(v, f, k, sizes[i], distance, after);
	static const size_t far[] = { 4095, 4096, 4097, 65537, 1u << 20 };
	for (size_t i = 0; i < sizeof far / sizeof far[0]; i++)
		for (int after = 0; after <= 1; after++) {
			check_overlap(v, f, k, far[i] + 100, far[i], after);
			check_overlap(v, f, k, 2 * far[i] + 13, far[i], after);
			check_overlap(v, f, k, 3u << 20, far[i], after);
		}
}

/* ---- memset ---- */

enum set_kind { S_MEMSET, S_MEMSET_CHK, S_BZERO, S_EXPLICIT_BZERO, S_EXPLICIT_BZERO_CHK };
static const char *const set_kind_names[] = { "memset", "__memset_chk", "bzero", "explicit_bzero",
	                                          "__explicit_bzero_chk" };

static void check_set(const char *v, const struct functions *f, enum set_kind k, byte *d, int c,
                      size_t n, size_t canary_before, size_t canary_after)
{
	describe(set_kind_names[k], v, n, " c=%lld dst%%64=%lld", c, (long long)((uintptr_t)d % 64));
	cases++;
	memset(d - canary_before, CANARY, canary_before + n + canary_after);
	void *ret = d;
	switch (k) {
	case S_MEMSET: ret = f->memset(d, c, n); break;
	case S_MEMSET_CHK: ret = f->memset_chk(d, c, n, n); break;
	case S_BZERO: f->bzero(d, n); c = 0; break;
	case S_EXPLICIT_BZERO: f->explicit_bzero(d, n); c = 0; break;
	case S_EXPLICIT_BZERO_CHK: f->explicit_bzero_chk(d, n, n); c = 0; break;
	}
	if (!all_equal(d, n, (byte)c))
		fail("not every byte is %d", (byte)c);
	if (!all_equal(d - canary_before, canary_before, CANARY) || !all_equal(d + n, canary_after, CANARY))
		fail("wrote outside the destination");
	if (ret != d)
		fail("returned %p, expected %p", ret, (void *)d);
}

static void sweep_sets(const char *v, const struct functions *f, enum set_kind k, size_t max_small)
{
	static struct guarded buf;
	if (!buf.begin)
		buf = guarded_alloc(BIG + 4096);
	static const int values[] = { 0, 0xff, -1, -200, 0x1234, 256, 0x5a };
	int nvalues = k == S_MEMSET || k == S_MEMSET_CHK ? 7 : 1;
	for (int vi = 0; vi < nvalues; vi++) {
		for (size_t a = 0; a < N_ALIGN; a++)
			for (size_t n = 0; n <= max_small; n++)
				check_set(v, f, k, buf.begin + 1024 + alignments[a], values[vi], n, CANARY_BYTES,
				          CANARY_BYTES);
		for (size_t p = 64; p <= BIG; p *= 2)
			for (long delta = -65; delta <= 65; delta += p >= (1u << 17) ? 8 : 1) {
				size_t n = p + (size_t)delta;
				if (n > BIG)
					continue;
				check_set(v, f, k, buf.end - n, values[vi], n, CANARY_BYTES, 0);
				check_set(v, f, k, buf.begin, values[vi], n, 0, CANARY_BYTES);
			}
	}
}

/* ---- fortify checks ---- */

/* Runs one _chk call with a length one past the room in a child process,
 * which must die of SIGABRT (glibc's __chk_fail). */
static void check_chk_aborts(const char *v, const struct functions *f, int which)
{
	static const char *const names[] = { "__memcpy_chk", "__mempcpy_chk", "__memmove_chk",
		                                 "__memset_chk", "__explicit_bzero_chk" };
	describe(names[which], v, 33, " with room for 32", 0, 0);
	cases++;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", 1);
		dup2(devnull, 2); /* glibc's "buffer overflow detected" message */
		byte a[64], b[64];
		switch (which) {
		case 0: f->memcpy_chk(a, b, 33, 32); break;
		case 1: f->mempcpy_chk(a, b, 33, 32); break;
		case 2: f->memmove_chk(a, b, 33, 32); break;
		case 3: f->memset_chk(a, 0, 33, 32); break;
		case 4: f->explicit_bzero_chk(a, 33, 32); break;
		}
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
		fail("did not abort (status 0x%x)", status);
}

static void test_variant(const char *v, const struct functions *f)
{
	unsigned long before = cases, failed_before = failures;
	for (enum copy_kind k = K_MEMCPY; k <= K_BCOPY; k++) {
		int base = k == K_MEMCPY || k == K_MEMMOVE;
		sweep_small_copies(v, f, k, base ? 1024 : 300, base ? 1 : 3);
		sweep_powers_of_two(v, f, k);
		sweep_page_ends(v, f, k);
		if (k == K_MEMMOVE || k == K_MEMMOVE_CHK || k == K_BCOPY)
			sweep_overlaps(v, f, k);
	}
	for (enum set_kind k = S_MEMSET; k <= S_EXPLICIT_BZERO_CHK; k++)
		sweep_sets(v, f, k, k == S_MEMSET ? 1024 : 300);
	for (int which = 0; which < 5; which++)
		check_chk_aborts(v, f, which);
	static struct guarded nowhere;
	if (!nowhere.begin)
		nowhere = guarded_alloc(4096);
	check_size_zero(v, f, nowhere.end);
	check_after_fork(v, f);
	printf("%-8s %9lu cases, %lu failed\n", v, cases - before, failures - failed_before);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *path = getenv("MEMSHIM_LIBRARY");
	signal(SIGSEGV, on_fault);
	signal(SIGBUS, on_fault);
	if (!path || !(library = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		fprintf(stderr, "cannot load MEMSHIM_LIBRARY=%s: %s\n", path ? path : "(unset)", dlerror());
		return 99;
	}
	const char *(*variant_name)(unsigned) = dlsym(library, "memshim_variant_name");
	int (*variant_usable)(unsigned) = dlsym(library, "memshim_variant_usable");
	unsigned tested = 0;
	for (unsigned i = 0; variant_name(i); i++) {
		const char *v = variant_name(i);
		int wanted = argc < 2;
		for (int a = 1; a < argc; a++)
			wanted |= strcmp(argv[a], v) == 0;
		if (!wanted)
			continue;
		if (!variant_usable(i)) {
			printf("SKIP: %s: not usable on this machine\n", v);
			continue;
		}
		struct functions f = variant_functions(v);
		test_variant(v, &f);
		tested++;
	}
	if (tested == 0) {
		fprintf(stderr, "FAIL: no variant tested\n");
		return 1;
	}
	return failures ? 1 : 0;
}
