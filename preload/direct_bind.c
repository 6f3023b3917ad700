/* Direct binding of the string functions' PLT slots (preload/direct_bind.h).
 *
 * Every call a program makes to memcpy goes through its PLT: a jump through
 * a slot of its global offset table that the dynamic linker filled with
 * our exported stub.  The stub then jumps again, to the variant.  Once the
 * resolvers have chosen, a function with one band has nothing left to
 * decide, so this rewrites those slots to hold the variant itself, and a
 * call costs what it costs without memshim: one jump through the slot.
 *
 * What is rewritten, and why that is safe:
 *   - only R_X86_64_JUMP_SLOT relocations: a PLT slot only serves calls.
 *     Slots that give a function's address (R_X86_64_GLOB_DAT) keep the
 *     stub, so `&memcpy` is the same in every object;
 *   - a slot already bound to our stub, or one not bound yet (lazy
 *     binding) when the lookup of the name in the program's search list
 *     finds our stub, which is what the dynamic linker would bind it to;
 *   - slots in the read-only part of the data (RELRO, with -z now) are
 *     rewritten between two mprotect calls; where that is refused they
 *     keep the stub, which is still correct.
 * An aligned 8-byte store is atomic, and both values are correct targets,
 * so a thread calling meanwhile is not disturbed.
 *
 * Objects loaded later (dlopen) and calls through function pointers still
 * go through the stub.  The idea of rewriting GOT entries after start-up
 * is the "PLT hooking" of tools such as plthook; the code is our own. */
#include "preload/direct_bind.h"

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* This library's own dynamic section, which the static linker defines:
 * how the walk recognises (and skips) this library. */
extern ElfW(Dyn) _DYNAMIC[] __attribute__((visibility("hidden")));

/* What the walk knows of the names. */
struct bind_walk {
	const struct direct_binding *names;
	unsigned count;
	bool lazy_ok[BIND_NAMES_MAX]; /* the program's search list finds our stub */
};

/* One object's dynamic tables, as absolute addresses. */
struct object_tables {
	const ElfW(Rela) *plt_relocs;
	size_t plt_reloc_count;
	const ElfW(Sym) *symbols;
	const char *strings;
};

/* The dynamic linker turns a table's address into an absolute one in place,
 * except in read-only dynamic sections (the vDSO): either form is accepted. */
static uintptr_t absolute(uintptr_t base, ElfW(Addr) address)
{
	return address < base ? base + address : address;
}

static bool read_tables(const struct dl_phdr_info *info, const ElfW(Dyn) *dyn, struct object_tables *t)
{
	uintptr_t base = info->dlpi_addr;
	size_t plt_bytes = 0;
	bool rela = false;
	*t = (struct object_tables){ 0 };
	for (; dyn->d_tag != DT_NULL; dyn++) {
		switch (dyn->d_tag) {
		case DT_JMPREL: t->plt_relocs = (const ElfW(Rela) *)absolute(base, dyn->d_un.d_ptr); break;
		case DT_PLTRELSZ: plt_bytes = dyn->d_un.d_val; break;
		case DT_PLTREL: rela = dyn->d_un.d_val == DT_RELA; break;
		case DT_SYMTAB: t->symbols = (const ElfW(Sym) *)absolute(base, dyn->d_un.d_ptr); break;
		case DT_STRTAB: t->strings = (const char *)absolute(base, dyn->d_un.d_ptr); break;
		}
	}
	t->plt_reloc_count = plt_bytes / sizeof(ElfW(Rela));
	return rela && t->plt_relocs && t->symbols && t->strings && t->plt_reloc_count;
}

/* Whether p lies in one of the object's loaded segments: a lazy slot not
 * yet bound points back into its own PLT. */
static bool in_object(const struct dl_phdr_info *info, uintptr_t p)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && p >= start && p - start < ph->p_memsz)
			return true;
	}
	return false;
}

/* The whole pages of the object's RELRO region, which the dynamic linker
 * made read-only after relocating it; empty if it has none. */
