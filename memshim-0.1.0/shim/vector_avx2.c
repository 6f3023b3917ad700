/* avx2 and avx2_erms: the vector variants with 32-byte registers.  Built
 * with -mavx2 and only dispatched to when the CPU has AVX2 and the OS saves
 * the YMM state.  The algorithm is in shim/vector_pieces.h. */
#include "shim/vector_256.h"

#include "shim/vector_pieces.h"

MEMSHIM_VECTOR_VARIANT(avx2, NO_REP_BAND);
MEMSHIM_VECTOR_VARIANT(avx2_erms, WITH_REP_BAND);
