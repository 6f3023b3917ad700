/* The size ladder of the vector variants and their cached loop: memcpy,
 * memmove and memset of variant VARIANT, in assembly so that which class
 * falls through and which branch is taken is written here, not left to a
 * compiler's block layout (doc/design.md says why).  What the loop does not
 * do (memmove backwards, non-temporal stores, the rep range) is a jump to C
 * (MEMSHIM_VECTOR_VARIANT, shim/vector_pieces.h).
 *
 * The shape is glibc's memmove-vec-unaligned-erms.S and
 * memset-vec-unaligned-erms.S, the code our own.  In no size class up to
 * 1 KiB may it take more branches than glibc's function of the same width,
 * or run more than three instructions more (D1, tests/test_path.sh).
 * Where that leaves a choice, the commoner sizes of the fleet
 * distributions (data/distributions/fleetbench) fall through:
 *
 *   V .. 2V      one head and one tail vector: falls through from the entry,
 *                as in glibc, which takes no branch there;
 *   0 .. V-1     one taken branch to copy_below_vec, where 8..15 bytes fall
 *                through, the commonest sizes below 16, and 1..3 below 8
 *                (D2); with MASKED_COPY, 0..16 bytes fall through to one
 *                masked move (D10); with MASKED_COPY_VEC, all of 0..V-1
 *                (D45).  The tests go from the top down, each splitting off
 *                the rarer sizes, since a test of 16 bytes first would
 *                mispredict most often on mixed sizes (D9);
 *   2V+1 .. 4V   two head and two tail vectors: two taken branches, as glibc;
 *   4V+1 .. 8V   four and four, one taken branch, as glibc.  Above 2V the
 *                size is tested against 4V before 8V, as glibc does (D3);
 *   above 8V     the first vector and the last four kept, a loop of four
 *                vectors a turn to a V-aligned destination, then those
 *                five stored: two taken branches before the loop, as glibc;
 *                memmove whose destination overlaps after the source, the
 *                mirror image.
 *
 * Every class loads all its bytes before it stores any, so memmove needs
 * no direction test below eight vectors.
 *
 * A width file defines, then includes this file once per variant:
 *   VARIANT            the variant's name (avx2, avx2_erms, ...)
 *   VEC_SIZE           bytes per vector
 *   VMOVU              the unaligned move of a whole vector
 *   VEC(i)             vector register i, i = 0..8
 *   XMM(i), YMM(i)     its 16- and 32-byte names (for the pieces below V)
 *   XMOVU, YMOVU       the moves of 16- and 32-byte pieces
 *   RETURN             the return (vzeroupper first where the upper halves
 *                      of VEC(i) need it)
 *   BROADCAST_EARLY    the byte in %esi in every lane of XMM(0) at least, and
 *                      of all VEC(0) where that costs no vzeroupper
 *   WIDEN_TO_VEC0      the rest of VEC(0) (empty where BROADCAST_EARLY did it)
 *   MOVQ_XMM0_RSI      %rsi = the low 8 bytes of XMM(0) (without MASKED_SET)
 *   VMOVA              the aligned move of a whole vector
 *   XMM_PAIRS          (optional) V..2V in four 16-byte blocks
 *   MASKED_SET         (optional) memset below V in one masked store:
 *                      MASK_OF_N_FROM_RDI sets %k1 to %rdx bytes from
 *                      byte %rdi of a vector, VMOVU8 is the byte-masked store
 *   MASKED_COPY        (optional) memcpy and memmove of 0..16 bytes in one
 *                      masked load and store of XMM(0) (needs MASKED_SET's
 *                      store and MASK_OF_FIRST_N, which sets %k1 to the
 *                      first %rdx bytes)
 *   MASKED_COPY_VEC    (optional) the same below V in one masked move of
 *                      VEC(0) (needs MASK_OF_LAST_N too, which sets %k1 to
 *                      the last %rdx bytes)
 *   REP_RANGE           (optional) rep movsb / stosb from the movsb /
 *                      stosb thresholds on, below nt (the *_erms twins) */

