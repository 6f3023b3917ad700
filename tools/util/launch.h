#ifndef MEMSHIM_RECORD_H
#define MEMSHIM_RECORD_H

#include <getopt.h>

/* memshim merge -o OUT FILE|DIR...: one dump of many. */
int cmd_merge(int argc, char **argv);

/* memshim record [-o DIR] [--keep] [--profile[=HZ]] [--sites[=N]] -- CMD
 * ARGS: records CMD and its children, merges, reports; exits with CMD's
 * status. */
int cmd_record(int argc, char **argv);

/* ---- memshim run, in tools/memshim.c; record takes its options too ---- */

int cmd_run(int argc, char **argv);

/* run's options, ended by a zero row; their ids are below 64. */
extern const struct option run_options[];

/* Applies one of run's options (cli_apply_fn): sets its MEMSHIM_* variable.
 * command_name is the command for the messages ("record"). */
int apply_run_option(void *command_name, int id, const char *option, const char *value);

/* 0 if program can be run (found in PATH, or a file that may be run); else,
 * after one line, the status a shell gives: 127 not found, 126 not runnable. */
int run_check(const char *command, const char *program);

/* Runs argv (argv[0] the program) with the library preloaded, as memshim run
 * does after its options; returns only if that failed, with the status. */
int run_exec(const char *command, char **argv);

#endif
