/* The exported functions: each a jump through a slot whose resolver picks
 * the chosen variant's implementation once, when the dynamic linker
 * relocates this library (dispatch/export_stub.h says why not a plain
 * indirect function).  After that a call costs the variant and one
 * predicted indirect jump: no per-call look at the configuration.
 *
 * The resolvers and everything they call use no C library function and no
 * memcpy: with -z now they run while the dynamic linker is still relocating
 * the program (see dispatch/early_env.h). */
#include "dispatch/config.h"
#include "dispatch/export_stub.h"
#include "shim/banded.h"
#include "shim/hist_dump.h"
#include "shim/record.h"

#include <string.h>
#include <strings.h>

/* glibc's headers declare these only under _FORTIFY_SOURCE. */
extern void *__memcpy_chk(void *, const void *, size_t, size_t);
extern void *__mempcpy_chk(void *, const void *, size_t, size_t);
extern void *__memmove_chk(void *, const void *, size_t, size_t);
extern void *__memset_chk(void *, int, size_t, size_t);
extern void __explicit_bzero_chk(void *, size_t, size_t);
extern void *__mempcpy(void *, const void *, size_t);

/* The entry set every name that follows fn is taken from: the chosen
 * variant's or band dispatcher's, or, when recording, the recording
 * wrappers around it. */
static const struct entry_set *exported_entries(enum base_function fn)
{
	const struct config *c = config_get();
	const struct entry_set *chosen = banded_entries(fn, &c->choice[fn].bands);
	return c->hist_path[0] ? record_entries(fn, chosen) : chosen;
}

#define EXPORT_IFUNC(symbol, fn, member)                                                            \
	static __typeof__(symbol) *resolve_##symbol(void)                                             \
	{                                                                                             \
		return exported_entries(fn)->member;                                                      \
	}                                                                                             \
	MEMSHIM_EXPORT_STUB(symbol, resolve_##symbol)

EXPORT_IFUNC(memcpy, FN_MEMCPY, memcpy);
EXPORT_IFUNC(mempcpy, FN_MEMCPY, mempcpy);
EXPORT_IFUNC(__mempcpy, FN_MEMCPY, mempcpy);
EXPORT_IFUNC(__memcpy_chk, FN_MEMCPY, memcpy_chk);
EXPORT_IFUNC(__mempcpy_chk, FN_MEMCPY, mempcpy_chk);

EXPORT_IFUNC(memmove, FN_MEMMOVE, memmove);
EXPORT_IFUNC(__memmove_chk, FN_MEMMOVE, memmove_chk);
EXPORT_IFUNC(bcopy, FN_MEMMOVE, bcopy);

EXPORT_IFUNC(memset, FN_MEMSET, memset);
EXPORT_IFUNC(__memset_chk, FN_MEMSET, memset_chk);
EXPORT_IFUNC(bzero, FN_MEMSET, bzero);
EXPORT_IFUNC(explicit_bzero, FN_MEMSET, explicit_bzero);
EXPORT_IFUNC(__explicit_bzero_chk, FN_MEMSET, explicit_bzero_chk);

/* Reads the configuration before main() even if nothing has been bound yet
 * (lazy binding), so problems are reported at start and a program that
 * later rewrites its environment area (setproctitle) cannot change it. */
__attribute__((constructor(101))) static void read_configuration_early(void)
{
	config_get();
	hist_dump_start();
}

#include "shim/memshim.h"

MEMSHIM_EXPORT const char *memshim_variant_name(unsigned i)
{
	return i < variant_count ? variant_table[i].name : NULL;
}

MEMSHIM_EXPORT int memshim_variant_usable(unsigned i)
{
	return i < variant_count && variant_usable(&variant_table[i]);
}
