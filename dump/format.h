/* The dump format: the one module that writes it (the library)
 * and reads it (every tool).  Documented in doc/dump-format.md; dump/README.md lists this folder.
 *
 * A dump is text, one record per line, words separated by single spaces:
 *
 *   memshim-histogram 6                    format name and version
 *   pid 4242                               who wrote it
 *   program zstd
 *   reason exit                            exit | interval | signal | exec
 *   variant memcpy fsrm                    what the functions resolved to
 *   threshold movsb 2048                   the rep thresholds in force
 *   entry __memcpy_chk 17                  calls per exported name
 *   function memcpy                        the records below are memcpy's
 *   bucket 17 18 5 85                      sizes [lo,hi): calls bytes
 *   dst_mod64 8 120                        destination mod 64: calls sampled
 *   delta_mod64 0 99                       copies: (dst-src) mod 64: calls sampled
 *   alias4k_same 3 12288                   copies from 2 KiB: (dst-src) mod 4096 = 0: calls bytes
 *   alias4k_near 5 20480 4 20000           copies from 2 KiB: (dst-src) mod 4096 in 1..63: calls bytes,
 *                                          and the calls and bytes of those from 2 KiB
 *   alias4k 3 12288                        before version 4: (dst-src) mod 4096 < 64 (0 and
 *                                          1..63 not told apart): calls bytes
 *   overlap 5 2                            memmove: dst-before-src dst-after-src calls
 *   zero 40 1024                           memset: calls bytes with value 0
 *   callsite memcpy 12 4096 zstd+0x1234 libzstd.so.1+0x5678 ...  sampled calls bytes frames,
 *                                          the caller first, then its callers (up to
 *                                          HIST_STACK_MAX of them)
 *   profile 1000 250 1000000000 1250000000 2000000000 0
 *                                          MEMSHIM_PROFILE: rate_hz samples sampled_ns
 *                                          process_cpu_ns wall_ns handler_replaced
 *   recording_apart 1                      after profile: processes whose profile counts
 *                                          the recording wrapper's own time apart
 *   cpu 17 18 40 40000000                  in a function section: samples taken inside
 *                                          the function on sizes [lo,hi), and the CPU ns
 *                                          they stand for: in the variant's code, the
 *                                          copies alone (see below)
 *   recording_cpu 12 12000000              in a function section: samples taken in the
 *                                          recording's own code during the function's
 *                                          calls, and the CPU ns they stand for
 *   cpu_site memcpy 40 40000000 main+0x1d(zstd)  samples and CPU ns by immediate caller
 *   timing 64 2600000000 14620 monotonic   MEMSHIM_TIMING: one call in N timed; the
 *                                          time-stamp counter's Hz; the timer's own cost
 *                                          per timed call in ps (subtracted below); where
 *                                          the Hz came from: cpuid-0x15, cpuid-0x16, or
 *                                          monotonic (measured against CLOCK_MONOTONIC_RAW)
 *   timed 17 18 40 1200 40000 1            in a function section: timed calls on sizes
 *                                          [lo,hi) kept, the ns they took (the timer's
 *                                          cost subtracted), the sum of their squares
 *                                          (ns^2), and the timed calls left out as
 *                                          interrupted (longer than 2 us + 1 ns a byte)
 *   time_site memcpy 40 1200 main+0x1d(zstd)  with call sites on: timed calls and their ns
 *                                          by immediate caller
 *   sequences 64 256                       MEMSHIM_SEQUENCES: calls a window holds at most,
 *                                          and one window kept for about every N calls
 *   window memcpy 64                       a window of memcpy's calls, the thread's next
 *                                          ones from a moment drawn at random: how many
 *   seq 4096 16 2064 -2048                 one call of it, in order: size, destination and
 *                                          source mod 4096, destination - source (copies)
 *   ab glibc avx2 1024                     MEMSHIM_AB: setting A, setting B (as MEMSHIM_IMPL
 *                                          takes them), the calls of a block at the dump
 *   ab_dropped memcpy 2 3                  calls of A and of B left out as interrupted
 *                                          (longer than 2 us + 1 ns a byte)
 *   ab_pair 40 120 38 90 ...               one pair of blocks of one thread: for each
 *                                          function (memcpy, memmove, memset) and size
 *                                          class (dump/size_classes.h, then above
 *                                          16 MiB) A's calls and ns, then B's; the
 *                                          timer's cost subtracted
 *   end                                    the dump is complete
 *
 * Version 2 added the profile, cpu and cpu_site records, version 3 the
 * timing, timed and time_site records, version 4 split alias4k into
 * alias4k_same and alias4k_near, version 5 added recording_apart and
 * recording_cpu, version 6 made a callsite record the whole stack, up to
 * HIST_STACK_MAX frames (a line may then be longer than 8 KiB, which older
 * readers refused), where before it was three frames, version 7 added
 * sequences, window and seq, version 8 ab, ab_dropped and ab_pair, version 9
 * named the rep movsb threshold movsb, which every variant that uses rep
 * movsb reads (before: erms, the erms variant's alone, read as movsb), and
 * made dst_mod64 and delta_mod64 count one call in HIST_ALIGN_EVERY of each
 * thread's size bucket and entry point (dump/counts.h), and alias4k_same
 * and alias4k_near the copies from 2 KiB, where before they counted every call; older dumps are
 * still read (a merge of them keeps their alias4k).  Since version 5 the cpu and cpu_site records count the
 * variant's code alone, where before they also counted the recording
 * wrapper's (an older profile reads as recording_apart 0).
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
 *   timing_processes 12                    after timing: processes with timed calls on
 *   ab_processes 12                        after ab: processes with A/B pairs
 * and "reason merged".  The counts of a section are sums; its variant is
 * "mixed" where its processes disagreed.
 *
 * Only non-zero counters are written.  Readers reject an unknown major
 * version, a missing "end" (a truncated file), and malformed lines. */
