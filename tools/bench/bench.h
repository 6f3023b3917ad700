/* memshim bench's own parts: its options, the variants and peers it loads,
 * the cases it plans, the distributions they draw from, and its output.
 * The timing itself is the measuring engine's (tools/measure/measure.h). */
#ifndef MEMSHIM_BENCH_H
#define MEMSHIM_BENCH_H

#include "dispatch/variants.h"
#include "tools/measure/measure.h"
#include "tools/measure/dist_file.h"
#include "tools/measure/size_dist.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define MAX_DISTRIBUTIONS 16
#define BENCH_MAX_DRAWS 100000000
#define MAX_SIZES 128
#define MAX_RESULTS 4096
#define MAX_PROCESSES 9
/* Processes a case is measured in unless told: a process's buffers land on
 * its own physical pages, and on a Zen 5 a masked copy's ratio to glibc on
 * Memcpy_Fleet in L1 read 0.79 in one process and 0.99 over three others,
 * each within +-1.5%: one process's interval does not cover that. */
#define DEFAULT_PROCESSES 3

/* --peer NAME=PATH[:PREFIX] */
#define PEER_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
#define PEER_PREFIX_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

struct peer_spec {
	char name[16];
	char path[4096];
	char prefix[64]; /* of the symbols: "__folly_" for __folly_memcpy */
};

struct bench_options {
	bool quick, stub, path, with_default, stub_probe, every_placement, read_back, in_use;
	unsigned functions; /* bit per enum base_function */
	unsigned cases;     /* bit per enum case_kind */
	const char *variants;
	const char *csv, *svg;
	const char *replay; /* --replay DUMP */
	const char *distributions[MAX_DISTRIBUTIONS];
	unsigned distribution_count;
	size_t sizes[MAX_SIZES];
	unsigned size_count;
	unsigned rounds, draws; /* rounds: exactly that many pairs (0: until precise) */
	double seconds;         /* a column's most time in a case (0: the default) */
	unsigned processes;     /* measured in this many processes (0: one) */
	struct peer_spec peers[MEASURE_MAX_PEERS];
	unsigned peer_count;
};

/* The distributions the dist case draws from. */
struct distributions {
	struct size_dist *list[MAX_DISTRIBUTIONS * FN_COUNT + 32];
	unsigned count;
};

extern const char *const case_kind_names[CASE_KIND_COUNT]; /* "sweep", ... (for --cases, CSV) */

/* plan.c: the cases the options ask for, in the order of the report. */
struct plan {
	struct measure_case *cases;
	size_t count;
};
void bench_plan_cases(struct plan *p, const struct bench_options *o, const struct distributions *d);

/* library.c: variants[] filled from the library (tools/measure/library.h):
 * the listed ones (all if none) that can run here and glibc's, the
 * baseline, in any case; --default's exported functions; the --peer
 * libraries'.  Each returns the exit status. */
int bench_load_variants(const char *list, struct measure_variant *variants, unsigned *count, unsigned *glibc);
int bench_load_default(struct measure_variant *variants, unsigned *count);
/* The rep movsb and rep stosb thresholds the library's variants read, and
 * where rep movsb stops (in the configuration the library read at its
 * load); false without it. */
bool bench_library_thresholds(size_t *movsb, size_t *stosb, size_t *movsb_stop);
int bench_load_peers(const struct bench_options *o, struct measure_variant *variants, unsigned *count);

/* distributions.c: --distribution's files (exit status), or the built-in
 * ones; bench_free_distributions frees either. */
int bench_load_distributions(const struct bench_options *o, struct distributions *d);
void bench_load_builtin_distributions(bool quick, struct distributions *d);
void bench_free_distributions(struct distributions *d);


/* Reads a histogram dump (dump/format.h): a distribution for
 * each function with calls, named "memcpy:FILE" and for that function
 * only, one size per bucket (its mean) weighted by its calls.  Puts up to
 * FN_COUNT in out and returns how many; 0 and a message on failure. */
unsigned size_dist_load_dump(const char *path, struct size_dist **out, char *error, size_t error_size);

/* Whether the file starts like a histogram dump. */
int size_dist_is_dump(const char *path);


/* draws.c, memshim bench --draws: n draws of sizes, alignments and overlaps,
 * each value's count beside its probability; 1 on failure. */
int size_dist_print_draws(FILE *out, const struct size_dist *d, uint64_t n);

/* path.c, memshim bench --path: the instructions and taken branches of one
 * call per size, 0 to 1 KiB, of each variant's listed functions (a bit per
 * enum base_function), as tables on standard output and one line per call
 * in csv if not NULL; exit status. */
int bench_path(const struct measure_variant *v, unsigned count, unsigned functions, FILE *csv);

/* replay.c, memshim bench --replay: the dump's windows timed for every
 * variant, the functions asked (a bit per enum base_function); every
 * result in csv if not NULL; exit status (1, said, for a bad dump or one
 * without windows). */
int bench_replay(const char *path, struct measure_settings *s, unsigned functions, FILE *csv);

/* stub.c, memshim bench --stub, on the loaded library: exit status. */
int bench_stub(void *library, unsigned rounds);

/* output.c and output_svg.c: the text, --csv and --svg.  A size as the
 * tables write it: "4K", "64M" for whole multiples, else the plain number. */
const char *bench_size_text(size_t n, char *buf, size_t size);
void report_header(FILE *out, const struct measure_settings *s);
void report_table(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n);
void report_csv(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n);
void report_svg(FILE *out, const struct measure_settings *s, const struct measure_result *r, size_t n);

#endif
