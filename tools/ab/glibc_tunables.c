#include "tools/ab/glibc_tunables.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#define MAX_LISTED 256

/* This program's dynamic loader, from its PT_INTERP; NULL if static. */
static const char *interpreter(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	size_t n = getauxval(AT_PHNUM);
	uintptr_t bias = 0;
	for (size_t i = 0; ph && i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			bias = (uintptr_t)ph - ph[i].p_vaddr;
	for (size_t i = 0; ph && i < n; i++)
		if (ph[i].p_type == PT_INTERP)
			return (const char *)(bias + ph[i].p_vaddr);
	return NULL;
}

/* The names `ld.so --list-tunables` prints ("glibc.cpu.x: 0x0 (min...)"),
 * newline-separated in out; false if it cannot list them. */
static bool listed_names(char *out, size_t size)
{
	const char *ld = interpreter();
	char command[600], line[512];
	if (!ld || strchr(ld, '\''))
		return false;
	snprintf(command, sizeof command, "'%s' --list-tunables 2>/dev/null", ld);
	FILE *p = popen(command, "r");
	if (!p)
		return false;
	size_t len = 0;
	out[0] = '\0';
	while (fgets(line, sizeof line, p))
		if (strncmp(line, "glibc.", 6) == 0 && strchr(line, ':'))
			len += (size_t)snprintf(out + len, len < size ? size - len : 0, "%.*s\n",
						(int)strcspn(line, ":"), line);
	return pclose(p) == 0 && len > 0 && len < size;
}

static bool is_listed(const char *names, const char *name, size_t len)
{
	for (const char *at = names; (at = strstr(at, "glibc.")); at++)
		if ((at == names || at[-1] == '\n') && strncmp(at, name, len) == 0 && at[len] == '\n')
			return true;
	return false;
}

bool glibc_tunables_check(const char *text, char *why, size_t why_size)
{
	static char names[MAX_LISTED * 64];
	bool listed = listed_names(names, sizeof names);
	for (const char *item = text;; item++) {
		size_t len = strcspn(item, ":"), name = strcspn(item, "=");
		if (strncmp(item, "glibc.", 6) != 0 || name <= 6 || name + 1 >= len) {
			snprintf(why, why_size, "\"%s\": expected glibc.NAME=VALUE items joined by :", text);
			return false;
		}
		if (listed && !is_listed(names, item, name)) {
			snprintf(why, why_size, "glibc does not know the tunable %.*s (ld.so --list-tunables lists those it does)",
				 (int)name, item);
			return false;
		}
		item += len;
		if (!*item)
			return true;
	}
}
