/* avx2 and avx2_erms: the vector variants with 32-byte registers.  Built
 * with -mavx2 and only dispatched to when the CPU has AVX2 and the OS saves
 * the YMM state.  The ladder is in shim/ladder_avx2.S, the rare long paths
 * from shim/vector_pieces.h. */
#include "shim/vector_256.h"

#include "shim/vector_pieces.h"

MEMSHIM_VECTOR_VARIANT(avx2);
MEMSHIM_VECTOR_VARIANT(avx2_erms);
