#include "config.h"

#include "tools/util/glibc_info.h"

#include "tools/util/elf_file.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Where distributions keep detached debug files, by build ID (Debian: libc6-dbg). */
#define DEBUG_BY_BUILD_ID "/usr/lib/debug/.build-id"
/* The x86-64 System V ABI's dynamic linker, if this program does not say. */
#define DEFAULT_DYNAMIC_LINKER "/lib64/ld-linux-x86-64.so.2"

/* ---- the dynamic linker's diagnostics ---- */

/* The dynamic linker this program itself was started by (its PT_INTERP). */
static void dynamic_linker(char *path, size_t size)
{
	snprintf(path, size, "%s", DEFAULT_DYNAMIC_LINKER);
	struct elf_file f;
	if (!elf_open(&f, "/proc/self/exe"))
		return;
	const Elf64_Ehdr *e = &f.header;
	Elf64_Phdr *ph = e->e_phentsize == sizeof *ph ? elf_read(&f, e->e_phoff, (unsigned long long)e->e_phnum * sizeof *ph)
	                                              : NULL;
	for (unsigned i = 0; ph && i < e->e_phnum; i++) {
		char *interp = ph[i].p_type == PT_INTERP && ph[i].p_filesz < size ? elf_read(&f, ph[i].p_offset, ph[i].p_filesz)
		                                                                   : NULL;
		if (interp && memchr(interp, '\0', ph[i].p_filesz))
			snprintf(path, size, "%s", interp);
		free(interp);
	}
	free(ph);
	elf_close(&f);
}

/* The thresholds glibc's string functions use, as its diagnostics name
 * them, in the order of enum glibc_threshold. */
static const char *const threshold_keys[] = {
	"rep_movsb_threshold", "rep_stosb_threshold", "non_temporal_threshold", "rep_movsb_stop_threshold",
};
#define THRESHOLD_COUNT (sizeof threshold_keys / sizeof threshold_keys[0])

/* One line "x86.cpu_features.KEY=0x840" into values[]; the rest is ignored. */
static void parse_diagnostic(const char *line, unsigned long long *values, unsigned *found)
{
	static const char prefix[] = "x86.cpu_features.";
	if (strncmp(line, prefix, sizeof prefix - 1) != 0)
		return;
	line += sizeof prefix - 1;
	for (unsigned i = 0; i < THRESHOLD_COUNT; i++) {
		size_t len = strlen(threshold_keys[i]);
		char *end;
		if (strncmp(line, threshold_keys[i], len) == 0 && line[len] == '=') {
			values[i] = strtoull(line + len + 1, &end, 0);
			if (end != line + len + 1 && (*end == '\n' || *end == '\0'))
				*found |= 1u << i;
		}
	}
}

/* Runs `ld.so --list-diagnostics` (glibc 2.33 and later); the thresholds
 * found, as bits of *found. */
