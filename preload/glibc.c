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
	const struct entry_set *found = VARIANT(glibc)->entries();
	return found ? found : &memshim_entries_scalar;
}

#define EXPORT_GLIBC(member, type)                                                                 \
	static type *resolve_glibc_##member(void)                                                      \
	{                                                                                              \
		return glibc()->member;                                                                    \
	}                                                                                              \
	MEMSHIM_EXPORT type memshim_##member##_glibc __attribute__((ifunc("resolve_glibc_" #member)))

#define EXPORT_ENTRY(v, entry, ...) EXPORT_GLIBC(entry, entry##_fn);
MEMSHIM_ENTRY_POINTS(EXPORT_ENTRY, )
