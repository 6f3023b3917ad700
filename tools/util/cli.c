#include "config.h"

#include "tools/util/cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The x86-64 System V ABI fixes the dynamic linker's path. */

static void print_usage(FILE *out, const struct cli_command *commands)
{
	fprintf(out, "usage: memshim COMMAND [ARGS...]   (memshim help COMMAND for more)\n"
	             "       memshim --version\n\n");
	for (const struct cli_command *c = commands; c->name; c++)
		fprintf(out, "  %-8s %s\n", c->name, c->summary);
	fprintf(out, "\nExit status: 0 done, 1 the command failed (an unreadable dump, ...), 2 usage\n"
	             "error; `run` and `record` pass on their command's status (126 when it cannot\n"
	             "be run, 127 when it is not found).\n");
}

static const struct cli_command *command_named(const struct cli_command *commands, const char *name)
{
	for (const struct cli_command *c = commands; c->name; c++)
		if (strcmp(name, c->name) == 0)
			return c;
	return NULL;
}

static int unknown_command(const char *name, const struct cli_command *commands)
{
	fprintf(stderr, "memshim: unknown command \"%s\"\n", name);
	print_usage(stderr, commands);
	return 2;
}

static bool is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

/* memshim help [COMMAND]: COMMAND's own --help, or the list of commands
 * (for help itself too: memshim help --help, as every command takes it). */
static int help(int argc, char **argv, const struct cli_command *commands)
{
	if (argc < 3 || strcmp(argv[2], "help") == 0 || is_help(argv[2])) {
		print_usage(stdout, commands);
		return 0;
	}
	const struct cli_command *c = command_named(commands, argv[2]);
	if (!c)
		return unknown_command(argv[2], commands);
	char *args[] = { argv[2], "--help", NULL };
	return c->run(2, args);
}

/* The table cli_main was given, for cli_run_command. */
static const struct cli_command *command_table;

int cli_run_command(int argc, char **argv)
{
	const struct cli_command *c = command_named(command_table, argv[0]);
	return c->run(argc, argv);
}

int cli_main(int argc, char **argv, const struct cli_command *commands)
{
	command_table = commands;
	if (argc < 2) {
		print_usage(stderr, commands);
		return 2;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("memshim %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return help(1, argv, commands);
	if (strcmp(argv[1], "help") == 0)
		return help(argc, argv, commands);
	const struct cli_command *c = command_named(commands, argv[1]);
	return c ? c->run(argc - 1, argv + 1) : unknown_command(argv[1], commands);
}

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

char *cli_find_program(const char *name)
{
	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? strdup(name) : NULL;
	const char *path = getenv("PATH");
	for (const char *dir = path ? path : "/usr/bin:/bin"; *dir;) {
		size_t len = strcspn(dir, ":");
		char candidate[PATH_MAX];
		if (snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, len ? dir : ".", name) <
		        (int)sizeof candidate &&
		    access(candidate, X_OK) == 0)
			return strdup(candidate);
		dir += len + (dir[len] == ':');
	}
	return NULL;
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