#include "shim/thresholds.h"

/* memshim_thresholds' members (checked against the struct in shim/thresholds.h). */
#define NT_THRESHOLD (memshim_thresholds + THRESHOLDS_NT)(%rip)
#define MOVSB_FROM (memshim_thresholds + THRESHOLDS_MOVSB)(%rip)
#define STOSB_FROM (memshim_thresholds + THRESHOLDS_STOSB)(%rip)

#define LADDER_CAT(a, b) a##b
#define LADDER_XCAT(a, b) LADDER_CAT(a, b)
#define ENTRY_NAME(fn) LADDER_XCAT(memshim_##fn##_, VARIANT)
#define L(name) LADDER_XCAT(LADDER_XCAT(.L, VARIANT), _##name)

/* Each block a size test's branch lands on starts where up to 32 bytes of
 * it lie in one 64-byte fetch unit, since a block straddling two takes a
 * cycle more to reach after a mispredict; no more padding than that (D4).
 * Each follows a return, so its padding is never run. */
#define ALIGN_TARGET .p2align 6,,31

/* COPY_LADDER(fn, long): fn's entry point, its classes up to 8V, and a
 * jump to `long` above. */
#define COPY_LADDER(fn, long)                                                \
	.text;                                                               \
	.p2align 6;                                                          \
	.globl ENTRY_NAME(fn);                                               \
	.type ENTRY_NAME(fn), @function;                                     \
