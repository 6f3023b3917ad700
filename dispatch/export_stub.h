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
 * So each exported NAME is an STT_FUNC whose whole body is one
 * `jmp *slot(%rip)`.  The slot is the GOT entry of a hidden indirect
 * function, memshim_target_NAME, which the static linker turns into an
 * R_X86_64_IRELATIVE relocation of this library.  The dynamic linker
 * applies it while relocating us (after our other relocations: glibc
 * defers IRELATIVE to the end of each table), that is before any program
 * code or constructor runs, so the slot is set before the first call can
 * come and the stub needs no check.  Other libraries' relocations now
 * resolve to a plain function: no resolver runs early, no message.  The
 * price is one indirect jump per call, to a target that never changes, so
 * the branch predictor gets it right (`memshim bench` measures it).
 *
 * tests/bound_symbol.h follows the jump (ff 25 rel32) to tell what a call
 * was bound to. */
#ifndef MEMSHIM_EXPORT_STUB_H
#define MEMSHIM_EXPORT_STUB_H

#define MEMSHIM_STRINGIFY(x) #x

/* Defines the exported function `name`, which jumps to what `resolver`
 * (a static function of the caller's file, returning the target) picks. */
#define MEMSHIM_EXPORT_STUB(name, resolver)                                                        \
	extern __typeof__(name) memshim_target_##name                                                  \
		__attribute__((ifunc(MEMSHIM_STRINGIFY(resolver)), visibility("hidden")));                 \
	__asm__(".text\n"                                                                              \
	        ".globl " #name "\n"                                                                   \
	        ".type " #name ", @function\n"                                                         \
	        ".p2align 4\n" #name ":\n"                                                             \
	        "\tjmp *memshim_target_" #name "@GOTPCREL(%rip)\n"                                     \
	        ".size " #name ", . - " #name "\n")

#endif
