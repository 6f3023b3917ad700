#include "config.h"

#include "tools/cli_reach.h"

#include <elf.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Tables past this size are taken as a damaged file, not read. */
#define MAX_TABLE (16u << 20)

struct program {
	bool elf64, elf32, interpreter, go, libc;
	char asan_runtime[64]; /* the DT_NEEDED name of libasan, if any */
};

/* size bytes at offset, in a buffer to free; NULL if they cannot be read. */
static void *read_at(int fd, unsigned long long offset, unsigned long long size)
{
	if (size == 0 || size > MAX_TABLE)
		return NULL;
	void *buffer = malloc(size);
	if (buffer && pread(fd, buffer, size, (off_t)offset) != (ssize_t)size) {
		free(buffer);
		buffer = NULL;
	}
	return buffer;
}

static const char *string_at(const char *table, unsigned long long table_size, unsigned long long offset)
{
	return offset < table_size && memchr(table + offset, '\0', table_size - offset) ? table + offset : "";
}

static bool starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* The shared libraries the program names (DT_NEEDED), from its .dynamic section. */
static void read_needed(int fd, const Elf64_Shdr *dynamic, const Elf64_Shdr *strings, struct program *p)
{
	Elf64_Dyn *d = read_at(fd, dynamic->sh_offset, dynamic->sh_size);
	char *names = read_at(fd, strings->sh_offset, strings->sh_size);
	for (size_t i = 0; d && names && i < dynamic->sh_size / sizeof *d && d[i].d_tag != DT_NULL; i++) {
		if (d[i].d_tag != DT_NEEDED)
			continue;
		const char *name = string_at(names, strings->sh_size, d[i].d_un.d_val);
		p->libc |= starts_with(name, "libc.so");
		if (starts_with(name, "libasan.so"))
			snprintf(p->asan_runtime, sizeof p->asan_runtime, "%s", name);
	}
	free(d);
	free(names);
}

/* Go's sections, and the DT_NEEDED list, from the section headers. */
static void read_sections(int fd, const Elf64_Ehdr *e, struct program *p)
{
	if (e->e_shentsize != sizeof(Elf64_Shdr) || e->e_shstrndx >= e->e_shnum)
		return;
	Elf64_Shdr *s = read_at(fd, e->e_shoff, (unsigned long long)e->e_shnum * sizeof *s);
	char *names = s ? read_at(fd, s[e->e_shstrndx].sh_offset, s[e->e_shstrndx].sh_size) : NULL;
	for (unsigned i = 0; names && i < e->e_shnum; i++) {
		const char *name = string_at(names, s[e->e_shstrndx].sh_size, s[i].sh_name);
		p->go |= strcmp(name, ".note.go.buildid") == 0 || strcmp(name, ".go.buildinfo") == 0;
		if (s[i].sh_type == SHT_DYNAMIC && s[i].sh_link < e->e_shnum)
			read_needed(fd, &s[i], &s[s[i].sh_link], p);
	}
	free(names);
	free(s);
}

static void read_program(int fd, struct program *p)
{
	Elf64_Ehdr e = { 0 }; /* a short file leaves zeros, which match no program */
	if (pread(fd, &e, sizeof e, 0) < EI_NIDENT || memcmp(e.e_ident, ELFMAG, SELFMAG) != 0)
		return;
	bool program = e.e_type == ET_EXEC || e.e_type == ET_DYN;
	p->elf32 = e.e_ident[EI_CLASS] == ELFCLASS32;
	p->elf64 = e.e_ident[EI_CLASS] == ELFCLASS64 && program && e.e_phentsize == sizeof(Elf64_Phdr);
	if (!p->elf64)
		return;
	Elf64_Phdr *ph = read_at(fd, e.e_phoff, (unsigned long long)e.e_phnum * sizeof *ph);
	for (unsigned i = 0; ph && i < e.e_phnum; i++)
		p->interpreter |= ph[i].p_type == PT_INTERP;
	free(ph);
	read_sections(fd, &e, p);
}

enum cli_reach cli_preload_reachable(const char *path, const char *name, char *why, size_t size)
{
	struct program p = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return REACH_OK;
	read_program(fd, &p);
	close(fd);
	if (p.elf32) {
		snprintf(why, size, "%s is a 32-bit program: the 64-bit libmemshim.so cannot be loaded into it", name);
		return REACH_32BIT;
	}
	if (!p.elf64)
		return REACH_OK;
	/* A Go program copies with its runtime's own memmove; only its C code
	 * (cgo, which brings in the C library) calls memcpy. */
	if (p.go && !p.libc) {
		snprintf(why, size, "%s is a Go program without cgo: its copies never call the C library, "
		                    "so LD_PRELOAD cannot replace or record them", name);
		return REACH_GO;
	}
	if (!p.interpreter) {
		snprintf(why, size, "%s is statically linked: LD_PRELOAD cannot reach it, "
		                    "so its copies are neither replaced nor recorded", name);
		return REACH_STATIC;
	}
	/* gcc's -fsanitize=address links the runtime as a shared library, which
	 * refuses to start unless it comes first; clang's default links it into
	 * the program, which is always first. */
	if (p.asan_runtime[0]) {
		snprintf(why, size, "%s uses AddressSanitizer, whose runtime must come first in LD_PRELOAD: "
		                    "set LD_PRELOAD=%s:OTHERS, or leave it unset (memshim run then puts it first)",
		         name, p.asan_runtime);
		return REACH_ASAN;
	}
	return REACH_OK;
}
