/* Differential fuzzing of every variant against a plain byte loop.
 *
 * Built by tests/fuzz/run_fuzz.sh with clang -fsanitize=fuzzer,address.
 * The input chooses the variant, the function (all twelve exported names:
 * memcpy, mempcpy, memmove, bcopy, memset, bzero, explicit_bzero and the
 * _chk forms), the size, the source and destination offsets, whether and by
 * how much a memmove overlaps, on which side the buffers touch a guard page,
 * the fill value (any int) and the bytes the buffers start with.
 *
 * The variants are called through dlsym on libmemshim.so
 * ($MEMSHIM_LIBRARY), as memshim_<function>_<variant> for every name that
 * memshim_variant_name() lists, so new variants are fuzzed without a change
 * here.  They are deliberately NOT linked in and compiled with ASan: most of
 * them are inline assembly (rep movsb, rep movsq, rep stosb) that ASan does
 * not see, and the library is built with flags (-fno-builtin,
 * -mgeneral-regs-only, ...) that the fuzz build would have to copy.  Out of
 * bounds accesses are caught instead by
 *   - PROT_NONE guard pages: the buffers are placed flush against one (after
 *     the end or before the start, as the input says), so one byte read or
 *     written past the end, or before the start, faults;
 *   - comparing the whole destination arena, not only the copied bytes,
 *     with the reference, and the whole source arena with its old contents.
 * ASan still checks the harness itself, and an ASan report or a fault is a
 * crash that libFuzzer saves as crash-<sha1>.
 *
 * Bounded run: make check (tests/fuzz/run_fuzz.sh).  Longer run by hand,
 * from the build directory:
 *
 *   tests/fuzz/run_fuzz.sh --build-only
 *   mkdir -p /tmp/fz && MEMSHIM_LIBRARY=$PWD/.libs/libmemshim.so \
 *     tests/fuzz/fuzz_variants -max_total_time=3600 -jobs=2 -workers=2 \
 *       -print_final_stats=1 /tmp/fz $srcdir/tests/fuzz/corpus
 *   # and with other erms thresholds, read when the library loads:
 *   MEMSHIM_MOVSB_THRESHOLD=1 MEMSHIM_STOSB_THRESHOLD=1 MEMSHIM_LIBRARY=... tests/fuzz/fuzz_variants ...
 *
 * A crash is replayed with: tests/fuzz/fuzz_variants crash-<sha1>.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shim/entry_set.h" /* the function types */

typedef unsigned char byte;

enum fn {
	F_MEMCPY, F_MEMPCPY, F_MEMCPY_CHK, F_MEMPCPY_CHK, /* disjoint copies */
	F_MEMMOVE, F_MEMMOVE_CHK, F_BCOPY,                 /* may overlap */
	F_MEMSET, F_MEMSET_CHK, F_BZERO, F_EXPLICIT_BZERO, F_EXPLICIT_BZERO_CHK,
	F_COUNT
};
static const char *const fn_names[F_COUNT] = {
	"memcpy",  "mempcpy",     "memcpy_chk", "mempcpy_chk", "memmove",        "memmove_chk",
	"bcopy",   "memset",      "memset_chk", "bzero",       "explicit_bzero", "explicit_bzero_chk",
};

#define MAX_VARIANTS 32
static struct {
	const char *name;
	void *fn[F_COUNT];
} variants[MAX_VARIANTS];
static unsigned n_variants;

/* Largest size; an arena has room for it, both offsets and slack. */
#define MAX_SIZE (1u << 17)
#define MAX_OFFSET 4096u
#define ARENA (MAX_SIZE + 2 * MAX_OFFSET + 8192)

struct arena {
	byte *begin; /* ARENA usable bytes, a PROT_NONE page before and after */
	byte *shadow; /* what the arena must hold */
};
static struct arena src_arena, dst_arena;

static struct arena arena_alloc(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t usable = (ARENA + page - 1) / page * page;
	byte *base = mmap(NULL, usable + 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		perror("mmap");
		abort();
	}
	if (mprotect(base, page, PROT_NONE) || mprotect(base + page + usable, page, PROT_NONE)) {
		perror("mprotect");
		abort();
	}
	/* ARENA is a multiple of the page size, so the end is flush with the guard. */
	return (struct arena){ base + page, malloc(ARENA) };
}

