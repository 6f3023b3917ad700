/* evex and evex_mask_erms: 32-byte vectors in EVEX encoding.
 * Built with -mavx512f -mavx512bw -mavx512vl and only dispatched to when the
 * CPU has all three and the OS saves the ZMM state.  The ladder is in
 * shim/ladder_evex.S, the rare long paths from shim/vector_pieces.h.
 *
 * For CPUs that run 512-bit operations as two 256-bit halves (AMD Zen 4):
 * measured there, the 32-byte loops beat the 64-byte ones in cache and out
 * of it (D19).  glibc's __memmove_evex_unaligned_erms
 * makes the same pairing of register width and instruction set.
 *
 * Like the avx512 file, compiled with xmm0..15 reserved: ymm16..31 need no
 * vzeroupper on the way out. */
#include "shim/vector_256.h"

#include "shim/vector_pieces.h"

MEMSHIM_VECTOR_VARIANT(evex);
MEMSHIM_VECTOR_VARIANT(evex_mask_erms);
