#ifndef MEMSHIM_RECORD_H
#define MEMSHIM_RECORD_H

/* memshim merge -o OUT FILE|DIR...: one dump of many. */
int cmd_merge(int argc, char **argv);

/* memshim record [-o DIR] [--keep] [--profile[=HZ]] -- CMD ARGS: records
 * CMD and its children, merges, reports; exits with CMD's status. */
int cmd_record(int argc, char **argv);

/* memshim run, in tools/memshim.c: record runs CMD through it. */
int cmd_run(int argc, char **argv);

#endif
