/* The SIMD variants' algorithm, written once for any vector width.
 *
 * A file that includes this header first defines, for its width:
 *   VEC_SIZE               16, 32 or 64 (bytes per vector register)
 *   vec                    the vector type (__m128i, __m256i, __m512i)
 *   vec_load(p)            unaligned load
 *   vec_store(p, v)        unaligned store
 *   vec_store_aligned(p, v)   store to a VEC_SIZE-aligned address
 *   vec_stream(p, v)       non-temporal store to a VEC_SIZE-aligned address
 *   vec_broadcast(c)       the byte c in every lane
 * and is compiled with the instruction set those need (Makefile.am: one
 * convenience library per width).  A width file that may use AVX-512BW
 * also includes shim/vector_masked.h, which replaces the small class below.
 *
 * Copies, by size class (V = VEC_SIZE; the scheme is glibc's
 * memmove-vec-unaligned-erms.S, the composition from named head/tail and
 * loop pieces LLVM libc's memory_utils; the code is our own):
 *
 *   0 .. V-1      (small) a 16-byte head and tail pair from 16 bytes,
 *                 copy_upto16 in general-purpose registers below; or,
 *                 with shim/vector_masked.h, 0 .. 63 in two masked
 *                 32-byte loads and stores, no test of the size; or, with XMM_BELOW (the avx2_xmm variants),
 *                 0 .. 63 in 16-byte blocks: a pair from 16, two pairs
 *                 from 33.  Tested first: most calls are this small.
 *   V .. 2V       one head and one tail vector, overlapping in the middle;
 *   2V+1 .. 4V    two head and two tail vectors (from 2V where small
 *                 sizes reach 2V);
 *   4V+1 .. 8V    four head and four tail vectors, no loop.
 *                 Every class above loads all its bytes before it stores
 *                 any, so it is a correct memmove for any overlap.
 *   above 8V      load the first vector and the last four, then a loop of
 *                 four vectors per iteration that stores to a V-aligned
 *                 destination, then store the saved last four and first
 *                 vector.  The loop only reads source bytes past everything
 *                 it has written, so this is also memmove when the
 *                 destination lies before the source.  When it overlaps
 *                 after the source, memmove runs the mirror image: the
 *                 first four and last vector saved, the loop from the end.
 *
 * Long copies of regions that do not overlap, from memshim_thresholds.nt
 * bytes on, use non-temporal stores in the loop (and an sfence after it):
 * a copy larger than most of the last-level cache would evict everything
 * else to keep data the caller is unlikely to read back soon (folly's and
 * glibc's large-copy paths do the same).  The *_erms rows (the auto
 * policy's choice on ERMS CPUs) copy the band [auto_movsb, nt) of such
 * copies with rep movsb instead of the loop.  Overlapping memmove never
 * takes either path: non-temporal stores are weakly ordered, and rep movsb
 * is slow on overlapping operands.
 *
 * memset has the same size classes with a broadcast vector, its own
 * threshold auto_stosb for rep stosb, and the same non-temporal threshold,
 * from which a CPU row of dispatch/auto_policy.c may ask for rep stosb
 * instead of non-temporal stores (set_beyond_cache).
 *
 * Every piece is forced inline: the base functions contain no call (tests/
 * check-codegen.sh), and the compiler inserts vzeroupper on the paths that
 * used the upper halves of the registers, before returning to code that may
 * use legacy SSE encodings (the AVX-SSE transition penalty). */
#ifndef MEMSHIM_VECTOR_PIECES_H
#define MEMSHIM_VECTOR_PIECES_H

#if !defined(VEC_SIZE) || (VEC_SIZE != 16 && VEC_SIZE != 32 && VEC_SIZE != 64)
#error "define VEC_SIZE and the vec_* primitives before including shim/vector_pieces.h"
#endif

#include "shim/thresholds.h"
#include "shim/copy_pieces.h"
#include "shim/entry_set.h"
#include "shim/rep_string.h"

