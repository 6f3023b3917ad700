/* Small named pieces the variants are built from, in general-purpose registers.
 *
 * The idea of composing copies from head/tail and loop-and-tail pieces is
 * LLVM libc's (libc/src/string/memory_utils); the pieces here are our own.
 *
 * Every piece that handles a whole short copy loads all its source bytes
 * before it stores any, so it is correct for any overlap of source and
 * destination: memmove needs no direction test below LONG_COPY_MIN bytes.
 *
 * The long loops store to an 8-byte-aligned destination (unaligned
 * destination stores lost much of the throughput on AMD in "x86: add back
 * the alignment of the destination to 8 bytes in copy_user_generic()",
 * LKML, 2025) and finish with
 * one overlapping block instead of a byte loop, as the kernel's copy
 * routines do. */
#ifndef MEMSHIM_COPY_PIECES_H
#define MEMSHIM_COPY_PIECES_H

#include <stddef.h>
#include <stdint.h>

typedef unsigned char byte;

/* Unaligned, alias-free scalar access: plain moves, never a library call. */
typedef uint64_t __attribute__((aligned(1), may_alias)) unaligned_u64;
typedef uint32_t __attribute__((aligned(1), may_alias)) unaligned_u32;
typedef uint16_t __attribute__((aligned(1), may_alias)) unaligned_u16;

static inline uint64_t load8(const byte *p) { return *(const unaligned_u64 *)p; }
static inline void store8(byte *p, uint64_t v) { *(unaligned_u64 *)p = v; }

/* 32 bytes in four registers. */
struct block32 {
	uint64_t w0, w1, w2, w3;
};

static inline struct block32 load32(const byte *p)
{
	return (struct block32){ load8(p), load8(p + 8), load8(p + 16), load8(p + 24) };
}

static inline void store32(byte *p, struct block32 b)
{
	store8(p, b.w0);
	store8(p + 8, b.w1);
	store8(p + 16, b.w2);
	store8(p + 24, b.w3);
}

/* Above this many bytes a copy runs a loop; at or below it, head and tail pieces. */
#define LONG_COPY_MIN 64

/* 0..16 bytes: two overlapping moves of the largest width that fits. */
static inline void copy_upto16(byte *d, const byte *s, size_t n)
{
	if (n >= 8) {
		uint64_t head = load8(s), tail = load8(s + n - 8);
		store8(d, head);
		store8(d + n - 8, tail);
	} else if (n >= 4) {
		uint32_t head = *(const unaligned_u32 *)s, tail = *(const unaligned_u32 *)(s + n - 4);
		*(unaligned_u32 *)d = head;
		*(unaligned_u32 *)(d + n - 4) = tail;
	} else if (n >= 2) {
		uint16_t head = *(const unaligned_u16 *)s, tail = *(const unaligned_u16 *)(s + n - 2);
		*(unaligned_u16 *)d = head;
		*(unaligned_u16 *)(d + n - 2) = tail;
	} else if (n == 1) {
		*d = *s;
	}
}

/* 0..64 bytes: head and tail pieces of 16 or 32 bytes, overlapping in the middle. */
static inline void copy_short(byte *d, const byte *s, size_t n)
{
	if (n <= 16) {
		copy_upto16(d, s, n);
	} else if (n <= 32) {
		uint64_t h0 = load8(s), h1 = load8(s + 8);
		uint64_t t0 = load8(s + n - 16), t1 = load8(s + n - 8);
		store8(d, h0);
		store8(d + 8, h1);
		store8(d + n - 16, t0);
		store8(d + n - 8, t1);
	} else {
		struct block32 head = load32(s), tail = load32(s + n - 32);
		store32(d, head);
		store32(d + n - 32, tail);
	}
}

/* Bytes from d to the next 8-byte boundary, 1..8: the head word covers them. */
static inline size_t bytes_to_next_word(const byte *d) { return 8 - ((uintptr_t)d & 7); }

/* More than 64 bytes, low addresses first: correct when d is before s or
 * they do not overlap.  The head word and the tail block are loaded before
 * the loop and stored after it, so the loop never reads a source byte that
 * an earlier store has overwritten. */