static void relro_pages(const struct dl_phdr_info *info, uintptr_t *start, uintptr_t *end)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	*start = *end = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_GNU_RELRO)
			continue;
		*start = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
		*end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(page - 1);
	}
}

/* The index in w->names of the name relocation r binds, if it is one to
 * rewrite at `slot`; -1 otherwise. */
static int name_to_bind(const struct bind_walk *w, const struct dl_phdr_info *info,
                        const struct object_tables *t, const ElfW(Rela) *r, void *const *slot)
{
	if (ELF64_R_TYPE(r->r_info) != R_X86_64_JUMP_SLOT)
		return -1;
	const char *name = t->strings + t->symbols[ELF64_R_SYM(r->r_info)].st_name;
	for (unsigned i = 0; i < w->count; i++) {
		if (!w->names[i].target || strcmp(name, w->names[i].name) != 0)
			continue;
		bool bound_to_stub = *slot == w->names[i].stub;
		bool unbound = w->lazy_ok[i] && in_object(info, (uintptr_t)*slot);
		return bound_to_stub || unbound ? (int)i : -1;
	}
	return -1;
}

/* Rewrites the object's slots outside its RELRO pages, or (`in_relro`)
 * those inside.  Returns how many it found inside them. */
static unsigned rewrite_slots(const struct bind_walk *w, const struct dl_phdr_info *info, const struct object_tables *t,
                              uintptr_t relro_start, uintptr_t relro_end, bool in_relro)
{
	unsigned found_in_relro = 0;
	for (size_t k = 0; k < t->plt_reloc_count; k++) {
		const ElfW(Rela) *r = &t->plt_relocs[k];
		void **slot = (void **)(info->dlpi_addr + r->r_offset);
		int i = name_to_bind(w, info, t, r, slot);
		if (i < 0)
			continue;
		bool protected = (uintptr_t)slot >= relro_start && (uintptr_t)slot < relro_end;
		found_in_relro += protected;
		if (protected != in_relro)
			continue;
		__atomic_store_n(slot, w->names[i].target, __ATOMIC_RELAXED);
	}
	return found_in_relro;
}

static int bind_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct bind_walk *w = data;
	(void)size;
	const ElfW(Dyn) *dyn = NULL;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	struct object_tables t;
	if (!dyn || dyn == _DYNAMIC || !read_tables(info, dyn, &t))
		return 0;
	uintptr_t start, end;
	relro_pages(info, &start, &end);
	/* First the writable slots, counting those in RELRO; then, only if
	 * there are any, those with the pages opened for the moment. */
	if (rewrite_slots(w, info, &t, start, end, false) == 0)
		return 0;
	if (mprotect((void *)start, end - start, PROT_READ | PROT_WRITE) != 0)
		return 0;
	rewrite_slots(w, info, &t, start, end, true);
	mprotect((void *)start, end - start, PROT_READ);
	return 0;
}

void direct_bind_loaded_objects(const struct direct_binding *names, unsigned n)
{
	struct bind_walk w = { .names = names, .count = n };
	/* LD_BIND_NOT asks the dynamic linker to leave lazy slots unbound (to
	 * see every call in a profiler): they are left alone here too. */
	const char *bind_not = getenv("LD_BIND_NOT");
	bool bind_lazy = !bind_not || !*bind_not;
	/* What a lazy slot will be bound to: the first definition in the
	 * program's search list (the program itself may define memcpy).  Not
	 * dlsym(RTLD_DEFAULT): this library is linked -Bsymbolic, and such a
	 * lookup from it finds its own definitions first. */
	void *program = dlopen(NULL, RTLD_LAZY);
	for (unsigned i = 0; i < w.count; i++)
		w.lazy_ok[i] = bind_lazy && program && names[i].target && dlsym(program, names[i].name) == names[i].stub;
	if (program)
		dlclose(program);
	dl_iterate_phdr(bind_object, &w);
}
