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

/* memcpy_fn, mempcpy_fn, ..., explicit_bzero_chk_fn: each entry point's type. */
#define MEMSHIM_ENTRY_TYPE(v, entry, symbol, base, size_register, id, return_type, parameters)     \
	typedef return_type entry##_fn parameters;
MEMSHIM_ENTRY_POINTS(MEMSHIM_ENTRY_TYPE, )
#undef MEMSHIM_ENTRY_TYPE

/* One member per entry point, named after it; each follows the choice of
 * its base function. */
#define MEMSHIM_ENTRY_MEMBER(v, entry, ...) entry##_fn *entry;
struct entry_set {
	MEMSHIM_ENTRY_POINTS(MEMSHIM_ENTRY_MEMBER, )
};
#undef MEMSHIM_ENTRY_MEMBER

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
	const struct entry_set memshim_entries_##v = { MEMSHIM_ENTRY_POINTS(MEMSHIM_ENTRY_OF, v) }

/* The member initialiser of entry point `entry` of variant v. */
#define MEMSHIM_ENTRY_OF(v, entry, ...) .entry = memshim_##entry##_##v,

/* The base functions a variant writes, declared for it. */
#define MEMSHIM_BASE_DECLARATIONS(v)                                                               \
	MEMSHIM_EXPORT memcpy_fn memshim_memcpy_##v;                                                   \
	MEMSHIM_EXPORT memmove_fn memshim_memmove_##v;                                                 \
	MEMSHIM_EXPORT memset_fn memshim_memset_##v;                                                   \
	MEMSHIM_EXPORT memcpy_fn memshim_mempcpy_##v

#endif