static inline void copy_long_forward(byte *d, const byte *s, size_t n)
{
	uint64_t head = load8(s);
	struct block32 tail = load32(s + n - 32);
	size_t skip = bytes_to_next_word(d);
	byte *dst = d + skip;
	const byte *src = s + skip;
	for (byte *loop_end = d + n - 32; dst < loop_end; dst += 32, src += 32)
		store32(dst, load32(src));
	store32(d + n - 32, tail);
	store8(d, head);
}

/* More than 64 bytes, high addresses first: for d after s, overlapping.
 * The mirror of copy_long_forward. */
static inline void copy_long_backward(byte *d, const byte *s, size_t n)
{
	struct block32 head = load32(s);
	uint64_t tail = load8(s + n - 8);
	size_t skip = ((uintptr_t)(d + n) & 7) ? ((uintptr_t)(d + n) & 7) : 8;
	byte *dst_end = d + n - skip;
	const byte *src_end = s + n - skip;
	while (dst_end > d + 32) {
		dst_end -= 32;
		src_end -= 32;
		store32(dst_end, load32(src_end));
	}
	store32(d, head);
	store8(d + n - 8, tail);
}

/* True when copying low addresses first would overwrite source bytes before
 * reading them: d lies inside (s, s + n). */
static inline int overlaps_after_source(const byte *d, const byte *s, size_t n)
{
	size_t gap = (uintptr_t)d - (uintptr_t)s;
	return gap != 0 && gap < n;
}

/* memcpy and forward-safe memmove of any size in general-purpose registers. */
static inline void copy_forward(byte *d, const byte *s, size_t n)
{
	if (n <= LONG_COPY_MIN)
		copy_short(d, s, n);
	else
		copy_long_forward(d, s, n);
}

/* The copy of a memmove whose destination overlaps after its source. */
static inline void copy_backward(byte *d, const byte *s, size_t n)
{
	if (n <= LONG_COPY_MIN)
		copy_short(d, s, n);
	else
		copy_long_backward(d, s, n);
}

/* The byte c in every byte of a word. */
static inline uint64_t broadcast_byte(int c) { return 0x0101010101010101ull * (byte)c; }

/* 0..16 bytes of the word v: two overlapping stores of the largest width that fits. */
static inline void set_upto16(byte *d, uint64_t v, size_t n)
{
	if (n >= 8) {
		store8(d, v);
		store8(d + n - 8, v);
	} else if (n >= 4) {
		*(unaligned_u32 *)d = (uint32_t)v;
		*(unaligned_u32 *)(d + n - 4) = (uint32_t)v;
	} else if (n >= 2) {
		*(unaligned_u16 *)d = (uint16_t)v;
		*(unaligned_u16 *)(d + n - 2) = (uint16_t)v;
	} else if (n == 1) {
		*d = (byte)v;
	}
}

/* 0..64 bytes of the word v: overlapping head and tail stores. */
static inline void set_short(byte *d, uint64_t v, size_t n)
{
	if (n >= 32) {
		struct block32 b = { v, v, v, v };
		store32(d, b);
		store32(d + n - 32, b);
	} else if (n >= 16) {
		store8(d, v);
		store8(d + 8, v);
		store8(d + n - 16, v);
		store8(d + n - 8, v);
	} else {
		set_upto16(d, v, n);
	}
}

/* More than 64 bytes: head word, aligned 32-byte loop, overlapping tail block. */
static inline void set_long(byte *d, uint64_t v, size_t n)
{
	struct block32 b = { v, v, v, v };
	store8(d, v);
	byte *dst = d + bytes_to_next_word(d);
	for (byte *loop_end = d + n - 32; dst < loop_end; dst += 32)
		store32(dst, b);
	store32(d + n - 32, b);
}

static inline void set_any(byte *d, int c, size_t n)
{
	uint64_t v = broadcast_byte(c);
	if (n <= LONG_COPY_MIN)
		set_short(d, v, n);
	else
		set_long(d, v, n);
}

#endif
