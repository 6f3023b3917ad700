/* Pieces shared by the memshim subcommands. */
#ifndef MEMSHIM_CLI_H
#define MEMSHIM_CLI_H

#include <stdbool.h>

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
	const char *summary;
};

/* Runs the subcommand named by argv[1]; prints usage for none, --help or
 * help, COMMAND's help for help COMMAND, and the version for --version or -V. */
int cli_main(int argc, char **argv, const struct cli_command *commands);

/* Runs the command argv[0] of the table cli_main was given, as if named on
 * the command line: one command reaches another through the table, never
 * through the other's code (record shows its recording with report). */
int cli_run_command(int argc, char **argv);

/* Prints `help` and returns true when argv (before a "--" if stop_at_dashes)
 * holds -h or --help. */
bool cli_wants_help(int argc, char **argv, const char *help, bool stop_at_dashes);

/* A file of memshim's: $VARIABLE if set (NULL, with a message, if it
 * cannot be read), else the path relative to the directory above this
 * program's own, in the build tree or in the install prefix, else the
 * configured path; NULL if none can be read. */
const char *cli_locate(const char *variable, const char *from_build_tree, const char *from_prefix,
                       const char *configured);

/* The path of libmemshim.so: $MEMSHIM_LIBRARY, else next to this program
 * (build tree or install prefix), else the configured libdir.  NULL (and a
 * message) if none exists. */
const char *cli_library_path(void);

/* The program file execvp() would run for `name` (to free), or NULL. */
char *cli_find_program(const char *name);

/* Sets LD_PRELOAD in this process's environment: any LD_PRELOAD already
 * set, then libmemshim.so. */
int cli_preload_library(void);

#endif
