/* The avx2 and avx2_xmm ladders, each with its _erms twin
 * (shim/vector_ladder.S): 32-byte vectors in VEX encoding, whose upper
 * halves need a vzeroupper before returning to code that may use legacy
 * SSE encodings.  avx2_xmm copies 32..64 bytes in 16-byte blocks. */
#define VEC_SIZE 32
#define VMOVU vmovdqu
#define VEC(i) %ymm##i
#define XMOVU vmovdqu
#define XMM(i) %xmm##i
#define VMOVA vmovdqa
#define RETURN vzeroupper; ret
#define SET_VEC0 vmovd %esi, %xmm0; vpbroadcastb %xmm0, %ymm0
#define SET_XMM0 vmovd %esi, %xmm0; vpbroadcastb %xmm0, %xmm0

#define VARIANT avx2
#include "shim/vector_ladder.S"
#undef VARIANT
#define VARIANT avx2_erms
#define REP_BAND
#include "shim/vector_ladder.S"
#undef REP_BAND

#define XMM_PAIRS
#undef VARIANT
#define VARIANT avx2_xmm
#include "shim/vector_ladder.S"
#undef VARIANT
#define VARIANT avx2_xmm_erms
#define REP_BAND
#include "shim/vector_ladder.S"
#undef REP_BAND

	.section .note.GNU-stack, "", @progbits
