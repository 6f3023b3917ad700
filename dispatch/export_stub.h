/* Exported names that other objects see as ordinary functions, while the
 * target is still picked once, by a resolver, at start-up.
 *
 * Why not export GNU indirect functions: with LD_PRELOAD the dynamic
 * linker relocates every other library of the program before this one.
 * A reference from such a library to an STT_GNU_IFUNC symbol of ours makes
 * it run our resolver from a library that is not relocated yet, and glibc
 * prints "Relink `libfoo.so' with `libmemshim.so' for IFUNC symbol `memset'"
 * (elf_machine_rela in its x86_64 dl-machine.h) into the program's stderr,
 * in every process, children included.
 *
 * So each exported NAME is an STT_FUNC of seven instructions:
 *
 *     cmp  memshim_bands_NAME(%rip), %rdx      the first band's bound (n: %rsi for bzero and kin)
 *     ja   1f
 *     jmp  *memshim_bands_NAME+16(%rip)        the first band's function
 *  1: cmp  memshim_bands_NAME+8(%rip), %rdx    the second band's bound
 *     ja   2f
 *     jmp  *memshim_bands_NAME+24(%rip)        the second band's function
 *  2: jmp  *memshim_target_NAME@GOTPCREL(%rip) every larger size
 *
 * The last slot is the GOT entry of a hidden indirect function,
 * memshim_target_NAME, which the static linker turns into an
 * R_X86_64_IRELATIVE relocation of this library.  The dynamic linker
 * applies it while relocating us (after our other relocations: glibc
 * defers IRELATIVE to the end of each table), that is before any program
 * code or constructor runs; its resolver also sets the first two bands'
 * bounds and functions, so all are set before the first call can come and
 * the stub needs no check.  Other libraries' relocations now resolve to a
 * plain function: no resolver runs early, no message.
 *
 * With one band (a single variant) the first bound is SIZE_MAX: the branch
 * is never taken and a call costs one predicted indirect jump, as before
 * bands; and after start-up the objects then loaded call the variant
 * without the stub (preload/direct_bind.c).  Up to three bands no
 * dispatcher runs: a band costs a compare and a branch, and the third
 * band's function sits in the slot.  With more, the
 * slot holds the band dispatcher (dispatch/banded.c) for the third band on:
 * large sizes, where its few compares are lost in the copy.
 *
 * memshim_stub_NAME is the stub's address inside this library (hidden, so
 * that taking it needs no lookup).
 *
 * export_stub_decode() reads a stub back, for tests/bound_symbol.h and
 * memshim bench --stub. */
#ifndef MEMSHIM_EXPORT_STUB_H
#define MEMSHIM_EXPORT_STUB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MEMSHIM_STRINGIFY(x) #x

/* The first two size bands of an exported string function, side by side
 * so the stub reads one cache line (the asm below knows this layout). */
struct export_bands {
	size_t bound[2];
	void *function[2];
};

/* The start of an exported function `name` in assembly. */
#define MEMSHIM_STUB_START(name) ".text\n.globl " #name "\n.type " #name ", @function\n.p2align 4\n" #name ":\n"

/* Defines the exported function `name`, which jumps to what `resolver`
 * (a static function of the caller's file, returning the target) picks:
 * one indirect jump, for exports that have no size (exec*, _exit). */
#define MEMSHIM_EXPORT_STUB(name, resolver)                                                        \
	extern __typeof__(name) memshim_target_##name                                                  \
		__attribute__((ifunc(MEMSHIM_STRINGIFY(resolver)), visibility("hidden")));                 \
	__asm__(MEMSHIM_STUB_START(name)                                                               \
	        "\tjmp *memshim_target_" #name "@GOTPCREL(%rip)\n"                                     \
	        ".size " #name ", . - " #name "\n")

/* The same for a string function whose size argument is in `size_reg`
 * ("rdx" or "rsi"), with the first two bands that its resolver sets besides
 * returning the last slot's target. */
#define MEMSHIM_EXPORT_BANDED_STUB(name, size_reg, resolver)                                       \
	__attribute__((visibility("hidden"), aligned(32))) struct export_bands memshim_bands_##name =  \
		{ { SIZE_MAX, SIZE_MAX }, { 0, 0 } };                                                      \
	extern __typeof__(name) memshim_target_##name                                                  \
		__attribute__((ifunc(MEMSHIM_STRINGIFY(resolver)), visibility("hidden")));                 \
	__asm__(MEMSHIM_STUB_START(name)                                                               \
	        ".globl memshim_stub_" #name "\n.hidden memshim_stub_" #name "\n"                        \
	        "memshim_stub_" #name ":\n"                                                              \
	        "\tcmp memshim_bands_" #name "(%rip), %" size_reg "\n"                                 \
	        "\tja 1f\n"                                                                            \
	        "\tjmp *memshim_bands_" #name "+16(%rip)\n"                                            \
	        "1:\tcmp memshim_bands_" #name "+8(%rip), %" size_reg "\n"                             \
	        "\tja 2f\n"                                                                            \
	        "\tjmp *memshim_bands_" #name "+24(%rip)\n"                                            \
	        "2:\tjmp *memshim_target_" #name "@GOTPCREL(%rip)\n"                                   \
	        ".size " #name ", . - " #name "\n")

/* The function that calls of every size reach through these bands when
 * there is just one band (the stub then decides nothing: preload/
 * direct_bind.c binds callers to it directly); NULL with more. */
static inline void *export_bands_single_target(const struct export_bands *b)
{
	return b->bound[0] == SIZE_MAX ? b->function[0] : NULL;
}

/* The rel32 at p, as the address it points to from the instruction ending at end. */
static inline const void *rip_target(const unsigned char *p, const unsigned char *end)
{
	int32_t rel;
	memcpy(&rel, p, sizeof rel);
	return end + rel;
}

/* What a stub at `code` does: calls up to bound[0] go to function[0], up to
 * bound[1] to function[1], larger ones to *rest.  False if `code` is not
 * such a stub. */
static inline int export_stub_decode(const void *code, struct export_bands *bands, void **rest)
{
	const unsigned char *p = code;
	/* twice: cmp rel32(%rip),%rdx or %rsi (48 3b 15/35), ja +6 (77 06),
	 * jmp *rel32(%rip) (ff 25); then jmp *rel32(%rip) */
	for (int i = 0; i < 2; i++, p += 15) {
		if (p[0] != 0x48 || p[1] != 0x3b || (p[2] != 0x15 && p[2] != 0x35) || p[7] != 0x77 || p[8] != 6 ||
		    p[9] != 0xff || p[10] != 0x25)
			return 0;
		bands->bound[i] = *(const size_t *)rip_target(p + 3, p + 7);
		bands->function[i] = *(void *const *)rip_target(p + 11, p + 15);
	}
	if (p[0] != 0xff || p[1] != 0x25)
		return 0;
	*rest = *(void *const *)rip_target(p + 2, p + 6);
	return 1;
}

#endif
