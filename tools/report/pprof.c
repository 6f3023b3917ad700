/* memshim report --pprof: the dumps as one gzip-compressed pprof profile
 * (google/pprof's profile.proto, tools/report/pprof/), encoded by libprotobuf-c
 * from the C that protoc-c makes of the proto at build time, compressed by
 * zlib.  pprof reads it, Grafana Pyroscope ingests it and Parca stores it.
 *
 * Sample types: calls/count, bytes/bytes, and cpu/nanoseconds where the
 * dumps have a profile (MEMSHIM_PROFILE).  Per program and function:
 * - Where call sites were sampled (MEMSHIM_CALLSITES), each sampled stack is
 *   a sample, leaf first: the memshim function, then its callers.  The
 *   function's recorded calls and bytes are shared among its stacks in
 *   proportion to what each was sampled with, in whole units that add up to
 *   the totals: pprof keeps values "unsampled", as Go's heap profiles do.
 *   The dump keeps a stack's calls and bytes, not its sizes, so its
 *   size_class and bytes labels are those of its mean size.
 * - Otherwise each size bucket is a sample on the function alone, with its
 *   calls and bytes.
 * - CPU time is by size bucket on the function alone: the profile keeps time
 *   by size and by caller apart, and a CPU profiler already gives callers.
 * Every sample carries the labels program, variant, size_class ("1-4 KiB")
 * and bytes (the size, unit bytes).  Locations name the function and
 * file:line that libdw reads (tools/report/symbolize.c), or the frame itself;
 * mappings carry the objects' paths and build ids, at made-up addresses, one
 * object to each 2^40 bytes, since a dump keeps offsets, not addresses.
 * time_nanos is when the first process started (its dump's time less the
 * wall time its profile records) or, without one, when the first dump was
 * written; duration_nanos runs from there to the last dump written. */
#include "config.h"

#include "tools/report/pprof.h"

#include <stdio.h>

#ifdef HAVE_PPROF
#include "tools/report/pprof_builder.h"
#include "tools/report/pprof_encode.h"
#include "dump/reader/load.h"
#include "dump/reader/read.h"
#include "tools/util/units_shares.h"
#include "tools/util/sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *pprof_missing(void) { return NULL; }

/* ---- samples from the dumps ---- */

struct remainder {
	size_t part;
	unsigned __int128 rest;
};

static int by_rest(const void *a, const void *b)
{
	const struct remainder *x = a, *y = b;
	return x->rest < y->rest ? 1 : x->rest > y->rest ? -1 : (x->part > y->part) - (x->part < y->part);
}

/* Shares total among n parts in proportion to weight, in whole units that
 * add up to total (the largest remainders get the units left over). */
static bool apportion(uint64_t total, const uint64_t *weight, size_t n, uint64_t *out)
{
	unsigned __int128 all = 0;
	for (size_t i = 0; i < n; i++)
		all += weight[i];
	struct remainder *r = malloc((n ? n : 1) * sizeof *r);
	if (!r)
		return false;
	uint64_t given = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned __int128 exact = all ? (unsigned __int128)total * weight[i] : 0;
		out[i] = all ? (uint64_t)(exact / all) : 0;
		r[i] = (struct remainder){ i, all ? exact % all : 0 };
		given += out[i];
	}
	sort_items(r, n, sizeof *r, by_rest);
	for (size_t k = 0; all && given < total && k < n; k++, given++)
		out[r[k].part]++;
	free(r);
	return true;
}

/* The frames of a site, space-separated in the dump, as locations after the leaf. */
static unsigned site_stack(struct builder *b, const char *frames, uint64_t *location)
{
	unsigned depth = 1;
	char frame[4096];
	while (*frames && depth < MAX_DEPTH) {
		size_t len = strcspn(frames, " ");
		snprintf(frame, sizeof frame, "%.*s", (int)(len < sizeof frame ? len : sizeof frame - 1), frames);
		location[depth++] = location_of(b, frame);
		frames += len + (frames[len] == ' ');
	}
	return depth;
}

