/* The vector variants' rare paths above eight vectors, written once for
 * any width: what shim/vector_ladder.S leaves to C (non-temporal stores,
 * the rep range of the *_erms twins).
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
 * convenience library per width, its ladder beside it in assembly).
 *
 * Above 8V bytes (V = VEC_SIZE) the loops are the ladder's: load the first
 * vector and the last four, then a loop of four vectors per iteration that
 * stores to a V-aligned destination, then store the saved last four and
 * first vector (the scheme of glibc's memmove-vec-unaligned-erms.S; the
 * code is our own).  Here the forward loop serves the copies from nt
 * bytes on; memmove whose destination overlaps after the source runs the
 * ladder's mirror image at every size.
 *
 * Long copies of regions that do not overlap, from memshim_thresholds.nt
 * bytes on, use non-temporal stores in the loop (and an sfence after it):
 * a copy larger than most of the last-level cache would evict everything
 * else to keep data the caller is unlikely to read back soon (folly's and
 * glibc's large-copy paths do the same).  The *_erms variants copy the range
 * [movsb, nt) of such copies with rep movsb instead of the loop.
 * Overlapping memmove never takes non-temporal stores, which are weakly
 * ordered; it takes rep movsb only forward, with the destination at least
 * 64 bytes before the source, as glibc 2.36 does.
 *
 * memset has the same loop with a broadcast vector, its own threshold
 * stosb for rep stosb, and the same non-temporal threshold, from
 * which a CPU row (dispatch/builtin.c) may ask for rep stosb instead
 * of non-temporal stores (set_beyond_cache).
 *
 * The compiler inserts vzeroupper on the paths that used the upper halves
 * of the registers. */
#ifndef MEMSHIM_VECTOR_PIECES_H
#define MEMSHIM_VECTOR_PIECES_H

#if !defined(VEC_SIZE) || (VEC_SIZE != 16 && VEC_SIZE != 32 && VEC_SIZE != 64)
#error "define VEC_SIZE and the vec_* primitives before including shim/vector_pieces.h"
#endif

#include "shim/thresholds.h"
#include "shim/copy_pieces.h"
#include "shim/rep_string.h"

#include <immintrin.h>
#include <stdbool.h>

#define PIECE static inline __attribute__((always_inline))

enum store_kind { CACHED_STORES, STREAMING_STORES };

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

/* Bytes from p to the next VEC_SIZE boundary, 1..VEC_SIZE: the head vector covers them. */
PIECE size_t bytes_to_next_vec(const byte *p) { return VEC_SIZE - ((uintptr_t)p & (VEC_SIZE - 1)); }

/* ---- copies ---- */

/* More than 8V bytes, low addresses first (see the header comment).  The
 * loop runs at least once (8V > 4V + V), so it needs no test before it. */
PIECE void vec_copy_long_forward(byte *d, const byte *s, size_t n, enum store_kind kind)
{
	vec head = vec_load(s);
	struct vec4 tail = load4(s + n - 4 * VEC_SIZE);
	size_t skip = bytes_to_next_vec(d);
	byte *dst = d + skip, *loop_end = d + n - 4 * VEC_SIZE;
	const byte *src = s + skip;
	do {
		store4_aligned(dst, load4(src), kind);
		dst += 4 * VEC_SIZE;
		src += 4 * VEC_SIZE;
	} while (dst < loop_end);
	finish_stores(kind);
	store4(d + n - 4 * VEC_SIZE, tail);
	vec_store(d, head);
}

/* rep movsb to a destination on a 64-byte line, as glibc 2.36 does (D15):
 * the bytes before the line, at most 64, are loaded first and stored after
 * it, which is right too where the destination lies 64 bytes or more
 * before the source. */
#define LINE_BYTES 64
PIECE void rep_movsb_to_line(byte *d, const byte *s, size_t n)
{
	vec head[LINE_BYTES / VEC_SIZE];
	for (int i = 0; i < LINE_BYTES / VEC_SIZE; i++)
		head[i] = vec_load(s + i * VEC_SIZE);
	size_t skip = LINE_BYTES - ((uintptr_t)d & (LINE_BYTES - 1));
	rep_movsb(d + skip, s + skip, n - skip);
	for (int i = 0; i < LINE_BYTES / VEC_SIZE; i++)
		vec_store(d + i * VEC_SIZE, head[i]);
}

/* Whether the rep range of the *_erms twins, which the ladder leaves for
 * from movsb on, has ended at n bytes: from movsb_stop on (where
 * one is set) the cached loop copies again, up to nt. */
PIECE bool past_rep_range(size_t n)
{
	return memshim_thresholds.movsb_stop && n >= memshim_thresholds.movsb_stop;
}

/* memcpy above 8V bytes, past the cached loop: from nt bytes on
 * non-temporal stores, else (the *_erms twins) rep movsb, or past its rep range
 * the cached loop. */
