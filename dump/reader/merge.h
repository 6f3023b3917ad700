/* Many dumps added up into one merged dump file. */
#ifndef MEMSHIM_DUMP_MERGE_H
#define MEMSHIM_DUMP_MERGE_H

#include "dump/reader/load.h"

#include <stdbool.h>
#include <stddef.h>

/* Reads the dumps args[0..n) name (files and directories, expanded into
 * *in, which the caller frees with dump_inputs_free) and writes them merged
 * to out, through out.tmp; *written says whether it was.  all_or_nothing:
 * nothing is written when any input is left out (memshim merge, where the
 * user retries with the inputs mended; record merges what it can, keeping
 * the bad ones).  The exit status: 0, 1 (some left out, or nothing
 * written), or 2 (out exists already: a merge never replaces a file). */
int dump_merge_files(const char *command, const char *out, char *const *args, size_t n, bool all_or_nothing,
                     struct dump_inputs *in, bool *written);

#endif
