#include "config.h"

#include "tools/cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The x86-64 System V ABI fixes the dynamic linker's path. */

static void print_usage(FILE *out, const struct cli_command *commands)
{
	fprintf(out, "usage: memshim COMMAND [ARGS...]   (memshim COMMAND --help for more)\n\n");
	for (const struct cli_command *c = commands; c->name; c++)
		fprintf(out, "  %-8s %s\n", c->name, c->summary);
}

int cli_main(int argc, char **argv, const struct cli_command *commands)
{
	if (argc < 2) {
		print_usage(stderr, commands);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		print_usage(stdout, commands);
		return 0;
	}
	for (const struct cli_command *c = commands; c->name; c++)
		if (strcmp(argv[1], c->name) == 0)
			return c->run(argc - 1, argv + 1);
	fprintf(stderr, "memshim: unknown command \"%s\"\n", argv[1]);
	print_usage(stderr, commands);
	return 2;
}

static bool is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

bool cli_wants_help(int argc, char **argv, const char *help, bool stop_at_dashes)
{
	for (int i = 1; i < argc; i++) {
		if (stop_at_dashes && strcmp(argv[i], "--") == 0)
			break;
		if (is_help(argv[i])) {
			fputs(help, stdout);
			return true;
		}
	}
	return false;
}

static bool readable(const char *path) { return access(path, R_OK) == 0; }

const char *cli_locate(const char *variable, const char *from_build_tree, const char *from_prefix,
                       const char *configured)
{
	static char path[PATH_MAX];
	const char *explicit = getenv(variable);
	if (explicit && *explicit) {
		if (readable(explicit))
			return explicit;
		fprintf(stderr, "memshim: %s=%s cannot be read\n", variable, explicit);
		return NULL;
	}
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len > 0) {
		self[len] = '\0';
		char *slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		const char *relative[] = { from_build_tree, from_prefix };
		for (unsigned i = 0; i < 2; i++)
			if (snprintf(path, sizeof path, "%s/../%s", self, relative[i]) < (int)sizeof path &&
			    readable(path))
				return path;
	}
	return readable(configured) ? configured : NULL;
}

const char *cli_library_path(void)
{
	/* build tree: tools/memshim and .libs/; installed: bin/ and lib/ */
	const char *found = cli_locate("MEMSHIM_LIBRARY", ".libs/libmemshim.so", "lib/libmemshim.so",
	                               MEMSHIM_LIBDIR "/libmemshim.so");
	if (!found && !getenv("MEMSHIM_LIBRARY"))
		fprintf(stderr, "memshim: cannot find libmemshim.so (set MEMSHIM_LIBRARY)\n");
	return found;
}

int cli_preload_library(void)
{
	const char *library = cli_library_path();
	char resolved[PATH_MAX];
	if (!library || !realpath(library, resolved))
		return -1;
	const char *old = getenv("LD_PRELOAD");
	size_t size = strlen(resolved) + (old ? strlen(old) : 0) + 2;
	char *value = malloc(size);
	int rc = -1;
	if (value) {
		snprintf(value, size, "%s%s%s", old && *old ? old : "", old && *old ? ":" : "", resolved);
		rc = setenv("LD_PRELOAD", value, 1);
	}
	free(value);
	return rc;
}