static void die(const char *what)
{
	fprintf(stderr, "fuzz_variants: %s\n", what);
	exit(1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *path = getenv("MEMSHIM_LIBRARY");
	void *lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
	if (!lib) {
		fprintf(stderr, "fuzz_variants: cannot load MEMSHIM_LIBRARY=%s: %s\n", path ? path : "(unset)",
		        dlerror());
		exit(1);
	}
	const char *(*name)(unsigned) = (const char *(*)(unsigned))dlsym(lib, "memshim_variant_name");
	int (*usable)(unsigned) = (int (*)(unsigned))dlsym(lib, "memshim_variant_usable");
	if (!name || !usable)
		die("memshim_variant_name or memshim_variant_usable is not exported");
	for (unsigned i = 0; name(i) && n_variants < MAX_VARIANTS; i++) {
		if (!usable(i))
			continue;
		variants[n_variants].name = name(i);
		for (int f = 0; f < F_COUNT; f++) {
			char symbol[128];
			snprintf(symbol, sizeof symbol, "memshim_%s_%s", fn_names[f], name(i));
			variants[n_variants].fn[f] = dlsym(lib, symbol);
			if (!variants[n_variants].fn[f]) {
				fprintf(stderr, "fuzz_variants: %s is not exported\n", symbol);
				exit(1);
			}
		}
		n_variants++;
	}
	if (n_variants == 0)
		die("no usable variant");
	fprintf(stderr, "fuzz_variants: %u variants:", n_variants);
	for (unsigned i = 0; i < n_variants; i++)
		fprintf(stderr, " %s", variants[i].name);
	fputc('\n', stderr);
	src_arena = arena_alloc();
	dst_arena = arena_alloc();
	for (size_t i = 0; i < ARENA; i++) {
		src_arena.begin[i] = src_arena.shadow[i] = (byte)(i * 251 + 17);
		dst_arena.begin[i] = dst_arena.shadow[i] = (byte)(i * 13 + 5);
	}
	return 0;
}

/* Reads the input front to back; past its end everything reads as 0. */
struct reader {
	const uint8_t *p;
	size_t left;
};
static unsigned take(struct reader *r, int bytes)
{
	unsigned v = 0;
	for (int i = 0; i < bytes; i++) {
		v = v << 8 | (r->left ? *r->p : 0);
		if (r->left) {
			r->p++;
			r->left--;
		}
	}
	return v;
}

/* Sizes: mostly small, often around the thresholds and powers of two. */
static size_t choose_size(struct reader *r)
{
	unsigned kind = take(r, 1), v = take(r, 3);
	switch (kind % 8) {
	case 0: case 1: case 2: return v % 257;
	case 3: return v % 4097;
	case 4: {
		long p = 1L << (v % 18), d = (long)((v >> 8) % 129) - 64;
		return p + d < 0 ? 0 : (size_t)(p + d);
	}
	case 5: return 2048 + (v >> 4) % 129 - 64;
	case 6: return v % (MAX_SIZE + 1);
	default: return v % 65;
	}
}

static void fail(const char *variant, enum fn f, size_t n, size_t so, size_t doff, long overlap,
                 const char *what, long at)
{
	fprintf(stderr, "FAIL: memshim_%s_%s n=%zu src+%zu dst+%zu overlap %ld: %s (offset %ld)\n",
	        fn_names[f], variant, n, so, doff, overlap, what, at);
	abort(); /* libFuzzer saves the input */
}

static long first_difference(const byte *a, const byte *b, size_t n)
{
	if (memcmp(a, b, n) == 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return (long)i;
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data, size };
	unsigned vi = take(&r, 1) % n_variants;
	enum fn f = (enum fn)(take(&r, 1) % F_COUNT);
	size_t n = choose_size(&r);
	if (n > MAX_SIZE)
		n = MAX_SIZE;
	unsigned flags = take(&r, 1);
	size_t so = take(&r, 2) % MAX_OFFSET, doff = take(&r, 2) % MAX_OFFSET;
	long overlap = (long)(take(&r, 2) % 8192) - 4096; /* memmove: dst - src */
	int value = (int)take(&r, 4);
	size_t room_extra = take(&r, 1);
	int is_copy = f <= F_BCOPY, may_overlap = f >= F_MEMMOVE && f <= F_BCOPY;

	/* Where the buffers lie: flush with the guard page after the arena
	 * (flags bit 0) or before it, counting the offset from that side. */
	int at_end = flags & 1;
	byte *dst, *src;
	struct arena *src_home = &src_arena;
	if (may_overlap && (flags & 2)) {
		/* both in the destination arena, dst = src + overlap */
		src_home = &dst_arena;
		size_t low = (size_t)doff + MAX_OFFSET; /* src's distance from the arena's near end */
		if (at_end) {
			src = dst_arena.begin + ARENA - n - low;
			dst = src + overlap;
			if (dst + n > dst_arena.begin + ARENA)
				dst = dst_arena.begin + ARENA - n; /* flush with the guard */
		} else {
			src = dst_arena.begin + low;
			dst = src + overlap;
		}
		overlap = dst - src;
	} else {
		overlap = 0;
		dst = at_end ? dst_arena.begin + ARENA - n - doff : dst_arena.begin + doff;
		src = at_end ? src_arena.begin + ARENA - n - so : src_arena.begin + so;
	}
	if (!is_copy)
		src = NULL;

	/* The window that this case may change: fresh bytes from the input's tail. */
	byte *lo = dst, *hi = dst + n;
	if (src_home == &dst_arena && src) {
		lo = src < lo ? src : lo;
		hi = src + n > hi ? src + n : hi;
	}
	size_t wlo = (size_t)(lo - dst_arena.begin), whi = (size_t)(hi - dst_arena.begin);
	for (size_t i = wlo; i < whi; i++) {
		byte b = r.left ? r.p[(i - wlo) % r.left] : 0;
		dst_arena.begin[i] = dst_arena.shadow[i] = (byte)(b ^ (i * 29));
	}
	if (src && src_home == &src_arena)
		for (size_t i = 0; i < n; i++) {
			byte b = r.left ? r.p[(i + 7) % r.left] : 0;
			src[i] = src_arena.shadow[src - src_arena.begin + i] = (byte)(b + i * 3);
		}

	/* The reference, on the shadow: a byte loop (through a buffer for memmove). */
	size_t d_off = (size_t)(dst - dst_arena.begin);
	byte *expect = dst_arena.shadow + d_off;
	if (is_copy) {
		const byte *s_shadow = src_home->shadow + (src - src_home->begin);
		if (may_overlap && s_shadow < expect)
			for (size_t i = n; i-- > 0;)
				expect[i] = s_shadow[i];
		else
			for (size_t i = 0; i < n; i++)
				expect[i] = s_shadow[i];
	} else {
		byte c = f == F_MEMSET || f == F_MEMSET_CHK ? (byte)value : 0;
		for (size_t i = 0; i < n; i++)
			expect[i] = c;
	}

	/* The call. */
	void *const *fn = variants[vi].fn;
	const char *vname = variants[vi].name;
	size_t room = n + room_extra;
	void *ret = dst, *want = dst;
	switch (f) {
	case F_MEMCPY: ret = ((memmove_fn *)fn[f])(dst, src, n); break;
	case F_MEMPCPY: ret = ((memmove_fn *)fn[f])(dst, src, n); want = dst + n; break;
	case F_MEMCPY_CHK: ret = ((memmove_chk_fn *)fn[f])(dst, src, n, room); break;
	case F_MEMPCPY_CHK: ret = ((memmove_chk_fn *)fn[f])(dst, src, n, room); want = dst + n; break;
	case F_MEMMOVE: ret = ((memmove_fn *)fn[f])(dst, src, n); break;
	case F_MEMMOVE_CHK: ret = ((memmove_chk_fn *)fn[f])(dst, src, n, room); break;
	case F_BCOPY: ((bcopy_fn *)fn[f])(src, dst, n); break;
	case F_MEMSET: ret = ((memset_fn *)fn[f])(dst, value, n); break;
	case F_MEMSET_CHK: ret = ((memset_chk_fn *)fn[f])(dst, value, n, room); break;
	case F_BZERO: ((bzero_fn *)fn[f])(dst, n); break;
	case F_EXPLICIT_BZERO: ((bzero_fn *)fn[f])(dst, n); break;
	case F_EXPLICIT_BZERO_CHK: ((explicit_bzero_chk_fn *)fn[f])(dst, n, room); break;
	case F_COUNT: break;
	}
	size_t s_off = src ? (size_t)(src - src_home->begin) : 0;
	if (ret != want)
		fail(vname, f, n, s_off, d_off, overlap, "wrong return value", (long)((byte *)ret - dst));
	long bad = first_difference(dst_arena.begin, dst_arena.shadow, ARENA);
	if (bad >= 0)
		fail(vname, f, n, s_off, d_off, overlap, "destination arena differs from the reference",
		     bad - (long)d_off);
	bad = first_difference(src_arena.begin, src_arena.shadow, ARENA);
	if (bad >= 0)
		fail(vname, f, n, s_off, d_off, overlap, "source arena changed", bad - (long)s_off);
	return 0;
}
