/* Loading dumps for the tools: any number of files and directories (a
 * directory stands for every dump directly in it), each bad one named on
 * stderr and left out, so report, tune and merge treat input alike. */
#ifndef MEMSHIM_DUMP_LOAD_H
#define MEMSHIM_DUMP_LOAD_H

#include "dump/format.h"

#include <stddef.h>

/* The files that args name: a file as itself; a directory as its regular
 * files, sorted by name, leaving out hidden ones and the ".tmp" files of a
 * dump still being written; a directory memshim record made (one with a
 * merged file or a processes/ directory) as its merged dump, or, when
 * record was killed before it merged, as the dumps in its processes/.  A directory that cannot be read or holds none
 * is named on stderr ("memshim COMMAND: ARG: reason; left out") and counted
 * in *bad (command NULL: counted, not named, for a second pass over
 * inputs already read); a file that cannot be read is named when it is read. */
struct dump_inputs {
	char **paths;
	size_t count;
	bool *read; /* after dump_load_inputs: which were read (NULL before, or out of memory) */
};
bool dump_inputs_expand(const char *command, char *const *args, size_t n, struct dump_inputs *in,
                        unsigned *bad);
void dump_inputs_free(struct dump_inputs *in);

/* Reads every dump args name into d (its program_filter applies); returns
 * how many arguments or files were left out.  -1: out of memory. */
int dump_load(const char *command, char *const *args, size_t n, struct dump *d);

/* dump_load for paths already expanded. */
unsigned dump_load_inputs(const char *command, struct dump_inputs *in, struct dump *d);

/* Makes the call sites with the same function and frames seen in several
 * dumps one, in d and in each of its programs (sorted by function and
 * frames); their counts summed, held at 2^64-1 rather than wrapped. */
bool dump_merge_sites(struct dump *d);
/* Whether a sum was held at 2^64-1.  dump_merge_sites_said: the same,
 * saying so on stderr in one line. */
void dump_merge_sites_said(const char *command, struct dump *d);

#endif
