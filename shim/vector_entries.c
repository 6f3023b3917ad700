/* The entry points every vector variant derives from its three base
 * functions (mempcpy, the _chk checks, bcopy, bzero, explicit_bzero), and
 * its entry set (shim/entry_set.h).  They call the ladders
 * (shim/vector_ladder.S), which call the widths' files for the rare long
 * paths: kept apart from those files, so that no two files need each
 * other.  Nothing here touches a vector register. */
#include "shim/entry_set.h"

#define VECTOR_ENTRIES(v)                                                                          \
	MEMSHIM_BASE_DECLARATIONS(v);                                                                  \
	MEMSHIM_DERIVED_ENTRIES(v)

VECTOR_ENTRIES(sse2);
VECTOR_ENTRIES(sse2_erms);
VECTOR_ENTRIES(avx2);
VECTOR_ENTRIES(avx2_erms);
VECTOR_ENTRIES(avx2_xmm);
VECTOR_ENTRIES(avx2_xmm_erms);
VECTOR_ENTRIES(avx512);
VECTOR_ENTRIES(avx512_erms);
VECTOR_ENTRIES(avx512_mask);
VECTOR_ENTRIES(avx512_mask_erms);
VECTOR_ENTRIES(avx512_mask64_erms);
VECTOR_ENTRIES(evex);
VECTOR_ENTRIES(evex_mask_erms);
