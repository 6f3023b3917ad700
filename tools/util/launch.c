/* Starting a program with the library preloaded and run's options set
 * (launch.h): memshim run, and record for the command it records. */
#include "config.h"

#include "tools/util/launch.h"

#include "dispatch/bands.h"
#include "dispatch/config.h"
#include "dispatch/cpu_features.h"
#include "dispatch/message.h"
#include "dispatch/renamed.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"
#include "tools/util/cli_reach.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The options of `memshim run`; each sets a MEMSHIM_* variable. */
enum { RUN_IMPL = 1, RUN_VERBOSE, RUN_MOVSB, RUN_STOSB, RUN_NT, RUN_HWCAPS };

static const char *const size_variables[] = {
	[RUN_MOVSB] = "MEMSHIM_MOVSB_THRESHOLD",
	[RUN_STOSB] = "MEMSHIM_STOSB_THRESHOLD",
	[RUN_NT] = "MEMSHIM_NT_THRESHOLD",
};

const struct option run_options[] = {
	{ "impl", required_argument, NULL, RUN_IMPL },
	{ "verbose", no_argument, NULL, RUN_VERBOSE },
	{ "movsb-threshold", required_argument, NULL, RUN_MOVSB },
	{ "stosb-threshold", required_argument, NULL, RUN_STOSB },
	/* the old names of the two, from when each family of variants had a pair */
	{ "erms-threshold", required_argument, NULL, RUN_MOVSB },
	{ "auto-movsb-threshold", required_argument, NULL, RUN_MOVSB },
	{ "auto-stosb-threshold", required_argument, NULL, RUN_STOSB },
	{ "nt-threshold", required_argument, NULL, RUN_NT },
	{ "hwcaps", required_argument, NULL, RUN_HWCAPS },
	{ 0 },
};

static int set_variable(const char *command, const char *variable, const char *value)
{
	if (setenv(variable, value, 1) == 0)
		return 0;
	fprintf(stderr, "memshim %s: cannot set %s: %s\n", command, variable, strerror(errno));
	return CLI_FAILED;
}

/* --hwcaps: checked here as the library would, so that a bad list is a
 * usage error rather than a line from every process of the command. */
static int set_hwcaps(const char *command, const char *value)
{
	struct cpu_features scratch = { 0 };
	struct line why;
	const char *problem = cpu_features_hide(value, &scratch, &why);
	if (problem) {
		fprintf(stderr, "memshim %s: --hwcaps \"%s\" %s\n", command, value, problem);
		return CLI_USAGE;
	}
	return set_variable(command, "MEMSHIM_HWCAPS", value);
}

int apply_run_option(void *command_name, int id, const char *option, const char *value)
{
	const char *command = command_name;
	if (id == RUN_VERBOSE)
		return set_variable(command, "MEMSHIM_VERBOSE", "1");
	if (id == RUN_IMPL && band_text_is_list(value)) {
		/* size bands, as MEMSHIM_IMPL takes them ("glibc:256,avx2") */
		struct band_list bands;
		const char *problem = band_list_parse(value, &bands);
		if (problem) {
			fprintf(stderr, "memshim %s: --impl \"%s\" %s\n", command, value, problem);
			return CLI_USAGE;
		}
		return set_variable(command, "MEMSHIM_IMPL", value);
	}
	if (id == RUN_IMPL) {
		if (!config_name_known(value)) {
			const char *meant = config_name_meant(value);
			fprintf(stderr, "memshim %s: --impl \"%s\" is not a variant or preset%s%s%s; try `memshim info`\n",
			        command, value, meant ? " (did you mean " : "", meant ? meant : "", meant ? "?)" : "");
			return CLI_USAGE;
		}
		return set_variable(command, "MEMSHIM_IMPL", value);
	}
	if (id == RUN_HWCAPS)
		return set_hwcaps(command, value);
	unsigned long long n;
	const char *problem = parse_byte_count(value, 1ull << 40, &n);
	if (problem) {
		fprintf(stderr, "memshim %s: %s \"%s\" %s\n", command, option, value, problem);
		return CLI_USAGE;
	}
	return set_variable(command, size_variables[id], value);
}

int launch_set_dump(const char *path)
{
	unsetenv(renamed_old_of("MEMSHIM_DUMP")); /* else the library would say it ignores it */
	return setenv("MEMSHIM_DUMP", path, 1);
}

/* A relative MEMSHIM_DUMP (or its old name) is taken by each process from
 * the directory it starts in; made absolute here, every process of the
 * command dumps where the user meant. */
static int absolute_dump_path(const char *command)
{
	const char *name = getenv("MEMSHIM_DUMP") ? "MEMSHIM_DUMP" : renamed_old_of("MEMSHIM_DUMP");
	const char *path = getenv(name);
	char cwd[PATH_MAX];
	if (!path || !*path || path[0] == '/')
		return 0;
	if (!getcwd(cwd, sizeof cwd)) {
		fprintf(stderr, "memshim %s: %s=%s is relative and the working directory is unknown\n", command,
		        name, path);
		return -1;
	}
	size_t size = strlen(cwd) + strlen(path) + 2;
	char *absolute = malloc(size);
	if (!absolute)
		return -1;
	snprintf(absolute, size, "%s/%s", cwd, path);
	int rc = setenv(name, absolute, 1);
	free(absolute);
	return rc;
}

/* As a shell does: 127 when there is no such command, 126 when there is
 * one that cannot be run. */
static int exec_failure_status(int error) { return error == ENOENT || error == ENOTDIR ? 127 : 126; }

/* The variables whose bad values this memshim said (its own reading of
 * the environment) go to the program in MEMSHIM_WARNED, which its
 * processes leave unsaid: one line per run, not one per process. */
static int pass_warned(void)
{
	config_get();
	const char *names = warned_variables(), *before = getenv("MEMSHIM_WARNED");
	if (!*names)
		return 0;
	size_t size = strlen(names) + (before ? strlen(before) : 0) + 2;
	char *all = malloc(size);
	if (!all)
		return -1;
	snprintf(all, size, "%s%s%s", before && *before ? before : "", before && *before ? " " : "", names);
	int rc = setenv("MEMSHIM_WARNED", all, 1);
	free(all);
	return rc;
}

int run_exec(const char *command, char **argv)
{
	cli_prepare_preload(command, argv[0]);
	if (cli_preload_library() != 0 || absolute_dump_path(command) != 0 || pass_warned() != 0)
		return CLI_FAILED;
	execvp(argv[0], argv);
	int error = errno;
	fprintf(stderr, "memshim %s: cannot run %s: %s\n", command, argv[0], strerror(error));
	return exec_failure_status(error);
}

int run_check(const char *command, const char *program)
{
	char *found = cli_find_program(program);
	bool named_by_path = strchr(program, '/') != NULL;
	if (found) {
		free(found);
		return 0;
	}
	/* a path to a file that is there cannot be run; anything else is not found */
	int error = named_by_path && access(program, F_OK) == 0 ? EACCES : ENOENT;
	fprintf(stderr, "memshim %s: cannot run %s: %s\n", command, program,
		error == EACCES ? "it is not an executable file"
		: named_by_path ? "there is no such file" : "there is no such command in PATH");
	return exec_failure_status(error);
}
