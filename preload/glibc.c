/* glibc: the C library's own functions, exported under memshim_<fn>_glibc
 * like every other variant.  Each is an indirect function resolving to the
 * C library's definition itself (dispatch/variants.c looks them up), so
 * calling memshim_memcpy_glibc costs exactly glibc's memcpy. */
#include "dispatch/variants.h"

extern const struct entry_set memshim_entries_scalar;

/* Without a C library definition to find (not glibc, or a static program),
 * the names still resolve to working code rather than to NULL. */
static const struct entry_set *glibc(void)
{
	const struct entry_set *found = variant_named("glibc")->entries();
	return found ? found : &memshim_entries_scalar;
}

#define EXPORT_GLIBC(member, type)                                                                 \
	static type *resolve_glibc_##member(void)                                                      \
	{                                                                                              \
		return glibc()->member;                                                                    \
	}                                                                                              \
	MEMSHIM_EXPORT type memshim_##member##_glibc __attribute__((ifunc("resolve_glibc_" #member)))

EXPORT_GLIBC(memcpy, memcpy_fn);
EXPORT_GLIBC(mempcpy, memcpy_fn);
EXPORT_GLIBC(memcpy_chk, memcpy_chk_fn);
EXPORT_GLIBC(mempcpy_chk, memcpy_chk_fn);
EXPORT_GLIBC(memmove, memmove_fn);
EXPORT_GLIBC(memmove_chk, memmove_chk_fn);
EXPORT_GLIBC(bcopy, bcopy_fn);
EXPORT_GLIBC(memset, memset_fn);
EXPORT_GLIBC(memset_chk, memset_chk_fn);
EXPORT_GLIBC(bzero, bzero_fn);
EXPORT_GLIBC(explicit_bzero, bzero_fn);
EXPORT_GLIBC(explicit_bzero_chk, bzero_chk_fn);
