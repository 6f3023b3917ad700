/* One variant's implementation of every name the library exports.
 *
 * A variant writes three functions, memshim_{memcpy,memmove,memset}_<v>;
 * MEMSHIM_DERIVED_ENTRIES(v) builds the rest from them (mempcpy, the fortify
 * _chk checks, bcopy, bzero, explicit_bzero) and the entry_set that the
 * dispatch table points to.  The exported memcpy, mempcpy, __memcpy_chk ...
 * each resolve to one member of the entry_set chosen for their base function. */
#ifndef MEMSHIM_ENTRY_SET_H
#define MEMSHIM_ENTRY_SET_H

#include "shim/memshim.h" /* its declarations are checked against the definitions here */

#include <stddef.h>

#define MEMSHIM_EXPORT __attribute__((visibility("default")))

typedef void *memcpy_fn(void *restrict, const void *restrict, size_t);
typedef void *memcpy_chk_fn(void *restrict, const void *restrict, size_t, size_t);
typedef void *memmove_fn(void *, const void *, size_t);
typedef void *memmove_chk_fn(void *, const void *, size_t, size_t);
typedef void bcopy_fn(const void *, void *, size_t);
typedef void *memset_fn(void *, int, size_t);
typedef void *memset_chk_fn(void *, int, size_t, size_t);
typedef void bzero_fn(void *, size_t);
typedef void bzero_chk_fn(void *, size_t, size_t);

struct entry_set {
	/* follow the memcpy choice */
	memcpy_fn *memcpy, *mempcpy;
	memcpy_chk_fn *memcpy_chk, *mempcpy_chk;
	/* follow the memmove choice */
	memmove_fn *memmove;
	memmove_chk_fn *memmove_chk;
	bcopy_fn *bcopy;
	/* follow the memset choice */
	memset_fn *memset;
	memset_chk_fn *memset_chk;
	bzero_fn *bzero, *explicit_bzero;
	bzero_chk_fn *explicit_bzero_chk;
};

/* glibc's report of a fortify failure: prints "buffer overflow detected" and aborts. */
extern void __chk_fail(void) __attribute__((noreturn));

/* Keeps the compiler from dropping stores that nothing reads afterwards. */
#define MEMSHIM_KEEP_STORES(p) __asm__ volatile("" : : "r"(p) : "memory")

#define MEMSHIM_DERIVED_ENTRIES(v)                                                                 \
	MEMSHIM_EXPORT void *memshim_mempcpy_##v(void *restrict d, const void *restrict s, size_t n)   \
	{                                                                                              \
		return (char *)memshim_memcpy_##v(d, s, n) + n;                                            \
	}                                                                                              \
	MEMSHIM_EXPORT void *memshim_memcpy_chk_##v(void *restrict d, const void *restrict s, size_t n, \
	                                            size_t room)                                       \
	{                                                                                              \
		if (n > room)                                                                              \
			__chk_fail();                                                                          \
		return memshim_memcpy_##v(d, s, n);                                                        \
	}                                                                                              \
	MEMSHIM_EXPORT void *memshim_mempcpy_chk_##v(void *restrict d, const void *restrict s,         \
	                                             size_t n, size_t room)                            \
	{                                                                                              \
		if (n > room)                                                                              \
			__chk_fail();                                                                          \
		return memshim_mempcpy_##v(d, s, n);                                                       \
	}                                                                                              \
	MEMSHIM_EXPORT void *memshim_memmove_chk_##v(void *d, const void *s, size_t n, size_t room)    \
	{                                                                                              \
		if (n > room)                                                                              \
			__chk_fail();                                                                          \
		return memshim_memmove_##v(d, s, n);                                                       \
	}                                                                                              \
	MEMSHIM_EXPORT void memshim_bcopy_##v(const void *s, void *d, size_t n)                        \
	{                                                                                              \
		memshim_memmove_##v(d, s, n);                                                              \
	}                                                                                              \
	MEMSHIM_EXPORT void *memshim_memset_chk_##v(void *d, int c, size_t n, size_t room)             \
	{                                                                                              \
		if (n > room)                                                                              \
			__chk_fail();                                                                          \
		return memshim_memset_##v(d, c, n);                                                        \
	}                                                                                              \
	MEMSHIM_EXPORT void memshim_bzero_##v(void *d, size_t n)                                       \
	{                                                                                              \
		memshim_memset_##v(d, 0, n);                                                               \
	}                                                                                              \
	MEMSHIM_EXPORT void memshim_explicit_bzero_##v(void *d, size_t n)                              \
	{                                                                                              \
		memshim_memset_##v(d, 0, n);                                                               \
		MEMSHIM_KEEP_STORES(d);                                                                    \
	}                                                                                              \
	MEMSHIM_EXPORT void memshim_explicit_bzero_chk_##v(void *d, size_t n, size_t room)             \
	{                                                                                              \
		if (n > room)                                                                              \
			__chk_fail();                                                                          \
		memshim_explicit_bzero_##v(d, n);                                                          \
	}                                                                                              \
	const struct entry_set memshim_entries_##v = {                                                 \
		.memcpy = memshim_memcpy_##v,                                                              \
		.mempcpy = memshim_mempcpy_##v,                                                            \
		.memcpy_chk = memshim_memcpy_chk_##v,                                                      \
		.mempcpy_chk = memshim_mempcpy_chk_##v,                                                    \
		.memmove = memshim_memmove_##v,                                                            \
		.memmove_chk = memshim_memmove_chk_##v,                                                    \
		.bcopy = memshim_bcopy_##v,                                                                \
		.memset = memshim_memset_##v,                                                              \
		.memset_chk = memshim_memset_chk_##v,                                                      \
		.bzero = memshim_bzero_##v,                                                                \
		.explicit_bzero = memshim_explicit_bzero_##v,                                              \
		.explicit_bzero_chk = memshim_explicit_bzero_chk_##v,                                      \
	}

/* The base functions a variant writes, declared for it. */
#define MEMSHIM_BASE_DECLARATIONS(v)                                                               \
	MEMSHIM_EXPORT memcpy_fn memshim_memcpy_##v;                                                   \
	MEMSHIM_EXPORT memmove_fn memshim_memmove_##v;                                                 \
	MEMSHIM_EXPORT memset_fn memshim_memset_##v;                                                   \
	MEMSHIM_EXPORT memcpy_fn memshim_mempcpy_##v

#endif
