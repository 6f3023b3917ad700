/* avx2_xmm and avx2_xmm_erms: a composite of existing pieces, the avx2
 * variants' 32-byte vectors from 64 bytes on and 16-byte blocks below (the
 * small class of the sse2 variant), as the calibration's size bands asked
 * for on AMD Zen 4: there sse2's pieces below 64 B took 0.86x glibc's time
 * in L1 and L2 and 0.98x cold, avx2's 1.01x, the masked ones 0.60x in
 * cache but 1.15x cold, while from 65 B on the 32-byte loops beat the
 * 16-byte ones (memshim tune --calibrate, ratios lines).  Built with -mavx2;
 * the algorithm is in shim/vector_pieces.h.  Costs no test beyond the size
 * compares the pieces already make. */
#include "shim/vector_256.h"

#define XMM_BELOW 64
#include "shim/vector_pieces.h"

MEMSHIM_VECTOR_VARIANT(avx2_xmm, NO_REP_BAND);
MEMSHIM_VECTOR_VARIANT(avx2_xmm_erms, WITH_REP_BAND);