#ifndef MEMSHIM_DUMP_FORMAT_H
#define MEMSHIM_DUMP_FORMAT_H

#include "dump/counts.h"
#include "dump/size_classes.h"

#include <stdbool.h>
#include <stddef.h>

#define HIST_FORMAT_NAME "memshim-histogram"
#define HIST_FORMAT_VERSION 9
#define HIST_TEXT_OF(n) #n
#define HIST_NUMBER_TEXT(n) HIST_TEXT_OF(n) /* the number n expands to, as text */
#define HIST_FORMAT_VERSION_TEXT HIST_NUMBER_TEXT(HIST_FORMAT_VERSION)
#define HIST_FORMAT_OLDEST 1 /* the oldest version readers still take */
#define HIST_STACK_MAX 64    /* frames of a sampled call site, at most (MEMSHIM_STACK_DEPTH) */
/* The longest line readers take: a callsite record of HIST_STACK_MAX frames
 * of the longest a library writes (a struct line's 511 characters) fits. */
#define HIST_LINE_MAX 65536

/* ---- writing: async-signal-safe, no allocation, no stdio ---- */

struct dump_header {
	long pid;
	const char *program;
	const char *reason;
	const char *variant[FN_COUNT];
	uint64_t movsb_threshold, stosb_threshold;
};

/* A sampled call site: its return addresses, the caller's first, which
 * describe turns into text one at a time as they are written, so that a
 * whole stack never needs its text on the (maybe signal handler's) stack. */
