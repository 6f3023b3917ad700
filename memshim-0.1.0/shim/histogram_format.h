/* The histogram dump format: the one module that writes it (the library)
 * and reads it (every tool).  Documented in README.md, "Dump file format".
 *
 * A dump is text, one record per line, words separated by single spaces:
 *
 *   memshim-histogram 1                    format name and version
 *   pid 4242                               who wrote it
 *   program zstd
 *   reason exit                            exit | interval | signal | exec
 *   variant memcpy fsrm                    what the functions resolved to
 *   threshold erms 2048                    the erms thresholds in force
 *   entry __memcpy_chk 17                  calls per exported name
 *   function memcpy                        the records below are memcpy's
 *   bucket 17 18 5 85                      sizes [lo,hi): calls bytes
 *   dst_mod64 8 120                        destination mod 64: calls
 *   delta_mod64 0 99                       copies: (dst-src) mod 64: calls
 *   alias4k 3 12288                        copies: (dst-src) mod 4096 < 64: calls bytes
 *   overlap 5 2                            memmove: dst-before-src dst-after-src calls
 *   zero 40 1024                           memset: calls bytes with value 0
 *   callsite memcpy 12 4096 zstd+0x1234 libzstd.so.1+0x5678 ...  sampled calls bytes frames
 *   end                                    the dump is complete
 *
 * Only non-zero counters are written.  Readers reject an unknown major
 * version, a missing "end" (a truncated file), and malformed lines. */
#ifndef MEMSHIM_HISTOGRAM_FORMAT_H
#define MEMSHIM_HISTOGRAM_FORMAT_H

#include "shim/histogram.h"

#include <stdbool.h>
#include <stddef.h>

#define HIST_FORMAT_NAME "memshim-histogram"
#define HIST_FORMAT_VERSION 1

/* ---- writing: async-signal-safe, no allocation, no stdio ---- */

struct dump_header {
	long pid;
	const char *program;
	const char *reason;
	const char *variant[FN_COUNT];
	uint64_t erms_threshold, stosb_threshold;
};

/* A sampled call site: the caller's frames already turned into text. */
struct callsite_record {
	enum base_function fn;
	uint64_t calls, bytes;
	unsigned frame_count;
	const char *const *frames; /* "function+0xoff (object)" or "object+0xoff" */
};

/* Writes header and histogram to fd; the caller adds call sites, then
 * hist_write_end().  Returns false if a write failed. */
bool hist_write(int fd, const struct dump_header *h, const struct histogram *hist);
bool hist_write_callsite(int fd, const struct callsite_record *c);
bool hist_write_end(int fd);

/* ---- reading: for the tools ---- */

struct dump_callsite {
	enum base_function fn;
	uint64_t calls, bytes;
	char *frames; /* the frames, space-separated */
};

struct dump {
	struct histogram hist;         /* summed over every file read */
	unsigned files;
	char variant[FN_COUNT][32];    /* from the last file; "mixed" if files disagree */
	uint64_t erms_threshold, stosb_threshold;
	struct dump_callsite *callsites;
	size_t callsite_count;
};

/* Adds the dump in `path` to *d.  On failure returns false and puts a
 * one-line reason ("truncated: no end line", "line 7: ...") in why. */
bool hist_read_file(const char *path, struct dump *d, char *why, size_t why_size);

void hist_dump_init(struct dump *d);
void hist_dump_free(struct dump *d);

#endif
