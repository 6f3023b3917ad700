/* The memshim commands, one file each at the top of tools/ (tools/run.c is
 * `memshim run`), listed in the command table of tools/memshim.c.  Each
 * takes its arguments with argv[0] the command's name and returns the exit
 * status. */
#ifndef MEMSHIM_COMMANDS_H
#define MEMSHIM_COMMANDS_H

int cmd_info(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
/* memshim record [-o DIR] [--keep] [--profile[=HZ]] [--sites[=N]] -- CMD
 * ARGS: records CMD and its children, merges, reports; exits with CMD's
 * status. */
int cmd_record(int argc, char **argv);
/* memshim merge -o OUT FILE|DIR...: one dump of many. */
int cmd_merge(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_cpu_row(int argc, char **argv);

#endif
