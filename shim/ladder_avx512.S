/* The avx512 and avx512_erms ladders (shim/vector_ladder.S): 64-byte
 * vectors, in registers 16..31 only, as the evex ladders; avx512_mask and
 * avx512_mask_erms the same with copies of 0..16 bytes in one masked move;
 * avx512_mask64_erms with copies of 0..63 bytes in one. */
#define VEC_SIZE 64
#define VMOVU vmovdqu64
#define VEC(i) EVEX_REG(zmm, i)
#define YMOVU vmovdqu64
#define YMM(i) EVEX_REG(ymm, i)
#define XMOVU vmovdqu64
#define XMM(i) EVEX_REG(xmm, i)
#define VMOVA vmovdqa64
#define RETURN ret
#define BROADCAST_EARLY vpbroadcastb %esi, %zmm16
#define WIDEN_TO_VEC0
#define MASKED_SET
#define MASK_OF_FIRST_N mov $-1, %rcx; bzhi %rdx, %rcx, %rcx; kmovq %rcx, %k1
/* The last %rdx bytes of a vector: the complement of all but them (or $-1:
 * four bytes, where mov $-1 takes seven; D51). */
#define MASK_OF_LAST_N or $-1, %rcx; shrx %rdx, %rcx, %rcx; kmovq %rcx, %k1; knotq %k1, %k1
#define MASK_OF_N_FROM_RDI mov $-1, %rcx; bzhi %rdx, %rcx, %rcx; shlx %rdi, %rcx, %rcx; kmovq %rcx, %k1
#define VMOVU8 vmovdqu8
#include "shim/evex_registers.h"

#define VARIANT avx512
#include "shim/vector_ladder.S"
#undef VARIANT
#define VARIANT avx512_erms
#define REP_RANGE
#include "shim/vector_ladder.S"
#undef REP_RANGE
#undef VARIANT

#define MASKED_COPY
#define VARIANT avx512_mask
#include "shim/vector_ladder.S"
#undef VARIANT
#define VARIANT avx512_mask_erms
#define REP_RANGE
#include "shim/vector_ladder.S"
#undef REP_RANGE
#undef VARIANT
#undef MASKED_COPY

#define MASKED_COPY_VEC
#define VARIANT avx512_mask64_erms
#define REP_RANGE
#include "shim/vector_ladder.S"
#undef REP_RANGE
#undef VARIANT
#undef MASKED_COPY_VEC

	.section .note.GNU-stack, "", @progbits
