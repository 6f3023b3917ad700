/* avx2_xmm and avx2_xmm_erms: the avx2 variants with 32..64 bytes copied in
 * four 16-byte blocks instead of two 32-byte vectors, so that no size below
 * 65 bytes touches a register's upper half, as the calibration's size bands
 * asked for on AMD Zen 4, where sse2's pieces were the fastest below 64 B in
 * every placement (D20).  Built with -mavx2; the
 * algorithm is in shim/vector_pieces.h. */
#include "shim/vector_256.h"

#define XMM_PAIRS
#include "shim/vector_pieces.h"

MEMSHIM_VECTOR_VARIANT(avx2_xmm);
MEMSHIM_VECTOR_VARIANT(avx2_xmm_erms);
