#include "config.h"

#include "tools/util/cli_reach.h"

#include "tools/util/cli.h"
#include "tools/util/elf_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

struct program {
	bool elf64, elf32, interpreter, go, libc;
	char asan_runtime[64]; /* the DT_NEEDED name of libasan, if any */
};

static bool starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* The shared libraries the program names (DT_NEEDED), from its .dynamic section. */
static void read_needed(const struct elf_file *f, unsigned dynamic, struct program *p)
{
	Elf64_Dyn *d = elf_section(f, dynamic);
	unsigned strings = f->sections[dynamic].sh_link;
	char *names = elf_section(f, strings);
	unsigned long long names_size = names ? f->sections[strings].sh_size : 0;
	for (size_t i = 0; d && i < f->sections[dynamic].sh_size / sizeof *d && d[i].d_tag != DT_NULL; i++) {
		if (d[i].d_tag != DT_NEEDED)
			continue;
		const char *name = elf_string(names, names_size, d[i].d_un.d_val);
		p->libc |= starts_with(name, "libc.so");
		if (starts_with(name, "libasan.so"))
			snprintf(p->asan_runtime, sizeof p->asan_runtime, "%s", name);
	}
	free(d);
	free(names);
}

static void read_program(const struct elf_file *f, struct program *p)
{
	const Elf64_Ehdr *e = &f->header;
	bool program = e->e_type == ET_EXEC || e->e_type == ET_DYN;
	p->elf32 = e->e_ident[EI_CLASS] == ELFCLASS32;
	p->elf64 = e->e_ident[EI_CLASS] == ELFCLASS64 && program && e->e_phentsize == sizeof(Elf64_Phdr);
	if (!p->elf64)
		return;
	Elf64_Phdr *ph = elf_read(f, e->e_phoff, (unsigned long long)e->e_phnum * sizeof *ph);
	for (unsigned i = 0; ph && i < e->e_phnum; i++)
		p->interpreter |= ph[i].p_type == PT_INTERP;
	free(ph);
	for (unsigned i = 0; i < f->section_count; i++) {
		const char *name = elf_section_name(f, i);
		p->go |= strcmp(name, ".note.go.buildid") == 0 || strcmp(name, ".go.buildinfo") == 0;
		if (f->sections[i].sh_type == SHT_DYNAMIC)
			read_needed(f, i, p);
	}
}

/* What the ELF file at `path` says of itself; false if it cannot be read. */
static bool read_program_file(const char *path, struct program *p)
{
	struct elf_file f;
	*p = (struct program){ 0 };
	if (!elf_open(&f, path))
		return false;
	read_program(&f, p);
	elf_close(&f);
	return true;
}

/* What puts a process that runs the file at path in secure-execution mode
 * (AT_SECURE), as the kernel decides it: a set-user-ID or set-group-ID bit
 * that changes who we are, or file capabilities; none of it counts on a
 * nosuid mount.  NULL when nothing does. */
static const char *secure_cause(const char *path)
{
	struct stat st;
	struct statvfs fs;
	if (stat(path, &st) != 0 || (statvfs(path, &fs) == 0 && (fs.f_flag & ST_NOSUID)))
		return NULL;
	if ((st.st_mode & S_ISUID) && st.st_uid != getuid())
		return "is set-user-ID";
	if ((st.st_mode & S_ISGID) && st.st_gid != getgid())
		return "is set-group-ID";
	return getxattr(path, "security.capability", NULL, 0) > 0 ? "has file capabilities" : NULL;
}

enum cli_reach cli_preload_reachable(const char *path, const char *name, char *why, size_t size)
{
	struct program p;
	const char *secure = secure_cause(path);
	if (secure) {
		snprintf(why, size, "%s %s: it runs in secure-execution mode, where the dynamic linker drops "
		                    "LD_PRELOAD, so its copies are neither replaced nor recorded", name, secure);
		return REACH_SECURE;
	}
	if (!read_program_file(path, &p))
		return REACH_OK;
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
		                    "set LD_PRELOAD=%s:OTHERS, or leave it unset (memshim then puts it first)",
		         name, p.asan_runtime);
		return REACH_ASAN;
	}
	return REACH_OK;
}

/* Whether LD_PRELOAD begins with an ASan runtime. */
static bool asan_runtime_first(const char *preload)
{
	size_t len = strcspn(preload, ": ");
	const char *name = preload;
	for (const char *p = preload; p < preload + len; p++)
		if (*p == '/')
			name = p + 1;
	return strncmp(name, "libasan.so", 10) == 0;
}

/* The ASan runtime the program at `path` names, into out; false if none. */
static bool asan_runtime_of(const char *path, char *out, size_t size)
{
	struct program p;
	if (!read_program_file(path, &p))
		return false;
	snprintf(out, size, "%s", p.asan_runtime);
	return p.asan_runtime[0] != '\0';
}

/* LD_PRELOAD without the objects named by a path that cannot be opened,
 * each said once here: left in, the loader of every process the command
 * starts would print its own line about it (one per process of a git gc).
 * A bare name is left as it is: the loader searches for it. */
static void drop_missing_preloads(const char *command)
{
	const char *preload = getenv("LD_PRELOAD");
	char *kept = preload ? malloc(strlen(preload) + 1) : NULL;
	size_t len = 0;
	bool dropped = false;
	for (const char *p = preload; kept && *p;) {
		size_t n = strcspn(p, ": ");
		char entry[4096];
		snprintf(entry, sizeof entry, "%.*s", (int)(n < sizeof entry ? n : sizeof entry - 1), p);
		if (n && strchr(entry, '/') && access(entry, R_OK) != 0) {
			fprintf(stderr, "memshim %s: LD_PRELOAD names %s, which cannot be opened (%s): left out for the "
					"command\n", command, entry, strerror(errno));
			dropped = true;
		} else if (n) {
			len += (size_t)sprintf(kept + len, "%s%.*s", len ? ":" : "", (int)n, p);
		}
		p += n + (p[n] != '\0');
	}
	if (dropped)
		setenv("LD_PRELOAD", kept, 1);
	free(kept);
}

void cli_prepare_preload(const char *command, const char *name)
{
	drop_missing_preloads(command);
	char *path = cli_find_program(name), why[512], runtime[64];
	enum cli_reach reach = path ? cli_preload_reachable(path, name, why, sizeof why) : REACH_OK;
	const char *preload = getenv("LD_PRELOAD");
	if (reach == REACH_ASAN && (!preload || !*preload) && asan_runtime_of(path, runtime, sizeof runtime))
		setenv("LD_PRELOAD", runtime, 1); /* the runtime first; cli_preload_library adds ours after it */
	else if (reach != REACH_OK && !(reach == REACH_ASAN && asan_runtime_first(preload)))
		fprintf(stderr, "memshim %s: %s\n", command, why);
	free(path);
}
