/* memshim's public interface, for programs that call a variant directly
 * (compile and link with `pkg-config --cflags --libs memshim`).
 *
 * Every variant V is exported as memshim_<function>_V, with the signature of
 * the C library function of that name; the _chk forms are the fortify checks
 * (__memcpy_chk and the rest): they abort when n exceeds dst_size.  A
 * variant the CPU cannot run (memshim_variant_usable) must not be called:
 * it would end in SIGILL.  The glibc variant is the C library's own
 * function. */
#ifndef MEMSHIM_H
#define MEMSHIM_H

#include <stddef.h>

/* `restrict` is C only; GCC and Clang take __restrict in C and C++ alike. */
#define MEMSHIM_RESTRICT __restrict

#ifdef __cplusplus
extern "C" {
#endif

/* The name of variant number i (0, 1, ...), or NULL past the last one. */
const char *memshim_variant_name(unsigned i);

/* Nonzero when variant number i can run on this CPU, OS and C library. */
int memshim_variant_usable(unsigned i);

/* The size thresholds the variants read, in bytes (memshim info lists
 * them with the variables that set them). */
struct memshim_threshold_values {
	size_t movsb, stosb;     /* rep movsb / rep stosb from these sizes on (erms; the *_erms variants past 8 vectors) */
	size_t nt;               /* non-temporal stores from this size on */
	size_t movsb_stop;       /* the *_erms variants: rep movsb up to here; 0: up to nt */
	int set_stosb_beyond_nt; /* memset from nt on: rep stosb, not non-temporal stores */
};

/* For measurement only: every variant of this process reads t from now on,
 * or, t NULL, again the thresholds the library resolved at start-up.  The
 * one way to change them after start-up: memshim's tools time a variant
 * under thresholds of their choosing so, between their timed calls (it
 * must not run while another thread copies). */
void memshim_measure_thresholds(const struct memshim_threshold_values *t);

/* The thresholds as the variants read them now, into *t: the process's
 * configuration (variables, calibration file, CPU row, built-in values),
 * or what memshim_measure_thresholds last set.  memshim bench writes them
 * beside its figures. */
void memshim_get_threshold_values(struct memshim_threshold_values *t);

/* The twelve entry points, in the order of struct entry_set
 * (shim/entry_set.h) and of the dumps.  MEMSHIM_ENTRY_POINTS(X, V) calls
 *
 *   X(V, entry, symbol, base, size_register, id, return_type, parameters)
 *
 * once for each: memshim_<entry>_V has the signature of the C library's
 * <symbol> (the _chk forms: the fortify checks, aborting when n exceeds
 * dst_size), follows the choice for base function <base> (memcpy, memmove
 * or memset), takes its size in <size_register>, and is counted in dumps
 * as <id>.  The exported memcpy, __memcpy_chk ... (and glibc's alias
 * __mempcpy) are these symbols. */
#define MEMSHIM_ENTRY_POINTS(X, V)                                                                  \
	X(V, memcpy, memcpy, FN_MEMCPY, rdx, E_MEMCPY, void *,                                          \
	  (void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n))                     \
	X(V, mempcpy, mempcpy, FN_MEMCPY, rdx, E_MEMPCPY, void *,                                       \
	  (void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n))                     \
	X(V, memcpy_chk, __memcpy_chk, FN_MEMCPY, rdx, E_MEMCPY_CHK, void *,                            \
	  (void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size))    \
	X(V, mempcpy_chk, __mempcpy_chk, FN_MEMCPY, rdx, E_MEMPCPY_CHK, void *,                         \
	  (void *MEMSHIM_RESTRICT dst, const void *MEMSHIM_RESTRICT src, size_t n, size_t dst_size))    \
	X(V, memmove, memmove, FN_MEMMOVE, rdx, E_MEMMOVE, void *, (void *dst, const void *src, size_t n)) \
	X(V, memmove_chk, __memmove_chk, FN_MEMMOVE, rdx, E_MEMMOVE_CHK, void *,                        \
	  (void *dst, const void *src, size_t n, size_t dst_size))                                      \
	X(V, bcopy, bcopy, FN_MEMMOVE, rdx, E_BCOPY, void, (const void *src, void *dst, size_t n))      \
	X(V, memset, memset, FN_MEMSET, rdx, E_MEMSET, void *, (void *dst, int c, size_t n))            \
	X(V, memset_chk, __memset_chk, FN_MEMSET, rdx, E_MEMSET_CHK, void *,                            \
	  (void *dst, int c, size_t n, size_t dst_size))                                                \
	X(V, bzero, bzero, FN_MEMSET, rsi, E_BZERO, void, (void *dst, size_t n))                        \
	X(V, explicit_bzero, explicit_bzero, FN_MEMSET, rsi, E_EXPLICIT_BZERO, void, (void *dst, size_t n)) \
	X(V, explicit_bzero_chk, __explicit_bzero_chk, FN_MEMSET, rsi, E_EXPLICIT_BZERO_CHK, void,      \
	  (void *dst, size_t n, size_t dst_size))

/* Every entry point of every variant (memshim_variants.h lists them). */
#define MEMSHIM_DECLARE_ENTRY(V, entry, symbol, base, size_register, id, return_type, parameters)  \
	return_type memshim_##entry##_##V parameters;
#define MEMSHIM_VARIANT(name, ...) MEMSHIM_ENTRY_POINTS(MEMSHIM_DECLARE_ENTRY, name)
#include "memshim_variants.h"
#undef MEMSHIM_VARIANT
#undef MEMSHIM_DECLARE_ENTRY

#ifdef __cplusplus
}
#endif

#endif
