/* Which function a call from this object was bound to: reads the object's
 * own PLT GOT slot for the name (after at least one call, with lazy
 * binding), follows memshim's exported stub (dispatch/export_stub.h) to
 * what it calls, and asks dladdr what lives there.  A stub that splits the
 * sizes is shown as "bands:FIRST|SECOND" or "bands:FIRST|SECOND|REST". */
#ifndef MEMSHIM_TESTS_BOUND_SYMBOL_H
#define MEMSHIM_TESTS_BOUND_SYMBOL_H

#include "dispatch/export_stub.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* "memshim_..." for a variant's function, "libc" for the C library's. */
static inline const char *symbol_at(void *target)
{
	Dl_info info;
	if (!dladdr(target, &info))
		return "(unknown)";
	if (info.dli_sname && strncmp(info.dli_sname, "memshim_", 8) == 0)
		return info.dli_sname;
	/* The C library's own function: name the object, its internal names vary. */
	return strstr(info.dli_fname, "libc.so") ? "libc" : info.dli_fname;
}

/* What the function at `code` calls: itself if it is not memshim's stub. */
static inline const char *through_stub(void *code)
{
	static char texts[8][384]; /* a caller may print several in one printf */
	static unsigned next;
	char *text = texts[next++ % 8];
	struct export_bands bands;
	void *rest;
	if (!export_stub_decode(code, &bands, &rest))
		return symbol_at(code);
	if (bands.bound[0] == SIZE_MAX)
		return symbol_at(bands.function[0]);
	int len = snprintf(text, sizeof texts[0], "bands:%s|%s", symbol_at(bands.function[0]),
	                   symbol_at(bands.function[1]));
	if (bands.bound[1] != SIZE_MAX)
		snprintf(text + len, sizeof texts[0] - (size_t)len, "|%s", symbol_at(rest));
	return text;
}

/* This object's PLT GOT slot for `name`; NULL and *why if there is none. */
static inline void **plt_slot(const char *name, const char **why)
{
	Dl_info self;
	struct link_map *map = NULL;
	*why = "(no link map)";
	if (!dladdr1((void *)plt_slot, &self, (void **)&map, RTLD_DL_LINKMAP) || !map)
		return NULL;
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
	*why = "(no PLT)";
	if (!rela || !symbols || !strings)
		return NULL;
	*why = "(not called through the PLT)";
	for (size_t i = 0; i < rela_bytes / sizeof *rela; i++) {
		const ElfW(Sym) *sym = &symbols[ELF64_R_SYM(rela[i].r_info)];
		if (strcmp(strings + sym->st_name, name) == 0)
			return (void **)(map->l_addr + rela[i].r_offset);
	}
	return NULL;
}

static inline const char *bound_symbol(const char *name)
{
	const char *why;
	void **slot = plt_slot(name, &why);
	return slot ? through_stub(*slot) : why;
}

/* "stub" if the slot holds memshim's exported stub, "unbound" if it still
 * points into this object (lazy binding, not bound yet), else "direct":
 * it holds the function the stub would call (preload/direct_bind.c). */
static inline const char *slot_holds(const char *name)
{
	const char *why;
	struct export_bands bands;
	void *rest;
	Dl_info self, there;
	void **slot = plt_slot(name, &why);
	if (!slot)
		return why;
	if (export_stub_decode(*slot, &bands, &rest))
		return "stub";
	if (dladdr((void *)slot_holds, &self) && dladdr(*slot, &there) && self.dli_fbase == there.dli_fbase)
		return "unbound";
	return "direct";
}

#endif
