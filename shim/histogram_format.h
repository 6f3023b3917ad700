/* The histogram dump format: the one module that writes it (the library)
 * and reads it (every tool).  Documented in README.md, "Dump file format".
 *
 * A dump is text, one record per line, words separated by single spaces:
 *
 *   memshim-histogram 2                    format name and version
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
 *   profile 1000 250 1000000000 1250000000 2000000000 0
 *                                          MEMSHIM_PROFILE: rate_hz samples sampled_ns
 *                                          process_cpu_ns wall_ns handler_replaced
 *   cpu 17 18 40 40000000                  in a function section: samples taken inside
 *                                          the function on sizes [lo,hi), and the CPU ns
 *                                          they stand for
 *   cpu_site memcpy 40 40000000 main+0x1d(zstd)  samples and CPU ns by immediate caller
 *   end                                    the dump is complete
 *
 * Version 2 added the profile, cpu and cpu_site records; version 1 dumps
 * (which have none) are still read.
 *
 * A call site's frame is "symbol+0xoff(object)" or "object+0xoff".  Since
 * version 2 the object is its full path and carries the offset of the
 * address from the object's first mapped page, "symbol+0xoff(/lib/x.so+0xrel)"
 * and "/usr/bin/prog+0xrel", so that the tools can find function and file:line
 * offline; older frames name only the object's base name.
 *
 * A merged dump (memshim merge, memshim record) is a run of sections, one per
 * program, each a dump as above from its header line to its end line, whose
 * header has no pid but
 *   processes 12                           how many processes' dumps it adds up
 *   sections 3                             first section only: how many follow, this one included
 *   profile_processes 12 0                 after profile: processes with one, and whose
 *                                          program took over the profiling signal
 * and "reason merged".  The counts of a section are sums; its variant is
 * "mixed" where its processes disagreed.
 *
 * Only non-zero counters are written.  Readers reject an unknown major
 * version, a missing "end" (a truncated file), and malformed lines. */
#ifndef MEMSHIM_HISTOGRAM_FORMAT_H
#define MEMSHIM_HISTOGRAM_FORMAT_H

#include "shim/histogram.h"

#include <stdbool.h>
#include <stddef.h>

#define HIST_FORMAT_NAME "memshim-histogram"
#define HIST_FORMAT_VERSION 2
#define HIST_FORMAT_OLDEST 1 /* the oldest version readers still take */

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

/* The profile (MEMSHIM_PROFILE) of one process, as the library keeps it. */
struct profile_record {
	uint64_t rate_hz;        /* samples asked for per second of CPU time */
	uint64_t samples;        /* timer signals taken, every thread */
	uint64_t sampled_ns;     /* the CPU time those samples stand for */
	uint64_t process_cpu_ns; /* the process's user + system time at the dump */
	uint64_t wall_ns;        /* from the library's start to the dump */
	bool handler_replaced;   /* the program installed its own handler for our signal */
	/* samples inside each function, by size bucket, and the CPU ns they stand for */
	uint64_t bucket_samples[FN_COUNT][HIST_BUCKETS], bucket_ns[FN_COUNT][HIST_BUCKETS];
};

/* A call site's share of the profile: the caller's return address as text. */
struct cpu_site_record {
	enum base_function fn;
	uint64_t samples, ns;
	const char *frame;
};

/* Written after hist_write() and the call sites, before hist_write_end(). */
bool hist_write_profile(int fd, const struct profile_record *p);
bool hist_write_cpu_site(int fd, const struct cpu_site_record *c);

struct dump;
/* For the tools: writes d as a merged dump, one section per program of
 * d->programs.  Uses stdio-free writes like the rest; false if one failed. */
bool hist_write_merged(int fd, const struct dump *d);

/* ---- reading: for the tools ---- */

/* A call site: of sampled calls (MEMSHIM_CALLSITES; calls and their bytes,
 * up to three frames) or of profile samples (the caller; samples and the
 * CPU ns they stand for).  The two are kept, merged and sorted alike, so
 * they are one type; count and amount name either pair where the code
 * serves both. */
struct dump_site {
	enum base_function fn;
	union {
		uint64_t count, calls, samples;
	};
	union {
		uint64_t amount, bytes, ns;
	};
	char *frames; /* the frames, space-separated */
};

/* The profiles of every file read, added up; processes == 0: none had one. */
struct dump_profile {
	unsigned processes;      /* files that carried a profile */
	uint64_t rate_hz;        /* of the last such file */
	uint64_t samples, sampled_ns, process_cpu_ns, wall_ns;
	unsigned handler_replaced; /* files whose program took over the profiling signal */
	/* the counters by function and bucket come last: merged as one run of uint64_t */
	uint64_t fn_samples[FN_COUNT], fn_ns[FN_COUNT];
	uint64_t bucket_samples[FN_COUNT][HIST_BUCKETS], bucket_ns[FN_COUNT][HIST_BUCKETS];
};

/* One program's part of the dumps read: everything, summed over its processes. */
struct dump_program {
	char name[256];
	struct dump *d; /* its own programs list is empty */
};

struct dump {
	struct histogram hist;         /* summed over every file read */
	unsigned files;
	unsigned processes;            /* the processes those files add up (a merged file holds many) */
	const char *program_filter;    /* set before reading: take only this program's sections */
	struct dump_program *programs; /* by program name, in the order first seen */
	size_t program_count;
	char variant[FN_COUNT][32];    /* from the last file; "mixed" if files disagree */
	uint64_t erms_threshold, stosb_threshold;
	struct dump_site *callsites;
	size_t callsite_count;
	struct dump_profile profile;
	struct dump_site *cpu_sites; /* not merged: one entry per file and caller */
	size_t cpu_site_count;
};

/* Adds the dump in `path` to *d.  On failure returns false and puts a
 * one-line reason ("truncated: no end line", "line 7: ...") in why. */
bool hist_read_file(const char *path, struct dump *d, char *why, size_t why_size);

void hist_dump_init(struct dump *d);
void hist_dump_free(struct dump *d);

#endif