struct callsite_record {
	enum base_function fn;
	uint64_t calls, bytes;
	unsigned frame_count;
	void *const *addresses;
	/* "function+0xoff(object+0xrel)" or "object+0xrel", at most size-1 characters */
	void (*describe)(void *address, char *out, size_t size);
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
	/* samples in the recording's own code during each function's calls, and their CPU ns */
	uint64_t recording_samples[FN_COUNT], recording_ns[FN_COUNT];
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

/* Timed calls (MEMSHIM_TIMING) of one process, as written: by function and
 * size bucket, in ns, the timer's own cost subtracted. */
struct timing_record {
	uint64_t every;       /* one call in `every` timed */
	uint64_t tsc_hz;      /* the time-stamp counter's frequency */
	uint64_t overhead_ps; /* the timer's own cost per timed call, subtracted */
	const char *hz_source; /* "cpuid-0x15", "cpuid-0x16" or "monotonic" */
	uint64_t calls[FN_COUNT][HIST_BUCKETS], ns[FN_COUNT][HIST_BUCKETS];
	uint64_t squares[FN_COUNT][HIST_BUCKETS], dropped[FN_COUNT][HIST_BUCKETS];
};

/* Written after the profile records, before hist_write_end(); then the
 * time_site records, one per caller. */
bool hist_write_timing(int fd, const struct timing_record *t);
bool hist_write_time_site(int fd, enum base_function fn, uint64_t calls, uint64_t ns, const char *frame);

/* One call of a recorded window (MEMSHIM_SEQUENCES): what replaying it
 * needs.  Overlap is distance != 0 and |distance| < size. */
struct seq_call {
	uint64_t size;
	int64_t distance;          /* destination - source; 0 for memset */
	uint16_t dst_off, src_off; /* mod 4096; src_off 0 for memset */
};

/* Written after the timing records, before hist_write_end(): the header
 * line, then each window. */
bool hist_write_sequences(int fd, unsigned length, uint64_t weight);
bool hist_write_window(int fd, enum base_function fn, const struct seq_call *calls, unsigned count);

/* In-process A/B (MEMSHIM_AB): one pair of blocks of a thread, by arm
 * (0: A, 1: B), function and size class (the nine of
 * dump/size_classes.h, then above 16 MiB). */
#define AB_PAIR_CLASSES (MEMSHIM_SIZE_CLASS_COUNT + 1)
#define AB_PAIR_NUMBERS (4 * FN_COUNT * AB_PAIR_CLASSES) /* of an ab_pair record */
struct ab_pair {
	uint64_t calls[2][FN_COUNT][AB_PAIR_CLASSES], ns[2][FN_COUNT][AB_PAIR_CLASSES];
};

/* Written after the windows, before hist_write_end(): the header line and
 * the dropped calls, then each pair. */
bool hist_write_ab(int fd, const char *setting_a, const char *setting_b, uint64_t block_calls,
                   const uint64_t dropped[FN_COUNT][2]);
bool hist_write_ab_pair(int fd, const struct ab_pair *p);

/* The most pairs a section holds: a library writes fewer, a reader
 * refuses more, a merge keeps the first this many. */
#define HIST_AB_PAIRS_MAX 65536

/* Gives the written file tmp the name `name` unless that is taken (false,
 * errno EEXIST): a dump never replaces a file. */
bool hist_take_name(const char *tmp, const char *name);

struct dump;
/* For the tools: writes d as a merged dump, one section per program of
 * d->programs.  Uses stdio-free writes like the rest; false if one failed. */
bool hist_write_merged(int fd, const struct dump *d);

/* ---- reading: for the tools ---- */

/* A call site: of sampled calls (MEMSHIM_CALLSITES; calls and their bytes,
 * the whole stack, the caller first) or of profile samples (the caller; samples and the
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
	unsigned recording_apart;  /* processes whose fn_ns leaves the recording's own time out */
	/* the counters by function and bucket come last: merged as one run of uint64_t */
	uint64_t fn_samples[FN_COUNT], fn_ns[FN_COUNT];
	uint64_t recording_samples[FN_COUNT], recording_ns[FN_COUNT]; /* the recording's own */
	uint64_t bucket_samples[FN_COUNT][HIST_BUCKETS], bucket_ns[FN_COUNT][HIST_BUCKETS];
};

/* The timed calls of every file read, added up; processes == 0: none had them. */
struct dump_timing {
	unsigned processes;   /* files (processes) that timed calls */
	uint64_t every;       /* of the last such file */
	uint64_t tsc_hz, overhead_ps;
	char hz_source[16];
	double subtracted_ns; /* the timer's cost taken off, over every process */
	/* the counters by function and bucket come last: merged as one run of uint64_t */
	uint64_t calls[FN_COUNT][HIST_BUCKETS], ns[FN_COUNT][HIST_BUCKETS];
	uint64_t squares[FN_COUNT][HIST_BUCKETS], dropped[FN_COUNT][HIST_BUCKETS];
};

/* The A/B pairs of every file read; processes == 0: none had them. */
struct dump_ab {
	unsigned processes;
	char setting[2][256];   /* of the first such file; "mixed" where later ones differ */
	uint64_t block_calls;   /* of the last such file */
	uint64_t dropped[FN_COUNT][2];
	struct ab_pair *pairs;
	size_t pair_count;
};

/* A recorded window of one function's consecutive calls. */
struct dump_window {
	enum base_function fn;
	unsigned count;
	struct seq_call *calls;
};

/* A dump writes, and a merged dump keeps, at most this many windows a
 * program: one section's windows all stand for the same number of calls
 * (weight), so merging drops every other window of the denser side until
 * theirs agree, then of both until the cap holds. */
#define HIST_WINDOWS_MAX 4096

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
	uint64_t movsb_threshold, stosb_threshold;
	struct dump_site *callsites;
	size_t callsite_count;
	struct dump_profile profile;
	struct dump_site *cpu_sites; /* not merged: one entry per file and caller */
	size_t cpu_site_count;
	struct dump_timing timing;
	struct dump_site *time_sites; /* timed calls and their ns by caller; one entry per file and caller */
	size_t time_site_count;
	unsigned sequence_length;   /* the longest window's length asked; 0: no windows */
	uint64_t window_weight;     /* one window for about every this many calls */
	struct dump_window *windows;
	size_t window_count;
	struct dump_ab ab;
};

#endif
