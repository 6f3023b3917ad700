/* The records of a dump's section, for the dump reader (dump/reader/read.c). */
#ifndef MEMSHIM_DUMP_RECORDS_H
#define MEMSHIM_DUMP_RECORDS_H

#include "dump/format.h"

#include <stdbool.h>

/* The state of reading one file: the section in hand, and the file's
 * sections before it, added up in `file`. */
struct reading {
	struct dump sec;       /* this section's counts */
	int function;          /* the "function" record in force, or -1 */
	bool header_seen, end_seen, profile_seen, timing_seen;
	char program[256];
	unsigned section, sections; /* this section's index; how many the file says it has (0: one) */
	unsigned window_left;  /* seq lines the last window still needs */
	struct dump *file;
};

/* One line of a section, other than its first and its end: `line` is the
 * record's key, `rest` what follows it.  The problem, or NULL. */
const char *hist_read_record(struct reading *r, const char *line, const char *rest);

#endif
