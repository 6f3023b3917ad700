/* Symbol lookup in the GNU hash table of each loaded object.
 *
 * The table layout (header, Bloom filter, buckets, chains with the low bit
 * ending a chain) is the one documented for DT_GNU_HASH by the binutils and
 * glibc sources; the walk here is written for this library. */
#include "dispatch/next_symbol.h"

#include "dispatch/bootstrap.h"
#include "dispatch/early_env.h"

#include <elf.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>

extern ElfW(Dyn) _DYNAMIC[] __attribute__((visibility("hidden"))); /* this library's own */

struct symbol_tables {
	const uint32_t *gnu_hash;
	const ElfW(Sym) *symbols;
	const char *strings;
	const ElfW(Half) *versions; /* NULL when the object has no symbol versions */
};

static uint32_t gnu_hash(const char *name)
{
	uint32_t h = 5381;
	for (; *name; name++)
		h = h * 33 + (unsigned char)*name;
	return h;
}

const void *dynamic_address(uintptr_t base, uintptr_t value)
{
	return (const void *)(value < base ? value + base : value);
}

static int read_tables(ElfW(Addr) base, const ElfW(Dyn) *dynamic, struct symbol_tables *t)
{
	t->gnu_hash = NULL;
	t->symbols = NULL;
	t->strings = NULL;
	t->versions = NULL;
	for (const ElfW(Dyn) *d = dynamic; d && d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_GNU_HASH)
			t->gnu_hash = dynamic_address(base, d->d_un.d_ptr);
		else if (d->d_tag == DT_SYMTAB)
			t->symbols = dynamic_address(base, d->d_un.d_ptr);
		else if (d->d_tag == DT_STRTAB)
			t->strings = dynamic_address(base, d->d_un.d_ptr);
		else if (d->d_tag == DT_VERSYM)
			t->versions = dynamic_address(base, d->d_un.d_ptr);
	}
	return t->gnu_hash && t->symbols && t->strings;
}

static int is_default_definition(const struct symbol_tables *t, uint32_t index)
{
	const ElfW(Sym) *sym = &t->symbols[index];
	unsigned type = ELF64_ST_TYPE(sym->st_info), bind = ELF64_ST_BIND(sym->st_info);
	if (sym->st_shndx == SHN_UNDEF ||
	    (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT))
		return 0;
	if (bind != STB_GLOBAL && bind != STB_WEAK)
		return 0;
	/* Bit 15 of the version index marks a hidden, non-default version
	 * (memcpy@GLIBC_2.2.5 beside the default memcpy@@GLIBC_2.14). */
	return !t->versions || !(t->versions[index] & 0x8000);
}

static const ElfW(Sym) *find_in_object(const struct symbol_tables *t, const char *name)
{
	const uint32_t *h = t->gnu_hash;
	uint32_t nbuckets = h[0], first_symbol = h[1], bloom_words = h[2];
	const uint32_t *buckets = (const uint32_t *)((const ElfW(Addr) *)(h + 4) + bloom_words);
	const uint32_t *chains = buckets + nbuckets;
	uint32_t hash = gnu_hash(name);
	if (nbuckets == 0)
		return NULL;
	for (uint32_t i = buckets[hash % nbuckets]; i != 0 && i >= first_symbol; i++) {
		uint32_t chain = chains[i - first_symbol];
		if ((chain | 1) == (hash | 1) && same_string(t->strings + t->symbols[i].st_name, name) &&
		    is_default_definition(t, i))
			return &t->symbols[i];
		if (chain & 1)
			break;
	}
	return NULL;
}

static void *address_of(const struct link_map *map, const ElfW(Sym) *sym)
{
	void *address = (void *)(map->l_addr + sym->st_value);
	if (ELF64_ST_TYPE(sym->st_info) == STT_GNU_IFUNC)
		address = ((void *(*)(void))address)(); /* x86-64 resolvers take no arguments */
	return address;
}

static void *find_from(const struct link_map *start, const char *name)
{
	for (const struct link_map *map = start; map; map = map->l_next) {
		struct symbol_tables t;
		if (map->l_ld == _DYNAMIC || !read_tables(map->l_addr, map->l_ld, &t))
			continue;
		const ElfW(Sym) *sym = find_in_object(&t, name);
		if (sym)
			return address_of(map, sym);
	}
	return NULL;
}

void *next_symbol(const char *name)
{
	const struct r_debug *debug = bootstrap_r_debug();
	const struct link_map *first = debug ? debug->r_map : NULL, *self = NULL;
	for (const struct link_map *map = first; map; map = map->l_next)
		if (map->l_ld == _DYNAMIC)
			self = map;
	void *found = self ? find_from(self->l_next, name) : NULL;
	/* Not preloaded but dlopen'ed: the C library was loaded before us.
	 * Skip the main program, whose own definition would be found first. */
	return found ? found : find_from(first ? first->l_next : NULL, name);
}

void *symbol_in_loaded_object(uintptr_t base, const char *name)
{
	const ElfW(Ehdr) *header = (const ElfW(Ehdr) *)base;
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(base + header->e_phoff);
	for (unsigned i = 0; i < header->e_phnum; i++) {
		struct symbol_tables t;
		if (ph[i].p_type != PT_DYNAMIC || !read_tables(base, (const ElfW(Dyn) *)(base + ph[i].p_vaddr), &t))
			continue;
		const ElfW(Sym) *sym = find_in_object(&t, name);
		return sym ? (void *)(base + sym->st_value) : NULL;
	}
	return NULL;
}