/* Samples from the sampled call sites of fn; false if it has none. */
static bool add_sites(struct builder *b, const struct dump *p, int fn, uint64_t leaf, int64_t program,
                      int64_t variant)
{
	size_t n = 0;
	for (size_t i = 0; i < p->callsite_count; i++)
		n += p->callsites[i].fn == (enum base_function)fn && p->callsites[i].calls;
	uint64_t *w = n ? malloc(4 * n * sizeof *w) : NULL;
	if (!w) {
		b->failed |= n > 0;
		return false;
	}
	const struct dump_site **site = malloc(n * sizeof *site);
	uint64_t *calls = w, *bytes = w + n, *calls_share = w + 2 * n, *bytes_share = w + 3 * n, sampled_bytes = 0;
	size_t k = 0;
	for (size_t i = 0; site && i < p->callsite_count; i++)
		if (p->callsites[i].fn == (enum base_function)fn && p->callsites[i].calls) {
			site[k] = &p->callsites[i];
			calls[k] = site[k]->calls;
			bytes[k] = site[k]->bytes;
			sampled_bytes += bytes[k++];
		}
	const struct function_histogram *h = &p->hist.fn[fn];
	/* sites that copied 0 bytes share the bytes as they share the calls */
	if (!site || !apportion(sum_buckets(h->calls), calls, n, calls_share) ||
	    !apportion(sum_buckets(h->bytes), sampled_bytes ? bytes : calls, n, bytes_share))
		b->failed = true;
	for (k = 0; !b->failed && k < n; k++) {
		uint64_t location[MAX_DEPTH] = { leaf };
		unsigned depth = site_stack(b, site[k]->frames, location);
		uint64_t value[3] = { calls_share[k], bytes_share[k], 0 };
		add_sample(b, location, depth, value, program, variant, (bytes[k] + calls[k] / 2) / calls[k]);
	}
	free(site);
	free(w);
	return true;
}

static void add_function(struct builder *b, const struct dump *p, const char *program, int fn)
{
	char key[32];
	snprintf(key, sizeof key, "\1%s", base_function_names[fn]);
	uint64_t leaf = location_of(b, key);
	int64_t name = string_of(b, program), variant = string_of(b, p->variant[fn][0] ? p->variant[fn] : "?");
	const struct function_histogram *h = &p->hist.fn[fn];
	bool by_site = add_sites(b, p, fn, leaf, name, variant);
	for (unsigned k = 0; k < HIST_BUCKETS; k++) {
		uint64_t value[3] = { by_site ? 0 : h->calls[k], by_site ? 0 : h->bytes[k],
		                      b->value_count > 2 ? p->profile.bucket_ns[fn][k] : 0 };
		if (value[0] || value[2])
			add_sample(b, &leaf, 1, value, name, variant,
			           h->calls[k] ? (h->bytes[k] + h->calls[k] / 2) / h->calls[k] : hist_bucket_lo(k));
	}
}

/* ---- the time the dumps cover ---- */


/* One dump file: [written less its wall time, written] (the wall time of
 * a single profiled process only: a merge sums those of its processes). */
static void add_file(struct span *s, const char *path, struct dump *scratch, const char *filter)
{
	struct stat st;
	char why[400];
	hist_dump_init(scratch);
	scratch->program_filter = filter;
	if (stat(path, &st) == 0 && hist_read_file(path, scratch, why, sizeof why) && scratch->processes) {
		int64_t written = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec, start = written;
		const struct dump_profile *p = &scratch->profile;
		if (scratch->processes == 1 && p->processes == 1 && p->wall_ns < (uint64_t)written)
			start = written - (int64_t)p->wall_ns;
		s->first = start < s->first ? start : s->first;
		s->last = written > s->last ? written : s->last;
	}
	hist_dump_free(scratch);
}

static struct span dumps_span(char *const *args, size_t n, const char *filter)
{
	struct span s = { INT64_MAX, 0 };
	struct dump_inputs in = { 0 };
	unsigned bad = 0;
	struct dump *scratch = malloc(sizeof *scratch);
	if (scratch && dump_inputs_expand(NULL, args, n, &in, &bad))
		for (size_t i = 0; i < in.count; i++)
			add_file(&s, in.paths[i], scratch, filter);
	dump_inputs_free(&in);
	free(scratch);
	return s;
}

int write_pprof(const struct dump *d, const char *path, bool replace, char *const *args, size_t n)
{
	struct builder b = { .value_count = d->profile.processes ? 3 : 2 };
	string_of(&b, ""); /* string 0 is "" */
	for (size_t i = 0; i < d->program_count; i++)
		for (int fn = 0; fn < FN_COUNT; fn++)
			add_function(&b, d->programs[i].d, d->programs[i].name, fn);
	int rc = pprof_encode(&b, d, dumps_span(args, n, d->program_filter), path, replace);
	builder_free(&b);
	return rc;
}

#else

const char *pprof_missing(void)
{
	return "this memshim was built without protobuf-c and zlib (Debian: protobuf-c-compiler, "
	       "libprotobuf-c-dev, zlib1g-dev; then configure again)";
}

int write_pprof(const struct dump *d, const char *path, bool replace, char *const *args, size_t n)
{
	(void)d;
	(void)path;
	(void)replace;
	(void)args;
	(void)n;
	fprintf(stderr, "memshim report: --pprof: %s\n", pprof_missing());
	return -1;
}

#endif
