/* Reading dumps, for the tools (dump/reader/read.c); the format,
 * which the library writes, is dump/format.h's. */
#ifndef MEMSHIM_DUMP_READ_H
#define MEMSHIM_DUMP_READ_H

#include "dump/format.h"

#include <stdbool.h>
#include <stddef.h>

/* Adds the dump in `path` to *d.  On failure returns false and puts a
 * one-line reason ("truncated: no end line", "line 7: ...") in why. */
bool hist_read_file(const char *path, struct dump *d, char *why, size_t why_size);

/* The same, but a dump cut short (its process killed, or the disk full,
 * while it was written) adds its complete lines and returns true, with
 * why saying where it was cut: a report is better told half a file, said,
 * than nothing.  why is "" for a whole file. */
bool hist_read_file_or_cut(const char *path, struct dump *d, char *why, size_t why_size);

void hist_dump_init(struct dump *d);
void hist_dump_free(struct dump *d);

#endif