#include <immintrin.h>
#include <stdbool.h>

#define PIECE static inline __attribute__((always_inline))

/* At or below this many bytes, head and tail blocks; above, the loops. */
#define VEC_LOOP_MIN (8 * VEC_SIZE)

/* Whether a long copy or fill may leave the vector loop for rep movsb / rep stosb. */
enum rep_band { NO_REP_BAND, WITH_REP_BAND };

enum store_kind { CACHED_STORES, STREAMING_STORES };

/* ---- small: below SMALL_BELOW bytes ---- */

#if VEC_SIZE > 16
/* 16..32 bytes with SSE2, which every x86-64 has. */
PIECE void copy_16_to_32(byte *d, const byte *s, size_t n)
{
	__m128i head = _mm_loadu_si128((const __m128i *)s);
	__m128i tail = _mm_loadu_si128((const __m128i *)(s + n - 16));
	_mm_storeu_si128((__m128i *)d, head);
	_mm_storeu_si128((__m128i *)(d + n - 16), tail);
}

PIECE void set_16_to_32(byte *d, int c, size_t n)
{
	__m128i v = _mm_set1_epi8((char)c);
	_mm_storeu_si128((__m128i *)d, v);
	_mm_storeu_si128((__m128i *)(d + n - 16), v);
}

/* 32..64 bytes: two 16-byte head and two tail blocks, every load first. */
PIECE void copy_32_to_64(byte *d, const byte *s, size_t n)
{
	__m128i h0 = _mm_loadu_si128((const __m128i *)s), h1 = _mm_loadu_si128((const __m128i *)(s + 16));
	__m128i t0 = _mm_loadu_si128((const __m128i *)(s + n - 32));
	__m128i t1 = _mm_loadu_si128((const __m128i *)(s + n - 16));
	_mm_storeu_si128((__m128i *)d, h0);
	_mm_storeu_si128((__m128i *)(d + 16), h1);
	_mm_storeu_si128((__m128i *)(d + n - 32), t0);
	_mm_storeu_si128((__m128i *)(d + n - 16), t1);
}

PIECE void set_32_to_64(byte *d, int c, size_t n)
{
	__m128i v = _mm_set1_epi8((char)c);
	_mm_storeu_si128((__m128i *)d, v);
	_mm_storeu_si128((__m128i *)(d + 16), v);
	_mm_storeu_si128((__m128i *)(d + n - 32), v);
	_mm_storeu_si128((__m128i *)(d + n - 16), v);
}
#endif

#ifdef MASKED_BELOW
#define SMALL_BELOW MASKED_BELOW /* shim/vector_masked.h */
PIECE void copy_small(byte *d, const byte *s, size_t n) { copy_masked(d, s, n); }
PIECE void set_small(byte *d, int c, size_t n) { set_masked(d, c, n); }
#elif defined(XMM_BELOW)
/* 16-byte blocks below 64 bytes (shim/vector_avx2_xmm.c): no register
 * upper half touched on the commonest sizes. */
#define SMALL_BELOW XMM_BELOW
PIECE void copy_small(byte *d, const byte *s, size_t n)
{
	if (n < 16)
		copy_upto16(d, s, n);
	else if (n <= 32)
		copy_16_to_32(d, s, n);
	else
		copy_32_to_64(d, s, n);
}

PIECE void set_small(byte *d, int c, size_t n)
{
	if (n < 16)
		set_upto16(d, broadcast_byte(c), n);
	else if (n <= 32)
		set_16_to_32(d, c, n);
	else
		set_32_to_64(d, c, n);
}
#else
#define SMALL_BELOW VEC_SIZE

/* Below one vector: halves of a vector down to 16 bytes, then general-purpose registers. */
PIECE void copy_small(byte *d, const byte *s, size_t n)
{
#if VEC_SIZE > 16
	if (n >= 16) {
		copy_16_to_32(d, s, n);
		return;
	}
#endif
	copy_upto16(d, s, n);
}

