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
/* The byte in xmm0 first: a ymm0 written at the entry would dirty the
 * upper halves on the paths below 32 bytes, which then need a vzeroupper. */
#define BROADCAST_EARLY vmovd %esi, %xmm0; vpbroadcastb %xmm0, %xmm0
#define WIDEN_TO_VEC0 vpbroadcastb %xmm0, %ymm0
#define MOVQ_XMM0_RSI vmovq %xmm0, %rsi

#define VARIANT avx2
#include "shim/vector_ladder.S"
#undef VARIANT
#define VARIANT avx2_erms
#define REP_RANGE
#include "shim/vector_ladder.S"
#undef REP_RANGE

#define XMM_PAIRS
#undef VARIANT
#define VARIANT avx2_xmm
#include "shim/vector_ladder.S"
#undef VARIANT
#define VARIANT avx2_xmm_erms
#define REP_RANGE
#include "shim/vector_ladder.S"
#undef REP_RANGE

	.section .note.GNU-stack, "", @progbits
