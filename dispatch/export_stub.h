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
 * So each exported NAME is an STT_FUNC of four instructions:
 *
 *     cmp  memshim_band0_NAME(%rip), %rdx     its bound (n: %rsi for bzero and kin)
 *     ja   1f
 *     jmp  *memshim_band0_NAME+8(%rip)        the first size band's function
 *  1: jmp  *memshim_target_NAME@GOTPCREL(%rip)   every larger size
 *
 * The last slot is the GOT entry of a hidden indirect function,
 * memshim_target_NAME, which the static linker turns into an
 * R_X86_64_IRELATIVE relocation of this library.  The dynamic linker
 * applies it while relocating us (after our other relocations: glibc
 * defers IRELATIVE to the end of each table), that is before any program
 * code or constructor runs; its resolver also sets the bound and the first
 * band's function, so all three are set before the first call can come and
 * the stub needs no check.  Other libraries' relocations now resolve to a
 * plain function: no resolver runs early, no message.
 *
 * With one band (a single variant) the bound is SIZE_MAX: the branch is
 * never taken and a call costs one predicted indirect jump, as before bands.
 * With two, the second band's function sits in the slot, so a size band
 * costs a compare and a branch, and no dispatcher runs (shim/banded.c
 * serves the bands beyond the second).
 *
 * export_stub_decode() reads a stub back, for tests/bound_symbol.h and
 * memshim bench --stub. */
#ifndef MEMSHIM_EXPORT_STUB_H
#define MEMSHIM_EXPORT_STUB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MEMSHIM_STRINGIFY(x) #x

/* The first size band of an exported string function: side by side, so the
 * stub reads one cache line (the asm below knows this layout). */
struct export_band0 {
	size_t bound;
	void *first;
};

/* Defines the exported function `name`, which jumps to what `resolver`
 * (a static function of the caller's file, returning the target) picks:
 * one indirect jump, for exports that have no size (exec*, _exit). */
#define MEMSHIM_EXPORT_STUB(name, resolver)                                                        \
	extern __typeof__(name) memshim_target_##name                                                  \
		__attribute__((ifunc(MEMSHIM_STRINGIFY(resolver)), visibility("hidden")));                 \
	__asm__(".text\n"                                                                              \
	        ".globl " #name "\n"                                                                   \
	        ".type " #name ", @function\n"                                                         \
	        ".p2align 4\n" #name ":\n"                                                             \
	        "\tjmp *memshim_target_" #name "@GOTPCREL(%rip)\n"                                     \
	        ".size " #name ", . - " #name "\n")

/* The same for a string function whose size argument is in `size_reg`
 * ("rdx" or "rsi"), with the bound and first-band slots that its resolver
 * sets besides returning the last slot's target. */
#define MEMSHIM_EXPORT_BANDED_STUB(name, size_reg, resolver)                                       \
	__attribute__((visibility("hidden"))) struct export_band0 memshim_band0_##name = { SIZE_MAX, 0 }; \
	extern __typeof__(name) memshim_target_##name                                                  \
		__attribute__((ifunc(MEMSHIM_STRINGIFY(resolver)), visibility("hidden")));                 \
	__asm__(".text\n"                                                                              \
	        ".globl " #name "\n"                                                                   \
	        ".type " #name ", @function\n"                                                         \
	        ".p2align 4\n" #name ":\n"                                                             \
	        "\tcmp memshim_band0_" #name "(%rip), %" size_reg "\n"                                 \
	        "\tja 1f\n"                                                                            \
	        "\tjmp *memshim_band0_" #name "+8(%rip)\n"                                             \
	        "1:\tjmp *memshim_target_" #name "@GOTPCREL(%rip)\n"                                   \
	        ".size " #name ", . - " #name "\n")

/* What a stub at `code` does: calls up to *bound go to *first, larger ones
 * to *rest.  False if `code` is not such a stub. */
static inline int export_stub_decode(const void *code, size_t *bound, void **first, void **rest)
{
	const unsigned char *p = code;
	int32_t rel;
	/* cmp rel32(%rip),%rdx or %rsi (48 3b 15/35); ja +6 (77 06); two jmp *rel32(%rip) (ff 25) */
	if (p[0] != 0x48 || p[1] != 0x3b || (p[2] != 0x15 && p[2] != 0x35) || p[7] != 0x77 || p[8] != 6 ||
	    p[9] != 0xff || p[10] != 0x25 || p[15] != 0xff || p[16] != 0x25)
		return 0;
	memcpy(&rel, p + 3, sizeof rel);
	*bound = *(const size_t *)(p + 7 + rel);
	memcpy(&rel, p + 11, sizeof rel);
	*first = *(void *const *)(p + 15 + rel);
	memcpy(&rel, p + 17, sizeof rel);
	*rest = *(void *const *)(p + 21 + rel);
	return 1;
}

#endif