PIECE void set_small(byte *d, int c, size_t n)
{
#if VEC_SIZE > 16
	if (n >= 16) {
		set_16_to_32(d, c, n);
		return;
	}
#endif
	set_upto16(d, broadcast_byte(c), n);
}
#endif

#if SMALL_BELOW < VEC_SIZE || SMALL_BELOW > 2 * VEC_SIZE
#error "the head-and-tail pieces take over from SMALL_BELOW: it must lie in [VEC_SIZE, 2 * VEC_SIZE]"
#endif

/* Whether sizes SMALL_BELOW..2V take one head and one tail vector; when
 * small sizes reach 2V, the two-and-two class from 2V on costs no extra
 * size test for the single size 2V. */
#define ONE_PAIR_CLASS (SMALL_BELOW < 2 * VEC_SIZE)


/* ---- blocks of four vectors ---- */

struct vec4 {
	vec v0, v1, v2, v3;
};

PIECE struct vec4 load4(const byte *p)
{
	return (struct vec4){ vec_load(p), vec_load(p + VEC_SIZE), vec_load(p + 2 * VEC_SIZE),
		                  vec_load(p + 3 * VEC_SIZE) };
}

PIECE void store4(byte *p, struct vec4 b)
{
	vec_store(p, b.v0);
	vec_store(p + VEC_SIZE, b.v1);
	vec_store(p + 2 * VEC_SIZE, b.v2);
	vec_store(p + 3 * VEC_SIZE, b.v3);
}

/* p is VEC_SIZE-aligned. */
PIECE void store4_aligned(byte *p, struct vec4 b, enum store_kind kind)
{
	if (kind == STREAMING_STORES) {
		vec_stream(p, b.v0);
		vec_stream(p + VEC_SIZE, b.v1);
		vec_stream(p + 2 * VEC_SIZE, b.v2);
		vec_stream(p + 3 * VEC_SIZE, b.v3);
	} else {
		vec_store_aligned(p, b.v0);
		vec_store_aligned(p + VEC_SIZE, b.v1);
		vec_store_aligned(p + 2 * VEC_SIZE, b.v2);
		vec_store_aligned(p + 3 * VEC_SIZE, b.v3);
	}
}

/* Non-temporal stores are weakly ordered: the fence orders them before any
 * later store, including the caller's (and our own overlapping tail). */
PIECE void finish_stores(enum store_kind kind)
{
	if (kind == STREAMING_STORES)
		_mm_sfence();
}

/* Most calls are small (the fleet distributions, BENCHMARKS.md section 13):
 * their path falls through from the entry, no taken branch. */
PIECE bool likely_small(size_t n) { return __builtin_expect(n < SMALL_BELOW, 1); }

/* ---- copies ---- */

/* SMALL_BELOW..8V bytes, every load before every store: safe for any overlap. */
PIECE void copy_vec_to_8vec(byte *d, const byte *s, size_t n)
{
	if (ONE_PAIR_CLASS && n <= 2 * VEC_SIZE) {
		vec head = vec_load(s), tail = vec_load(s + n - VEC_SIZE);
		vec_store(d, head);
		vec_store(d + n - VEC_SIZE, tail);
	} else if (n <= 4 * VEC_SIZE) {
		vec h0 = vec_load(s), h1 = vec_load(s + VEC_SIZE);
		vec t0 = vec_load(s + n - 2 * VEC_SIZE), t1 = vec_load(s + n - VEC_SIZE);
		vec_store(d, h0);
		vec_store(d + VEC_SIZE, h1);
		vec_store(d + n - 2 * VEC_SIZE, t0);
		vec_store(d + n - VEC_SIZE, t1);
	} else {
		struct vec4 head = load4(s), tail = load4(s + n - 4 * VEC_SIZE);
		store4(d, head);
		store4(d + n - 4 * VEC_SIZE, tail);
	}
}

