/* The files a command writes (report --svg, --pprof, --fleetbench-csv;
 * bench --csv, --svg): each written under a temporary name beside it and
 * given its name only once complete, so that a run that fails, or a
 * second one, leaves no file half-written or emptied; and none may name
 * an input of the command or another of its outputs. */
#ifndef MEMSHIM_TOOLS_UTIL_OUTPUT_FILE_H
#define MEMSHIM_TOOLS_UTIL_OUTPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct output_file {
	const char *path; /* the name it takes */
	char *tmp;        /* the name it is written under */
	FILE *f;
};

/* Opens a new file beside path for writing; NULL after one line on stderr
 * ("memshim COMMAND: cannot write PATH: why"). */
FILE *output_open(struct output_file *o, const char *command, const char *path);

/* Closes the file and gives it its name, replacing a file there only if
 * `replace`; false after one line on stderr, the temporary file removed. */
bool output_finish(struct output_file *o, const char *command, bool replace);

/* Closes and removes the file: the command failed. */
void output_discard(struct output_file *o);

/* After a run whose exit status is rc: the file (if open) takes its name,
 * an earlier one's included, where rc is 0, else it is discarded, so that
 * a failed run leaves what was there as it was; the status to exit with. */
int output_close(struct output_file *o, const char *command, int rc);

/* Whether the two paths name one file, there already or not. */
bool output_same_file(const char *a, const char *b);

/* 0, or CLI_USAGE after one line, when one of the outputs (NULL entries
 * skipped) is a directory, or names the same file as another or as one
 * of the inputs. */
int output_check_names(const char *command, const char *const *outputs, size_t output_count,
                       char *const *inputs, size_t input_count);

#endif