PIECE void vec_copy_beyond_loop(byte *d, const byte *s, size_t n)
{
	if (n >= memshim_thresholds.nt)
		vec_copy_long_forward(d, s, n, STREAMING_STORES);
	else if (past_rep_range(n))
		vec_copy_long_forward(d, s, n, CACHED_STORES);
	else
		rep_movsb_to_line(d, s, n);
}

/* rep movsb copies forward correctly when the destination lies before the
 * source; glibc 2.36 takes it for such copies from this distance on, the
 * loop below it, and so do we. */
#define REP_MOVSB_LEAST_DISTANCE 64

/* memmove above 8V bytes that the ladder's loops do not take: one past
 * their thresholds whose destination does not overlap after the source
 * (the ladder copies those backward).  One that overlaps before the source
 * runs forward: by rep movsb below nt (only the rep range of the *_erms
 * twins leaves such a copy below nt), else in the loop's way. */
PIECE void vec_move_long(byte *d, const byte *s, size_t n)
{
	size_t ahead = (uintptr_t)s - (uintptr_t)d;
	if (ahead >= n)
		vec_copy_beyond_loop(d, s, n);
	else if (n < memshim_thresholds.nt && !past_rep_range(n) && ahead >= REP_MOVSB_LEAST_DISTANCE)
		rep_movsb_to_line(d, s, n);
	else
		vec_copy_long_forward(d, s, n, CACHED_STORES);
}

/* ---- memset ---- */

/* More than 8V bytes: head vector, aligned loop (at least once), overlapping last four vectors. */
PIECE void vec_set_long(byte *d, vec v, size_t n, enum store_kind kind)
{
	struct vec4 b = { v, v, v, v };
	vec_store(d, v);
	byte *dst = d + bytes_to_next_vec(d), *loop_end = d + n - 4 * VEC_SIZE;
	do {
		store4_aligned(dst, b, kind);
		dst += 4 * VEC_SIZE;
	} while (dst < loop_end);
	finish_stores(kind);
	store4(d + n - 4 * VEC_SIZE, b);
}

/* At least memshim_thresholds.nt bytes: where the CPU's row says so, rep
 * stosb (glibc 2.36 fills every size above its rep_stosb_threshold so),
 * else non-temporal stores.  Unlike the *_erms rep range below nt, this is no
 * choice of the variant but of the CPU (D16). */
PIECE void set_beyond_cache(byte *d, int c, size_t n)
{
	if (memshim_thresholds.set_stosb_beyond_nt)
		rep_stosb_keep_rax(d, (byte)c, n);
	else
		vec_set_long(d, vec_broadcast(c), n, STREAMING_STORES);
}

/* memset past the ladder's loop: from nt bytes on set_beyond_cache, else
 * (the *_erms twins) rep stosb.  The twins' rep range leaves the ladder
 * above 2V, before its test against 8V, and set_beyond_cache's loop needs
 * more than 8V: a calibration file may put both thresholds that low. */
PIECE void vec_set_beyond_loop(byte *d, int c, size_t n)
{
	if (n >= memshim_thresholds.nt && n > 8 * VEC_SIZE)
		set_beyond_cache(d, c, n);
	else
		rep_stosb(d, (byte)c, n);
}

/* ---- a variant ---- */

/* Puts the return value (the destination) in rax at the first instruction:
 * the ladder set it, and each of these is reached by a jump from there. */
#define RETURN_VALUE_IN_RAX(d) __asm__("" : "+a"(d))

/* What shim/vector_ladder.S leaves to C above eight vectors for variant v.
 * The entry points derived from its three base functions are in
 * shim/vector_entries.c: they call the ladder, which calls these. */
#define MEMSHIM_VECTOR_VARIANT(v)                                                            \
	__attribute__((visibility("hidden"))) void *memshim_copy_long_##v(void *d, const void *s, size_t n); \
	__attribute__((visibility("hidden"))) void *memshim_move_long_##v(void *d, const void *s, size_t n); \
	__attribute__((visibility("hidden"))) void *memshim_set_long_##v(void *d, int c, size_t n);    \
	void *memshim_copy_long_##v(void *d, const void *s, size_t n)                                  \
	{                                                                                              \
		RETURN_VALUE_IN_RAX(d);                                                                    \
		vec_copy_beyond_loop(d, s, n);                                                              \
		return d;                                                                                  \
	}                                                                                              \
	void *memshim_move_long_##v(void *d, const void *s, size_t n)                                  \
	{                                                                                              \
		RETURN_VALUE_IN_RAX(d);                                                                    \
		vec_move_long(d, s, n);                                                              \
		return d;                                                                                  \
	}                                                                                              \
	void *memshim_set_long_##v(void *d, int c, size_t n)                                           \
	{                                                                                              \
		RETURN_VALUE_IN_RAX(d);                                                                    \
		vec_set_beyond_loop(d, c, n);                                                         \
		return d;                                                                                  \
	}

#endif