/* Bytes from p to the next VEC_SIZE boundary, 1..VEC_SIZE: the head vector covers them. */
PIECE size_t bytes_to_next_vec(const byte *p) { return VEC_SIZE - ((uintptr_t)p & (VEC_SIZE - 1)); }

/* More than 8V bytes, low addresses first (see the header comment). */
PIECE void vec_copy_long_forward(byte *d, const byte *s, size_t n, enum store_kind kind)
{
	vec head = vec_load(s);
	struct vec4 tail = load4(s + n - 4 * VEC_SIZE);
	size_t skip = bytes_to_next_vec(d);
	byte *dst = d + skip;
	const byte *src = s + skip;
	for (byte *loop_end = d + n - 4 * VEC_SIZE; dst < loop_end; dst += 4 * VEC_SIZE, src += 4 * VEC_SIZE)
		store4_aligned(dst, load4(src), kind);
	finish_stores(kind);
	store4(d + n - 4 * VEC_SIZE, tail);
	vec_store(d, head);
}

/* More than 8V bytes, high addresses first: memmove with the destination
 * overlapping after the source.  The mirror of vec_copy_long_forward. */
PIECE void vec_copy_long_backward(byte *d, const byte *s, size_t n)
{
	struct vec4 head = load4(s);
	vec tail = vec_load(s + n - VEC_SIZE);
	size_t skip = (uintptr_t)(d + n) & (VEC_SIZE - 1); /* the tail vector covers these */
	byte *dst_end = d + n - skip;
	const byte *src_end = s + n - skip;
	for (byte *loop_end = d + 4 * VEC_SIZE; dst_end > loop_end;) {
		dst_end -= 4 * VEC_SIZE;
		src_end -= 4 * VEC_SIZE;
		store4_aligned(dst_end, load4(src_end), CACHED_STORES);
	}
	store4(d, head);
	vec_store(d + n - VEC_SIZE, tail);
}

/* More than 8V bytes between regions that do not overlap. */
PIECE void vec_copy_long_disjoint(byte *d, const byte *s, size_t n, enum rep_band band)
{
	if (n >= memshim_thresholds.nt)
		vec_copy_long_forward(d, s, n, STREAMING_STORES);
	else if (band == WITH_REP_BAND && n >= memshim_thresholds.auto_movsb)
		rep_movsb(d, s, n);
	else
		vec_copy_long_forward(d, s, n, CACHED_STORES);
}

PIECE void vector_memcpy(byte *d, const byte *s, size_t n, enum rep_band band)
{
	if (likely_small(n))
		copy_small(d, s, n);
	else if (n <= VEC_LOOP_MIN)
		copy_vec_to_8vec(d, s, n);
	else
		vec_copy_long_disjoint(d, s, n, band);
}

PIECE void vector_memmove(byte *d, const byte *s, size_t n, enum rep_band band)
{
	if (likely_small(n))
		copy_small(d, s, n);
	else if (n <= VEC_LOOP_MIN)
		copy_vec_to_8vec(d, s, n);
	else if (overlaps_after_source(d, s, n))
		vec_copy_long_backward(d, s, n);
	else if (overlaps_after_source(s, d, n)) /* the destination overlaps before the source */
		vec_copy_long_forward(d, s, n, CACHED_STORES);
	else
		vec_copy_long_disjoint(d, s, n, band);
}

/* ---- memset ---- */

/* More than 8V bytes: head vector, aligned loop, overlapping last four vectors. */
PIECE void vec_set_long(byte *d, vec v, size_t n, enum store_kind kind)
{
	struct vec4 b = { v, v, v, v };
	vec_store(d, v);
	byte *dst = d + bytes_to_next_vec(d);
	for (byte *loop_end = d + n - 4 * VEC_SIZE; dst < loop_end; dst += 4 * VEC_SIZE)
		store4_aligned(dst, b, kind);
	finish_stores(kind);
	store4(d + n - 4 * VEC_SIZE, b);
}

