/* Starting a program with the library preloaded and run's options set, as
 * memshim run does; record starts the command it records the same way. */
#ifndef MEMSHIM_LAUNCH_H
#define MEMSHIM_LAUNCH_H

#include <getopt.h>

/* run's options, ended by a zero entry; their ids are below 64. */
extern const struct option run_options[];

/* Applies one of run's options (cli_apply_fn): sets its MEMSHIM_* variable.
 * command_name is the command for the messages ("record"). */
int apply_run_option(void *command_name, int id, const char *option, const char *value);

/* Makes the processes started from here dump to path (MEMSHIM_DUMP), and
 * unsets the variable's old name, which the library would otherwise say it
 * ignores; setenv's status. */
int launch_set_dump(const char *path);

/* 0 if program can be run (found in PATH, or a file that may be run); else,
 * after one line, the status a shell gives: 127 not found, 126 not runnable. */
int run_check(const char *command, const char *program);

/* Runs argv (argv[0] the program) with the library preloaded, as memshim run
 * does after its options; returns only if that failed, with the status. */
int run_exec(const char *command, char **argv);

#endif