static unsigned read_diagnostics(const char *linker, unsigned long long *values)
{
	int fds[2];
	unsigned found = 0;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return 0;
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
	posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
	char *argv[] = { (char *)linker, "--list-diagnostics", NULL };
	pid_t pid;
	int rc = posix_spawn(&pid, linker, &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	close(fds[1]);
	FILE *in = rc == 0 ? fdopen(fds[0], "r") : NULL;
	char line[512];
	while (in && fgets(line, sizeof line, in))
		parse_diagnostic(line, values, &found);
	if (in)
		fclose(in);
	else
		close(fds[0]);
	int status = 0;
	if (rc == 0)
		waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? found : 0;
}

uint64_t glibc_threshold(enum glibc_threshold which)
{
	static unsigned long long values[THRESHOLD_COUNT];
	static unsigned found;
	static bool read;
	if (!read) {
		char linker[4096];
		dynamic_linker(linker, sizeof linker);
		found = read_diagnostics(linker, values);
		read = true;
	}
	return found & (1u << which) ? values[which] : 0;
}

/* ---- the implementations glibc's resolvers chose ---- */

/* The detached debug file of an ELF file, by its build ID. */
static bool debug_file(const struct elf_file *f, char *path, size_t size)
{
	for (unsigned i = 0; i < f->section_count; i++) {
		if (f->sections[i].sh_type != SHT_NOTE || strcmp(elf_section_name(f, i), ".note.gnu.build-id") != 0)
			continue;
		unsigned char *note = elf_section(f, i);
		const Elf64_Nhdr *h = (const Elf64_Nhdr *)note;
		unsigned long long need = sizeof *h + ((h ? h->n_namesz : 0) + 3ull) / 4 * 4 + (h ? h->n_descsz : 0);
		bool ok = note && h->n_type == NT_GNU_BUILD_ID && h->n_descsz >= 2 && need <= f->sections[i].sh_size;
		if (ok) {
			const unsigned char *id = note + sizeof *h + (h->n_namesz + 3) / 4 * 4;
			int len = snprintf(path, size, "%s/%02x/", DEBUG_BY_BUILD_ID, id[0]);
			for (unsigned b = 1; b < h->n_descsz && len > 0 && (size_t)len + 3 < size; b++)
				len += snprintf(path + len, size - (size_t)len, "%02x", id[b]);
			ok = len > 0 && (size_t)len + 7 < size;
			if (ok)
				strcat(path, ".debug");
		}
		free(note);
		return ok;
	}
	return false;
}

/* The name of the function at `offset` in the symbol table of f, into
 * name; among aliases (memcpy's code is memmove's), one that has `hint`. */
static bool symbol_at(const struct elf_file *f, unsigned long long offset, const char *hint, char *name, size_t size)
{
	bool named = false;
	for (unsigned i = 0; i < f->section_count && !named; i++) {
		const Elf64_Shdr *s = &f->sections[i];
		if (s->sh_type != SHT_SYMTAB || s->sh_entsize != sizeof(Elf64_Sym))
			continue;
		Elf64_Sym *symbols = elf_section(f, i);
		char *strings = elf_section(f, s->sh_link);
		unsigned long long strings_size = strings ? f->sections[s->sh_link].sh_size : 0;
		for (size_t k = 0; symbols && strings && k < s->sh_size / sizeof *symbols; k++) {
			const char *candidate = elf_string(strings, strings_size, symbols[k].st_name);
			if (ELF64_ST_TYPE(symbols[k].st_info) != STT_FUNC || symbols[k].st_value != offset || !*candidate)
				continue;
			if (!named || strstr(candidate, hint))
				snprintf(name, size, "%s", candidate);
			named = true;
			if (strstr(candidate, hint))
				break;
		}
		free(symbols);
		free(strings);
	}
	return named;
}

/* Names the function at offset in the library file at path: from its own
 * symbol table, else from its debug file. */
static bool name_function(const char *path, unsigned long long offset, const char *hint, char *name, size_t size)
{
	struct elf_file f, debug;
	char debug_path[4096];
	if (!elf_open(&f, path))
		return false;
	bool named = symbol_at(&f, offset, hint, name, size);
	if (!named && debug_file(&f, debug_path, sizeof debug_path) && elf_open(&debug, debug_path)) {
		named = symbol_at(&debug, offset, hint, name, size);
		elf_close(&debug);
	}
	elf_close(&f);
	return named;
}

bool glibc_function_name(const char *function, char *name, size_t size)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	void *address = libc ? dlsym(libc, function) : NULL;
	Dl_info info;
	struct link_map *map = NULL;
	if (libc)
		dlclose(libc);
	if (!address || !dladdr1(address, &info, (void **)&map, RTLD_DL_LINKMAP) || !map || !info.dli_fname) {
		snprintf(name, size, "unknown (not found in the C library)");
		return true;
	}
	unsigned long long offset = (unsigned long long)((char *)address - (char *)map->l_addr);
	if (name_function(info.dli_fname, offset, function, name, size))
		return true;
	snprintf(name, size, "%s+0x%llx", info.dli_fname, offset);
	return false;
}

void glibc_info_print(void)
{
	printf("glibc %s's own choice here (its ifunc resolvers, and ld.so --list-diagnostics):\n",
	       gnu_get_libc_version());
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	bool named = true;
	static const char *const functions[] = { "memcpy", "memmove", "memset" };
	for (unsigned i = 0; libc && i < sizeof functions / sizeof functions[0]; i++) {
		char name[256];
		named &= glibc_function_name(functions[i], name, sizeof name);
		printf("  %-8s %s\n", functions[i], name);
	}
	if (libc)
		dlclose(libc);
	else
		printf("  implementations: unknown (this program's C library is not libc.so.6)\n");
	if (!named)
		printf("  (no symbol table names them: install the C library's debug symbols, e.g. libc6-dbg)\n");

	char linker[4096];
	unsigned long long values[THRESHOLD_COUNT];
	dynamic_linker(linker, sizeof linker);
	unsigned found = read_diagnostics(linker, values);
	if (!found) {
		printf("  thresholds: unknown (%s --list-diagnostics reported none: it cannot run here, "
		       "or glibc is older than 2.33)\n", linker);
		return;
	}
	printf("  thresholds:");
	for (unsigned i = 0, first = 1; i < THRESHOLD_COUNT; i++)
		if (found & (1u << i)) {
			printf("%s %.*s %llu B", first ? "" : ",", (int)(strlen(threshold_keys[i]) - strlen("_threshold")),
			       threshold_keys[i], values[i]);
			first = 0;
		}
	printf("\n");
}