ENTRY_NAME(fn):                                                              \
	mov %rdi, %rax;                                                      \
	cmp $VEC_SIZE, %rdx;                                                 \
	jb L(fn##_below_vec);                                                \
	FIRST_VEC_EARLY;                                                     \
	cmp $(2 * VEC_SIZE), %rdx;                                           \
	ja L(fn##_above_2vec);                                               \
	COPY_VEC_PAIR;                                                       \
	ALIGN_TARGET;                                                        \
L(fn##_2vec_pairs):                                                          \
	FIRST_VEC_LATE;                                                      \
	VMOVU VEC_SIZE(%rsi), VEC(1);                                        \
	VMOVU -(2 * VEC_SIZE)(%rsi, %rdx), VEC(2);                           \
	VMOVU -VEC_SIZE(%rsi, %rdx), VEC(3);                                 \
	VMOVU VEC(0), (%rdi);                                                \
	VMOVU VEC(1), VEC_SIZE(%rdi);                                        \
	VMOVU VEC(2), -(2 * VEC_SIZE)(%rdi, %rdx);                           \
	VMOVU VEC(3), -VEC_SIZE(%rdi, %rdx);                                 \
	RETURN;                                                              \
	ALIGN_TARGET;                                                        \
L(fn##_above_2vec):                                                          \
	cmp $(4 * VEC_SIZE), %rdx;                                           \
	jbe L(fn##_2vec_pairs);                                              \
	cmp $(8 * VEC_SIZE), %rdx;                                           \
	ja L(fn##_above_8vec);                                               \
	FIRST_VEC_LATE;                                                      \
	VMOVU VEC_SIZE(%rsi), VEC(1);                                        \
	VMOVU (2 * VEC_SIZE)(%rsi), VEC(2);                                  \
	VMOVU (3 * VEC_SIZE)(%rsi), VEC(3);                                  \
	VMOVU -(4 * VEC_SIZE)(%rsi, %rdx), VEC(4);                           \
	VMOVU -(3 * VEC_SIZE)(%rsi, %rdx), VEC(5);                           \
	VMOVU -(2 * VEC_SIZE)(%rsi, %rdx), VEC(6);                           \
	VMOVU -VEC_SIZE(%rsi, %rdx), VEC(7);                                 \
	VMOVU VEC(0), (%rdi);                                                \
	VMOVU VEC(1), VEC_SIZE(%rdi);                                        \
	VMOVU VEC(2), (2 * VEC_SIZE)(%rdi);                                  \
	VMOVU VEC(3), (3 * VEC_SIZE)(%rdi);                                  \
	VMOVU VEC(4), -(4 * VEC_SIZE)(%rdi, %rdx);                           \
	VMOVU VEC(5), -(3 * VEC_SIZE)(%rdi, %rdx);                           \
	VMOVU VEC(6), -(2 * VEC_SIZE)(%rdi, %rdx);                           \
	VMOVU VEC(7), -VEC_SIZE(%rdi, %rdx);                                 \
	RETURN;                                                              \
	/* A cache line of its own, as glibc's (D5). */                     \
	.p2align 6;                                                          \
L(fn##_below_vec):                                                           \
	COPY_BELOW_VEC_MASKED(fn);                                           \
	COPY_32_TO_63(fn);                                                   \
	COPY_BELOW_32(fn);                                                   \
	cmp $8, %edx;                                                        \
	jae L(fn##_8_to_15);                                                 \
	/* 0..7 from one subtraction, as glibc does: n - 4 is not negative   \
	   for 4..7, -4 for 0, -3 for 1, and -2..-1 for 2..3, which fall     \
	   through to the first byte and the last two. */                    \
	sub $4, %rdx;                                                        \
	jae L(fn##_4_to_7);                                                  \
	cmp $-3, %edx;                                                       \
	jl L(fn##_done);                                                     \
	movzbl (%rsi), %ecx;                                                 \
	je L(fn##_one);                                                      \
	movzwl 2(%rsi, %rdx), %esi;                                          \
	mov %si, 2(%rdi, %rdx);                                              \
L(fn##_one):                                                                 \
	mov %cl, (%rdi);                                                     \
L(fn##_done):                                                                \
	ret;                                                                 \
	ALIGN_TARGET;                                                        \
L(fn##_4_to_7):                                                              \
	mov (%rsi), %ecx;                                                    \
	mov (%rsi, %rdx), %esi;                                              \
	mov %ecx, (%rdi);                                                    \
	mov %esi, (%rdi, %rdx);                                              \
	ret;                                                                 \
	ALIGN_TARGET;                                                        \
L(fn##_8_to_15):                                                             \
	COPY_HEAD_TAIL(mov, %rcx, %rsi, 8);                                  \
	COPY_PIECES_BELOW_VEC(fn);                                           \
	ALIGN_TARGET;                                                        \
L(fn##_above_8vec):                                                          \
	LEAVE_FOR_BACKWARD_##fn;                                             \
	cmp NT_THRESHOLD, %rdx;                                              \
	jae long;                                                            \
	LEAVE_FOR_REP_RANGE(MOVSB_FROM, long);                                \
	/* The first vector (VEC(0), loaded at the entry, not again: D6) and  \
	   the last four, kept for the end; the loop on a 16-byte boundary    \
	   and those four stored from the top down, as in glibc. */          \
	FIRST_VEC_LATE;                                                      \
	VMOVU -(4 * VEC_SIZE)(%rsi, %rdx), VEC(5);                           \
	VMOVU -(3 * VEC_SIZE)(%rsi, %rdx), VEC(6);                           \
	VMOVU -(2 * VEC_SIZE)(%rsi, %rdx), VEC(7);                           \
	VMOVU -VEC_SIZE(%rsi, %rdx), VEC(8);                                 \
	/* %rcx: where the last four go; %r8: the first V-aligned            \
	   destination past %rdi, %r9 its source. */                         \
	lea -(4 * VEC_SIZE)(%rdi, %rdx), %rcx;                               \
	lea VEC_SIZE(%rdi), %r8;                                             \
	and $-VEC_SIZE, %r8;                                                 \
	mov %r8, %r9;                                                        \
	sub %rdi, %r9;                                                       \
	add %rsi, %r9;                                                       \
	.p2align 4;                                                          \
L(fn##_loop):                                                                \
	VMOVU (%r9), VEC(1);                                                 \
	VMOVU VEC_SIZE(%r9), VEC(2);                                         \
	VMOVU (2 * VEC_SIZE)(%r9), VEC(3);                                   \
	VMOVU (3 * VEC_SIZE)(%r9), VEC(4);                                   \
	VMOVA VEC(1), (%r8);                                                 \
	VMOVA VEC(2), VEC_SIZE(%r8);                                         \
	VMOVA VEC(3), (2 * VEC_SIZE)(%r8);                                   \
	VMOVA VEC(4), (3 * VEC_SIZE)(%r8);                                   \
	add $(4 * VEC_SIZE), %r9;                                            \
	add $(4 * VEC_SIZE), %r8;                                            \
	cmp %rcx, %r8;                                                       \
	jb L(fn##_loop);                                                     \
	VMOVU VEC(8), (3 * VEC_SIZE)(%rcx);                                  \
	VMOVU VEC(7), (2 * VEC_SIZE)(%rcx);                                  \
	VMOVU VEC(6), VEC_SIZE(%rcx);                                        \
	VMOVU VEC(5), (%rcx);                                                \
	VMOVU VEC(0), (%rdi);                                                \
	RETURN;                                                              \
	BACKWARD_LOOP_##fn;                                                  \
	.size ENTRY_NAME(fn), . - ENTRY_NAME(fn)

/* Above 8V bytes, the loop of four vectors a turn to a V-aligned
 * destination (it reads only source bytes past all it has written, so it
 * is memmove too when the destination lies before the source); what it
 * does not do is left to C: non-temporal stores from nt bytes on, and the
 * rep range of the *_erms variants.  memmove whose destination overlaps
 * after the source (d - s < n, unsigned: glibc's test) runs the loop's
 * mirror image at any size, before those tests. */
#define LEAVE_FOR_BACKWARD_memcpy
#define LEAVE_FOR_BACKWARD_memmove mov %rdi, %rcx; sub %rsi, %rcx; cmp %rdx, %rcx; jb L(memmove_backward)
#define BACKWARD_LOOP_memcpy
/* The mirror image, in assembly beside the forward loop for the same
 * reason as the ladder: the first four vectors (the first, VEC(0), loaded
 * at the entry) and the last kept for the end; %r8: the last V-aligned
 * destination boundary at or below d + n, %r9 its source, %rcx where the
 * first four go; the loop stores from high addresses down.  A destination
 * that is the source (d - s = 0) has nothing to move, as glibc knows too. */
#define BACKWARD_LOOP_memmove                                                \
	ALIGN_TARGET;                                                        \
L(memmove_backward):                                                         \
	test %rcx, %rcx;                                                     \
	jz L(memmove_in_place);                                              \
	FIRST_VEC_LATE;                                                      \
	VMOVU VEC_SIZE(%rsi), VEC(5);                                        \
	VMOVU (2 * VEC_SIZE)(%rsi), VEC(6);                                  \
	VMOVU (3 * VEC_SIZE)(%rsi), VEC(7);                                  \
	VMOVU -VEC_SIZE(%rsi, %rdx), VEC(8);                                 \
	lea (%rdi, %rdx), %r8;                                               \
	and $-VEC_SIZE, %r8;                                                 \
	mov %r8, %r9;                                                        \
	sub %rdi, %r9;                                                       \
	add %rsi, %r9;                                                       \
	lea (4 * VEC_SIZE)(%rdi), %rcx;                                      \
	.p2align 4;                                                          \
L(memmove_backward_loop):                                                    \
	VMOVU -VEC_SIZE(%r9), VEC(1);                                        \
	VMOVU -(2 * VEC_SIZE)(%r9), VEC(2);                                  \
	VMOVU -(3 * VEC_SIZE)(%r9), VEC(3);                                  \
	VMOVU -(4 * VEC_SIZE)(%r9), VEC(4);                                  \
	VMOVA VEC(1), -VEC_SIZE(%r8);                                        \
	VMOVA VEC(2), -(2 * VEC_SIZE)(%r8);                                  \
	VMOVA VEC(3), -(3 * VEC_SIZE)(%r8);                                  \
	VMOVA VEC(4), -(4 * VEC_SIZE)(%r8);                                  \
	sub $(4 * VEC_SIZE), %r9;                                            \
	sub $(4 * VEC_SIZE), %r8;                                            \
	cmp %rcx, %r8;                                                       \
	ja L(memmove_backward_loop);                                         \
	VMOVU VEC(0), (%rdi);                                                \
	VMOVU VEC(5), VEC_SIZE(%rdi);                                        \
	VMOVU VEC(6), (2 * VEC_SIZE)(%rdi);                                  \
	VMOVU VEC(7), (3 * VEC_SIZE)(%rdi);                                  \
	VMOVU VEC(8), -VEC_SIZE(%rdi, %rdx);                                 \
	RETURN;                                                              \
L(memmove_in_place):                                                         \
	RETURN

#ifdef XMM_PAIRS
#define COPY_VEC_PAIR                                                        \
	XMOVU (%rsi), XMM(0);                                                \
	XMOVU 16(%rsi), XMM(1);                                              \
	XMOVU -32(%rsi, %rdx), XMM(2);                                       \
	XMOVU -16(%rsi, %rdx), XMM(3);                                       \
	XMOVU XMM(0), (%rdi);                                                \
	XMOVU XMM(1), 16(%rdi);                                              \
	XMOVU XMM(2), -32(%rdi, %rdx);                                       \
	XMOVU XMM(3), -16(%rdi, %rdx);                                       \
	ret
#define FIRST_VEC_EARLY
#define FIRST_VEC_LATE VMOVU (%rsi), VEC(0)
#else
/* The first vector loaded before the next size test, as glibc does: the
 * load's latency overlaps the test, and every class from V on needs it. */
#define FIRST_VEC_EARLY VMOVU (%rsi), VEC(0)
#define FIRST_VEC_LATE
#define COPY_VEC_PAIR                                                        \
	VMOVU -VEC_SIZE(%rsi, %rdx), VEC(1);                                 \
	VMOVU VEC(0), (%rdi);                                                \
	VMOVU VEC(1), -VEC_SIZE(%rdi, %rdx);                                 \
	RETURN
#endif

/* n bytes, BYTES <= n <= 2 * BYTES, as the first and the last BYTES:
 * both loaded before either is stored, so that memmove may overlap. */
#define COPY_HEAD_TAIL(MOV, R0, R1, BYTES)                                   \
	MOV (%rsi), R0;                                                      \
	MOV -BYTES(%rsi, %rdx), R1;                                          \
	MOV R0, (%rdi);                                                      \
	MOV R1, -BYTES(%rdi, %rdx);                                          \
	ret

/* The halves of a vector below V: 32..63 (V = 64) and 16..31 (V >= 32),
 * each one taken branch from copy_below_vec. */
#if VEC_SIZE == 64
#define COPY_32_TO_63(fn) cmp $32, %edx; jae L(fn##_32_to_63)
#define COPY_32_TO_63_PIECE(fn) ALIGN_TARGET; L(fn##_32_to_63): COPY_HEAD_TAIL(YMOVU, YMM(0), YMM(1), 32)
#else
#define COPY_32_TO_63(fn)
#define COPY_32_TO_63_PIECE(fn)
#endif
#if VEC_SIZE > 16
#define COPY_16_TO_31(fn) cmp $16, %edx; jae L(fn##_16_to_31)
#define COPY_16_TO_31_PIECE(fn) ALIGN_TARGET; L(fn##_16_to_31): COPY_HEAD_TAIL(XMOVU, XMM(0), XMM(1), 16)
#else
#define COPY_16_TO_31(fn)
#define COPY_16_TO_31_PIECE(fn)
#endif
#define COPY_PIECES_BELOW_VEC(fn) COPY_32_TO_63_PIECE(fn); COPY_16_TO_31_PIECE(fn)

/* Below 32 bytes with MASKED_COPY: 0..16 bytes in one masked move of a
 * 16-byte span, no branch on the size (D10).  16 bytes, not a vector, so
 * that a cold copy touches at most one line its bytes do not; 0 bytes take
 * the move too, since a test for them cost the fleet distributions more
 * than it saved (D11).  Where either span could cross a page, the ladder:
 * a masked access reaching a page not present takes a microcode assist;
 * the test is glibc's memcmp-evex-movbe.S one on the OR of both offsets
 * (D10). */
/* Below V with MASKED_COPY_VEC: 0..V-1 bytes in one masked load and one
 * masked store of a V-byte span, no branch on the size (D45).  A masked
 * access whose masked-off bytes reach a page not present takes an assist
 * of hundreds of ns, and the page after a program's bytes is often not
 * present where its heap grows; the page before them almost never is (D51).
 * So the spans end where the bytes end, and reach no page the bytes do
 * not unless a pointer lies within V bytes of its page's start: such calls
 * take spans starting at the pointers, or the ladder where one of those
 * would cross into the next page or a pointer lies in the first page (the
 * null pointer with size 0, D47).  The lines of the bytes' ends are
 * requested first, since cold masked accesses wait for their lines one
 * after another (D46).  The tests write no register, since every register
 * a call writes costs the cold copies, and the block up to its return lies
 * in one 64-byte line, since one that spills costs the cached copies (D51). */
#if defined(MASKED_COPY_VEC)
#define COPY_BELOW_VEC_MASKED(fn)                                            \
	prefetcht0 -1(%rsi, %rdx);                                           \
	prefetchw -1(%rdi, %rdx);                                            \
	test $(4096 - VEC_SIZE), %si;                                        \
	jz L(fn##_below_vec_forward);                                        \
	test $(4096 - VEC_SIZE), %di;                                        \
	jz L(fn##_below_vec_forward);                                        \
	MASK_OF_LAST_N;                                                      \
	VMOVU8 -VEC_SIZE(%rsi, %rdx), VEC(0){%k1}{z};                        \
	VMOVU8 VEC(0), -VEC_SIZE(%rdi, %rdx){%k1};                           \
	ret;                                                                 \
	/* The next line (a build error where the block above spills). */   \
	.org L(fn##_below_vec) + 64, 0xcc;                                   \
L(fn##_below_vec_forward):                                                   \
	lea (VEC_SIZE - 1)(%rsi), %ecx;                                      \
	xor %esi, %ecx;                                                      \
	lea (VEC_SIZE - 1)(%rdi), %r8d;                                      \
	xor %edi, %r8d;                                                      \
	or %r8d, %ecx;                                                       \
	test $4096, %ecx;                                                    \
	jnz L(fn##_below_vec_ladder);                                        \
	cmp $4096, %rsi;                                                     \
	jb L(fn##_below_vec_ladder);                                         \
	cmp $4096, %rdi;                                                     \
	jb L(fn##_below_vec_ladder);                                         \
	MASK_OF_FIRST_N;                                                     \
	VMOVU8 (%rsi), VEC(0){%k1}{z};                                       \
	VMOVU8 VEC(0), (%rdi){%k1};                                          \
	ret;                                                                 \
	ALIGN_TARGET;                                                        \
L(fn##_below_vec_ladder):
#else
#define COPY_BELOW_VEC_MASKED(fn)
#endif

#ifdef MASKED_COPY
#define COPY_BELOW_32(fn)                                                    \
	cmp $16, %edx;                                                       \
	ja L(fn##_16_to_31);                                                 \
	mov %edi, %ecx;                                                      \
	or %esi, %ecx;                                                       \
	and $4095, %ecx;                                                     \
	cmp $(4096 - 16), %ecx;                                              \
	ja L(fn##_below_16_ladder);                                          \
	MASK_OF_FIRST_N;                                                     \
	VMOVU8 (%rsi), XMM(0){%k1}{z};                                       \
	VMOVU8 XMM(0), (%rdi){%k1};                                          \
	ret;                                                                 \
	ALIGN_TARGET;                                                        \
L(fn##_below_16_ladder):
#else
#define COPY_BELOW_32(fn) COPY_16_TO_31(fn)
#endif

#ifdef REP_RANGE
#define LEAVE_FOR_REP_RANGE(threshold, long) cmp threshold, %rdx; jae long
/* That test's bytes: a compare with a %rip-relative operand (7) and a jae
 * to another file's symbol, always rel32 (6). */
#define REP_RANGE_TEST_BYTES 13
#define SET_ABOVE_2VEC_ALIGN .p2align 6; .nops (64 - REP_RANGE_TEST_BYTES)
#else
#define LEAVE_FOR_REP_RANGE(threshold, long)
#define SET_ABOVE_2VEC_ALIGN .p2align 6
#endif

COPY_LADDER(memcpy, LADDER_XCAT(memshim_copy_long_, VARIANT))
COPY_LADDER(memmove, LADDER_XCAT(memshim_move_long_, VARIANT))

/* memset: the same classes, the byte broadcast once it is known which
 * width the class needs; the loop in C reads the byte from %esi again. */
	.text
	.p2align 6
	.globl ENTRY_NAME(memset)
	.type ENTRY_NAME(memset), @function
ENTRY_NAME(memset):
	mov %rdi, %rax
	/* The byte broadcast before the size test, as glibc does, so that its
	   latency overlaps the test's. */
	BROADCAST_EARLY
	cmp $VEC_SIZE, %rdx
	jb L(set_below_vec)
	WIDEN_TO_VEC0
	cmp $(2 * VEC_SIZE), %rdx
	ja L(set_above_2vec)
	VMOVU VEC(0), (%rdi)
	VMOVU VEC(0), -VEC_SIZE(%rdi, %rdx)
	RETURN
/* Above 2V the first two vectors are stored before the size is tested
 * against 4V, and the next two before it is tested against 8V, as glibc's
 * memset does: a test that mispredicts then finds stores under way (D7).
 * The rep range leaves before any store, as in
 * glibc, so that rep stosb finds no line fetched for those stores (a cost
 * there with the destination cold); non-temporal fills, far larger, leave
 * after them and fill the first four vectors again.  The block starts a
 * line, and a rep range's test ends one (SET_ABOVE_2VEC_ALIGN), so that
 * all that follows lies where the base variant's code does. */
	SET_ABOVE_2VEC_ALIGN
L(set_above_2vec):
	LEAVE_FOR_REP_RANGE(STOSB_FROM, LADDER_XCAT(memshim_set_long_, VARIANT))
	VMOVU VEC(0), (%rdi)
	VMOVU VEC(0), VEC_SIZE(%rdi)
	cmp $(4 * VEC_SIZE), %rdx
	jbe L(set_last_2vec)
	VMOVU VEC(0), (2 * VEC_SIZE)(%rdi)
	VMOVU VEC(0), (3 * VEC_SIZE)(%rdi)
	cmp $(8 * VEC_SIZE), %rdx
	jbe L(set_last_4vec)
	cmp NT_THRESHOLD, %rdx
	jae LADDER_XCAT(memshim_set_long_, VARIANT)
	/* An aligned loop past the first four vectors, then the last four
	   (%rcx); the loop stores only below %rcx + 4V, the end. */
	lea -(4 * VEC_SIZE)(%rdi, %rdx), %rcx
	lea (4 * VEC_SIZE)(%rdi), %r8
	and $-VEC_SIZE, %r8
	/* The loop, 32 to 39 bytes at every width, in one 64-byte line (D8):
	   on the next one where fewer than 40 bytes of this one are left (the
	   padding runs once a call). */
	.p2align 6,,39
L(set_loop):
	VMOVA VEC(0), (%r8)
	VMOVA VEC(0), VEC_SIZE(%r8)
	VMOVA VEC(0), (2 * VEC_SIZE)(%r8)
	VMOVA VEC(0), (3 * VEC_SIZE)(%r8)
	add $(4 * VEC_SIZE), %r8
	cmp %rcx, %r8
	jb L(set_loop)
	VMOVU VEC(0), (%rcx)
	VMOVU VEC(0), VEC_SIZE(%rcx)
	VMOVU VEC(0), (2 * VEC_SIZE)(%rcx)
	VMOVU VEC(0), (3 * VEC_SIZE)(%rcx)
	RETURN
	ALIGN_TARGET
L(set_last_2vec):
	VMOVU VEC(0), -(2 * VEC_SIZE)(%rdi, %rdx)
	VMOVU VEC(0), -VEC_SIZE(%rdi, %rdx)
	RETURN
	ALIGN_TARGET
L(set_last_4vec):
	VMOVU VEC(0), -(4 * VEC_SIZE)(%rdi, %rdx)
	VMOVU VEC(0), -(3 * VEC_SIZE)(%rdi, %rdx)
	VMOVU VEC(0), -(2 * VEC_SIZE)(%rdi, %rdx)
	VMOVU VEC(0), -VEC_SIZE(%rdi, %rdx)
	RETURN
	/* A cache line of its own, as for the copies. */
	.p2align 6
L(set_below_vec):
#ifdef MASKED_SET
	/* One masked store of the n bytes, its span placed where it touches
	   no line the bytes do not: at the vector-aligned block that holds them
	   where one does, else at the destination (the bytes then touch both
	   blocks it covers).  At the destination alone, as in glibc, it would
	   cross a line at almost every offset (D12); so
	   placed it never reaches a page the bytes do not, where a masked
	   store suppresses a fault and is many times slower.  %rax keeps the
	   destination. */
	and $(VEC_SIZE - 1), %edi
	lea -(VEC_SIZE + 1)(%rdi, %rdx), %rcx
	sar $63, %rcx
	and %rcx, %rdi
	MASK_OF_N_FROM_RDI
	neg %rdi
	VMOVU8 VEC(0), (%rax, %rdi){%k1}
	ret
#else
#if VEC_SIZE == 64
	cmp $32, %edx
	jae L(set_32_to_63)
#endif
#if VEC_SIZE > 16
	cmp $16, %edx
	jae L(set_16_to_31)
#endif
	/* Below 16 bytes the byte in every byte of %rsi; 0..7 from n - 4, as
	   the copies do. */
	MOVQ_XMM0_RSI
	cmp $8, %edx
	jae L(set_8_to_15)
	sub $4, %rdx
	jae L(set_4_to_7)
	cmp $-3, %edx
	jl L(set_done)
	je L(set_one)
	mov %si, 2(%rdi, %rdx)
L(set_one):
	mov %sil, (%rdi)
L(set_done):
	ret
	ALIGN_TARGET
L(set_4_to_7):
	mov %esi, (%rdi)
	mov %esi, (%rdi, %rdx)
	ret
	ALIGN_TARGET
L(set_8_to_15):
	mov %rsi, (%rdi)
	mov %rsi, -8(%rdi, %rdx)
	ret
#if VEC_SIZE == 64
	ALIGN_TARGET
L(set_32_to_63):
	YMOVU YMM(0), (%rdi)
	YMOVU YMM(0), -32(%rdi, %rdx)
	ret
#endif
#if VEC_SIZE > 16
	ALIGN_TARGET
L(set_16_to_31):
	XMOVU XMM(0), (%rdi)
	XMOVU XMM(0), -16(%rdi, %rdx)
	ret
#endif
#endif /* MASKED_SET */
	.size ENTRY_NAME(memset), . - ENTRY_NAME(memset)

#undef COPY_VEC_PAIR
#undef FIRST_VEC_EARLY
#undef FIRST_VEC_LATE
#undef COPY_32_TO_63
#undef COPY_32_TO_63_PIECE
#undef COPY_16_TO_31
#undef COPY_16_TO_31_PIECE
#undef COPY_PIECES_BELOW_VEC
#undef COPY_BELOW_32
#undef COPY_BELOW_VEC_MASKED
#undef COPY_HEAD_TAIL
#undef LEAVE_FOR_REP_RANGE
#undef REP_RANGE_TEST_BYTES
#undef SET_ABOVE_2VEC_ALIGN
#undef LEAVE_FOR_BACKWARD_memcpy
#undef LEAVE_FOR_BACKWARD_memmove
#undef BACKWARD_LOOP_memcpy
#undef BACKWARD_LOOP_memmove
