/* Which function a call from this object was bound to: reads the object's
 * own PLT GOT slot for the name (after at least one call, with lazy
 * binding) and asks dladdr what lives there. */
#ifndef MEMSHIM_TESTS_BOUND_SYMBOL_H
#define MEMSHIM_TESTS_BOUND_SYMBOL_H

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>

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
		void *target = *(void **)(map->l_addr + rela[i].r_offset);
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