/* SMALL_BELOW..8V bytes: overlapping head and tail stores, as copy_vec_to_8vec. */
PIECE void set_vec_to_8vec(byte *d, vec v, size_t n)
{
	if (ONE_PAIR_CLASS && n <= 2 * VEC_SIZE) {
		vec_store(d, v);
		vec_store(d + n - VEC_SIZE, v);
	} else if (n <= 4 * VEC_SIZE) {
		vec_store(d, v);
		vec_store(d + VEC_SIZE, v);
		vec_store(d + n - 2 * VEC_SIZE, v);
		vec_store(d + n - VEC_SIZE, v);
	} else {
		struct vec4 b = { v, v, v, v };
		store4(d, b);
		store4(d + n - 4 * VEC_SIZE, b);
	}
}

/* At least memshim_thresholds.nt bytes: where the CPU's row says so, rep
 * stosb (glibc 2.36 fills every size above its rep_stosb_threshold so),
 * else non-temporal stores.  Unlike the *_erms band below nt, this is no
 * choice of the variant but of the CPU: on Zen 4 the string instruction
 * fills 32-64 MiB faster than our streaming loop, hot or cold
 * (BENCHMARKS.md, section 13). */
PIECE void set_beyond_cache(byte *d, int c, size_t n)
{
	if (memshim_thresholds.set_stosb_beyond_nt)
		rep_stosb_keep_rax(d, (byte)c, n);
	else
		vec_set_long(d, vec_broadcast(c), n, STREAMING_STORES);
}

PIECE void vector_memset(byte *d, int c, size_t n, enum rep_band band)
{
	if (likely_small(n))
		set_small(d, c, n);
	else if (n <= VEC_LOOP_MIN)
		set_vec_to_8vec(d, vec_broadcast(c), n);
	else if (n >= memshim_thresholds.nt)
		set_beyond_cache(d, c, n);
	else if (band == WITH_REP_BAND && n >= memshim_thresholds.auto_stosb)
		rep_stosb(d, (byte)c, n);
	else
		vec_set_long(d, vec_broadcast(c), n, CACHED_STORES);
}

/* ---- a variant ---- */

/* The three base functions of variant v and everything MEMSHIM_DERIVED_ENTRIES
 * builds from them; `band` says whether long copies have a rep movsb band. */
/* Puts the return value (the destination) in rax at the first instruction.
 * Left to itself GCC may use rax for the source on the short paths and send
 * them all through a shared "mov %rdi,%rax; ret": one more taken jump on the
 * commonest sizes (BENCHMARKS.md, section 13). */
#define RETURN_VALUE_IN_RAX(d) __asm__("" : "+a"(d))

#define MEMSHIM_VECTOR_VARIANT(v, band)                                                            \
	MEMSHIM_BASE_DECLARATIONS(v);                                                                  \
	void *memshim_memcpy_##v(void *restrict d, const void *restrict s, size_t n)                   \
	{                                                                                              \
		RETURN_VALUE_IN_RAX(d);                                                                    \
		vector_memcpy(d, s, n, band);                                                              \
		return d;                                                                                  \
	}                                                                                              \
	void *memshim_memmove_##v(void *d, const void *s, size_t n)                                    \
	{                                                                                              \
		RETURN_VALUE_IN_RAX(d);                                                                    \
		vector_memmove(d, s, n, band);                                                             \
		return d;                                                                                  \
	}                                                                                              \
	void *memshim_memset_##v(void *d, int c, size_t n)                                             \
	{                                                                                              \
		RETURN_VALUE_IN_RAX(d);                                                                    \
		vector_memset(d, c, n, band);                                                              \
		return d;                                                                                  \
	}                                                                                              \
	MEMSHIM_DERIVED_ENTRIES(v)

#endif
