/* avx2_xmm and avx2_xmm_erms: a composite of existing pieces, the avx2
 * variants' 32-byte vectors from 64 bytes on and 16-byte blocks below (the
 * small class of the sse2 variant), as the calibration's size bands asked
 * for on AMD Zen 4, where sse2's pieces are the fastest below 64 B in every
 * placement and the 32-byte loops from 65 B on (BENCHMARKS.md, section
 * 13).  Built with -mavx2;
 * the algorithm is in shim/vector_pieces.h.  Costs no test beyond the size
 * compares the pieces already make. */
#include "shim/vector_256.h"

#define XMM_BELOW 64
#include "shim/vector_pieces.h"

MEMSHIM_VECTOR_VARIANT(avx2_xmm, NO_REP_BAND);
MEMSHIM_VECTOR_VARIANT(avx2_xmm_erms, WITH_REP_BAND);
