/* The evex ladder (shim/vector_ladder.S): 32-byte vectors in EVEX
 * encoding, in registers 16..31 only, which no legacy SSE instruction can
 * name, so no path needs a vzeroupper (glibc's EVEX functions do the same);
 * evex_mask_erms the same with copies of 0..16 bytes in one masked move and
 * a rep movsb range. */
#define VEC_SIZE 32
#define VMOVU vmovdqu64
#define VEC(i) EVEX_REG(ymm, i)
#define XMOVU vmovdqu64
#define XMM(i) EVEX_REG(xmm, i)
#define VMOVA vmovdqa64
#define RETURN ret
#define BROADCAST_EARLY vpbroadcastb %esi, %ymm16
#define WIDEN_TO_VEC0
#define MASKED_SET
#define MASK_OF_FIRST_N mov $-1, %ecx; bzhi %edx, %ecx, %ecx; kmovd %ecx, %k1
#define MASK_OF_N_FROM_RDI mov $-1, %ecx; bzhi %edx, %ecx, %ecx; shlx %edi, %ecx, %ecx; kmovd %ecx, %k1
#define VMOVU8 vmovdqu8
#include "shim/evex_registers.h"

#define VARIANT evex
#include "shim/vector_ladder.S"
#undef VARIANT
#define MASKED_COPY
#define REP_RANGE
#define VARIANT evex_mask_erms
#include "shim/vector_ladder.S"
#undef VARIANT
#undef REP_RANGE
#undef MASKED_COPY

	.section .note.GNU-stack, "", @progbits
