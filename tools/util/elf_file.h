/* Just enough reading of 64-bit ELF files for the tools: headers, section
 * names, tables.  Every size is checked against the file, so a damaged
 * file reads as one without the part that is damaged. */
#ifndef MEMSHIM_ELF_FILE_H
#define MEMSHIM_ELF_FILE_H

#include <elf.h>
#include <stdbool.h>

struct elf_file {
	int fd;
	Elf64_Ehdr header;    /* all zero past what the file holds */
	Elf64_Shdr *sections; /* NULL when there are none to read */
	char *section_names;
	unsigned section_count;
};

/* Opens `path` and reads its ELF header and section headers; false (and
 * nothing to close) when it cannot be read or is no ELF file. */
bool elf_open(struct elf_file *f, const char *path);
void elf_close(struct elf_file *f);

/* size bytes at offset, in a buffer to free; NULL if they cannot be read. */
void *elf_read(const struct elf_file *f, unsigned long long offset, unsigned long long size);

/* The string at offset in table (of `size` bytes), or "" if it runs past. */
const char *elf_string(const char *table, unsigned long long size, unsigned long long offset);

const char *elf_section_name(const struct elf_file *f, unsigned i);

/* Section i's contents (to free), or NULL. */
void *elf_section(const struct elf_file *f, unsigned i);

#endif
