/* The sse2 and sse2_erms ladders (shim/vector_ladder.S): 16-byte vectors,
 * which every x86-64 CPU has. */
#define VEC_SIZE 16
#define VMOVU movdqu
#define VEC(i) %xmm##i
#define VMOVA movdqa
#define RETURN ret
/* The byte in every lane: SSE2 has no byte broadcast. */
#define BROADCAST_EARLY movd %esi, %xmm0; punpcklbw %xmm0, %xmm0; punpcklwd %xmm0, %xmm0; pshufd $0, %xmm0, %xmm0
#define WIDEN_TO_VEC0
#define MOVQ_XMM0_RSI movq %xmm0, %rsi

#define VARIANT sse2
#include "shim/vector_ladder.S"
#undef VARIANT
#define VARIANT sse2_erms
#define REP_RANGE
#include "shim/vector_ladder.S"
#undef REP_RANGE

	.section .note.GNU-stack, "", @progbits
