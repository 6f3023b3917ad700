/* The exported functions: each a GNU indirect function whose resolver picks
 * the chosen variant's implementation once, when the dynamic linker binds
 * the call.  After that a call costs exactly the variant: no trampoline, no
 * per-call look at the configuration.
 *
 * The resolvers and everything they call use no C library function and no
 * memcpy: with -z now they run while the dynamic linker is still relocating
 * the program (see dispatch/early_env.h). */
#include "dispatch/config.h"
#include "dispatch/resolve.h"
#include "shim/hist_dump.h"

#include <string.h>
#include <strings.h>

/* glibc's headers declare these only under _FORTIFY_SOURCE. */
extern void *__memcpy_chk(void *, const void *, size_t, size_t);
extern void *__mempcpy_chk(void *, const void *, size_t, size_t);
extern void *__memmove_chk(void *, const void *, size_t, size_t);
extern void *__memset_chk(void *, int, size_t, size_t);
extern void __explicit_bzero_chk(void *, size_t, size_t);
extern void *__mempcpy(void *, const void *, size_t);

#define EXPORT_IFUNC(symbol, fn, member)                                                            \
	static __typeof__(symbol) *resolve_##symbol(void)                                             \
	{                                                                                             \
		return resolve_entries(fn)->member;                                                       \
	}                                                                                             \
	extern __typeof__(symbol) symbol __attribute__((ifunc("resolve_" #symbol),                  \
	                                               visibility("default")))

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
