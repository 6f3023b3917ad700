#include "dispatch/bootstrap.h"

#include "dispatch/next_symbol.h"
#include "dispatch/raw_syscall.h"

#include <elf.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>

extern void *__libc_stack_end;
extern const ElfW(Ehdr) __ehdr_start __attribute__((visibility("hidden"))); /* our load address */
extern ElfW(Dyn) _DYNAMIC[] __attribute__((visibility("hidden")));

/* Holds its own address once relocated; the link-time value before. */
static char sentinel_target;
static char *volatile relocation_sentinel = &sentinel_target;

bool self_relocated(void)
{
	return relocation_sentinel == &sentinel_target;
}

/* Our R_X86_64_RELATIVE relocations, applied as the dynamic linker will. */
static bool apply_relative_relocations(void)
{
	uintptr_t base = (uintptr_t)&__ehdr_start;
	const ElfW(Rela) *rela = NULL;
	size_t bytes = 0;
	for (const ElfW(Dyn) *d = _DYNAMIC; d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_RELA)
			rela = dynamic_address(base, d->d_un.d_ptr);
		else if (d->d_tag == DT_RELASZ)
			bytes = d->d_un.d_val;
		else if (d->d_tag == DT_RELR)
			return false; /* additive: applying them twice would corrupt */
	}
	for (size_t i = 0; rela && i < bytes / sizeof *rela; i++) {
		uintptr_t *where = (uintptr_t *)(base + rela[i].r_offset);
		/* the sentinel stays as it is: it tells when the dynamic linker has been */
		if (ELF64_R_TYPE(rela[i].r_info) == R_X86_64_RELATIVE && where != (uintptr_t *)&relocation_sentinel)
			*where = base + (uintptr_t)rela[i].r_addend;
	}
	return true;
}

/* The dynamic linker's load address, AT_BASE, from /proc/self/auxv. */
static uintptr_t dynamic_linker_base(void)
{
	long fd = raw_syscall3(SYS_open, (long)"/proc/self/auxv", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	ElfW(auxv_t) aux[64];
	uintptr_t base = 0;
	long got;
	while (!base && (got = raw_syscall3(SYS_read, fd, (long)aux, sizeof aux)) > 0)
		for (size_t i = 0; i < (size_t)got / sizeof aux[0]; i++)
			if (aux[i].a_type == AT_BASE)
				base = aux[i].a_un.a_val;
	raw_syscall3(SYS_close, fd, 0, 0);
	return base;
}

static void *stack_end;
static struct r_debug *r_debug_found;

static void bootstrap_self(void)
{
	static int done;
	if (done)
		return;
	done = 1; /* only the dynamic linker's thread runs this early */
	if (!apply_relative_relocations())
		return;
	uintptr_t ld_base = dynamic_linker_base();
	if (!ld_base)
		return;
	void **stack_end_variable = symbol_in_loaded_object(ld_base, "__libc_stack_end");
	stack_end = stack_end_variable ? *stack_end_variable : NULL;
	r_debug_found = symbol_in_loaded_object(ld_base, "_r_debug");
}

void *bootstrap_stack_end(void)
{
	if (self_relocated())
		return __libc_stack_end;
	bootstrap_self();
	return stack_end;
}

struct r_debug *bootstrap_r_debug(void)
{
	if (self_relocated())
		return &_r_debug;
	bootstrap_self();
	return r_debug_found;
}
