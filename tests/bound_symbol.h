/* Which function a call from this object was bound to: reads the object's
 * own PLT GOT slot for the name (after at least one call, with lazy
 * binding), follows memshim's exported stub (one `jmp *slot(%rip)`, see
 * dispatch/export_stub.h) to the slot's target, and asks dladdr what lives
 * there. */
#ifndef MEMSHIM_TESTS_BOUND_SYMBOL_H
#define MEMSHIM_TESTS_BOUND_SYMBOL_H

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

/* Where the indirect jump `jmp *rel32(%rip)` (ff 25 rel32) at `code` goes;
 * `code` itself if that is not what is there. */
static inline void *through_jump(void *code)
{
	const unsigned char *insn = code;
	if (insn[0] != 0xff || insn[1] != 0x25)
		return code;
	int32_t rel;
	memcpy(&rel, insn + 2, sizeof rel);
	return *(void **)(insn + 6 + rel);
}

static inline const char *bound_symbol(const char *name)
{
	Dl_info self;
	struct link_map *map = NULL;
	if (!dladdr1((void *)bound_symbol, &self, (void **)&map, RTLD_DL_LINKMAP) || !map)
		return "(no link map)";
	const ElfW(Rela) *rela = NULL;
	size_t rela_bytes = 0;
	const ElfW(Sym) *symbols = NULL;
	const char *strings = NULL;
	for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_JMPREL) rela = (const void *)d->d_un.d_ptr;
		if (d->d_tag == DT_PLTRELSZ) rela_bytes = d->d_un.d_val;
		if (d->d_tag == DT_SYMTAB) symbols = (const void *)d->d_un.d_ptr;
		if (d->d_tag == DT_STRTAB) strings = (const void *)d->d_un.d_ptr;
	}
	if (!rela || !symbols || !strings)
		return "(no PLT)";
	for (size_t i = 0; i < rela_bytes / sizeof *rela; i++) {
		const ElfW(Sym) *sym = &symbols[ELF64_R_SYM(rela[i].r_info)];
		if (strcmp(strings + sym->st_name, name) != 0)
			continue;
		void *target = through_jump(*(void **)(map->l_addr + rela[i].r_offset));
		Dl_info info;
		if (!dladdr(target, &info))
			return "(unknown)";
		if (info.dli_sname && strncmp(info.dli_sname, "memshim_", 8) == 0)
			return info.dli_sname;
		/* The C library's own function: name the object, its internal names vary. */
		return strstr(info.dli_fname, "libc.so") ? "libc" : info.dli_fname;
	}
	return "(not called through the PLT)";
}

#endif
