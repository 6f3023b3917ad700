#include "config.h"

#include "tools/util/elf_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Tables past this size are taken as a damaged file, not read. */
#define MAX_TABLE (256u << 20)

void *elf_read(const struct elf_file *f, unsigned long long offset, unsigned long long size)
{
	if (size == 0 || size > MAX_TABLE)
		return NULL;
	void *buffer = malloc(size);
	if (buffer && pread(f->fd, buffer, size, (off_t)offset) != (ssize_t)size) {
		free(buffer);
		buffer = NULL;
	}
	return buffer;
}

const char *elf_string(const char *table, unsigned long long size, unsigned long long offset)
{
	return table && offset < size && memchr(table + offset, '\0', size - offset) ? table + offset : "";
}

void *elf_section(const struct elf_file *f, unsigned i)
{
	return i < f->section_count && f->sections[i].sh_type != SHT_NOBITS
		       ? elf_read(f, f->sections[i].sh_offset, f->sections[i].sh_size)
		       : NULL;
}

const char *elf_section_name(const struct elf_file *f, unsigned i)
{
	if (i >= f->section_count)
		return "";
	return elf_string(f->section_names, f->sections[f->header.e_shstrndx].sh_size, f->sections[i].sh_name);
}

bool elf_open(struct elf_file *f, const char *path)
{
	memset(f, 0, sizeof *f);
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return false;
	const Elf64_Ehdr *e = &f->header;
	if (pread(f->fd, &f->header, sizeof f->header, 0) < EI_NIDENT || memcmp(e->e_ident, ELFMAG, SELFMAG) != 0) {
		close(f->fd);
		return false;
	}
	if (e->e_ident[EI_CLASS] == ELFCLASS64 && e->e_shentsize == sizeof(Elf64_Shdr) && e->e_shstrndx < e->e_shnum)
		f->sections = elf_read(f, e->e_shoff, (unsigned long long)e->e_shnum * sizeof(Elf64_Shdr));
	if (f->sections) {
		f->section_count = e->e_shnum;
		f->section_names = elf_section(f, e->e_shstrndx);
	}
	return true;
}

void elf_close(struct elf_file *f)
{
	free(f->sections);
	free(f->section_names);
	close(f->fd);
}
