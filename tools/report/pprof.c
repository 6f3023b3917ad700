/* memshim report --pprof: the dumps as one gzip-compressed pprof profile
 * (google/pprof's profile.proto, tools/pprof/), encoded by libprotobuf-c
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
 * file:line that libdw reads (tools/symbolize.c), or the frame itself;
 * mappings carry the objects' paths and build ids, at made-up addresses, one
 * object to each 2^40 bytes, since a dump keeps offsets, not addresses.
 * time_nanos is when the first process started (its dump's time less the
 * wall time its profile records) or, without one, when the first dump was
 * written; duration_nanos runs from there to the last dump written. */
#include "config.h"

#include "tools/report/pprof.h"

#include <stdio.h>

#ifdef HAVE_PPROF
#include "tools/util/dump_load.h"
#include "tools/report/profile.pb-c.h"
#include "tools/util/report_parts.h"
#include "tools/util/symbolize.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#define MAX_DEPTH 64            /* frames kept of a stack, the leaf included */
#define MAPPING_STRIDE (1ull << 40)
#define PAGE 4096u

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Label pb_label;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

const char *pprof_missing(void) { return NULL; }

/* ---- keys to dense indexes: open addressing on FNV-1a, doubled at half full ---- */

struct index {
	char **keys;   /* by index */
	size_t count;
	size_t *slots; /* 0: empty, else index + 1 */
	size_t size;   /* a power of two */
};

static uint64_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static size_t *slot_of(const struct index *x, const char *key)
{
	size_t i = (size_t)hash(key) & (x->size - 1);
	while (x->slots[i] && strcmp(x->keys[x->slots[i] - 1], key) != 0)
		i = (i + 1) & (x->size - 1);
	return &x->slots[i];
}

static bool index_grow(struct index *x)
{
	size_t size = x->size ? 2 * x->size : 256;
	size_t *slots = calloc(size, sizeof *slots);
	char **keys = realloc(x->keys, size / 2 * sizeof *keys);
	if (!slots || !keys) {
		free(slots);
		x->keys = keys ? keys : x->keys;
		return false;
	}
	free(x->slots);
	*x = (struct index){ keys, x->count, slots, size };
	for (size_t k = 0; k < x->count; k++)
		*slot_of(x, keys[k]) = k + 1;
	return true;
}

/* The index of key, added if new (*added says so); -1 when out of memory. */
static long index_of(struct index *x, const char *key, bool *added)
{
	*added = false;
	if (x->size) {
		size_t *slot = slot_of(x, key);
		if (*slot)
			return (long)(*slot - 1);
	}
	char *copy = strdup(key);
	if (!copy || (2 * (x->count + 1) > x->size && !index_grow(x))) {
		free(copy);
		return -1;
	}
	x->keys[x->count] = copy;
	*slot_of(x, key) = x->count + 1;
	*added = true;
	return (long)x->count++;
}

static void index_free(struct index *x)
{
	for (size_t k = 0; k < x->count; k++)
		free(x->keys[k]);
	free(x->keys);
	free(x->slots);
}

/* ---- the profile being built: compact records, turned into protobuf-c's at the end ---- */

struct function_record {
	int64_t name, file;
};

struct location_record {
	uint64_t mapping, address, function;
	int64_t line;
};

struct mapping_record {
	int64_t file, build_id;
	uint64_t span;                 /* from libdw; 0 if unknown */
	uint64_t highest;              /* the highest offset a frame names */
	bool unnamed, unlined;         /* a frame in it without a function, without a line */
};

struct sample_record {
	uint64_t location[MAX_DEPTH];
	unsigned depth;
	int64_t value[3];
	int64_t program, variant, size_class, size;
};

struct builder {
	struct index strings, functions, locations, mappings;
	struct function_record *function;
	struct location_record *location;
	struct mapping_record *mapping;
	size_t function_room, location_room, mapping_room;
	struct sample_record *sample;
	size_t sample_count, sample_room;
	unsigned value_count; /* 2, or 3 with cpu */
	bool failed;          /* out of memory */
};

/* Makes room for one more record in *array. */
static bool room_for(void **array, size_t *room, size_t count, size_t size)
{
	if (count < *room)
		return true;
	size_t more = *room ? 2 * *room : 64;
	void *grown = realloc(*array, more * size);
	if (!grown)
		return false;
	*array = grown;
	*room = more;
	return true;
}

static int64_t string_of(struct builder *b, const char *s)
{
	bool added;
	long i = index_of(&b->strings, s, &added);
	if (i < 0)
		b->failed = true;
	return i < 0 ? 0 : i;
}

/* A function by name and file: ids count from 1. */
static uint64_t function_of(struct builder *b, const char *name, const char *file)
{
	char key[1024];
	snprintf(key, sizeof key, "%s\n%s", name, file);
	bool added;
	long i = index_of(&b->functions, key, &added);
	if (i >= 0 && added && !room_for((void **)&b->function, &b->function_room, (size_t)i, sizeof *b->function))
		i = -1;
	if (i < 0) {
		b->failed = true;
		return 0;
	}
	if (added)
		b->function[i] = (struct function_record){ string_of(b, name), string_of(b, file) };
	return (uint64_t)i + 1;
}

static uint64_t mapping_of(struct builder *b, const char *path)
{
	bool added;
	long i = index_of(&b->mappings, path, &added);
	if (i >= 0 && added && !room_for((void **)&b->mapping, &b->mapping_room, (size_t)i, sizeof *b->mapping))
		i = -1;
	if (i < 0) {
		b->failed = true;
		return 0;
	}
	if (added) {
		struct object_info o;
		symbolize_object(path, &o);
		b->mapping[i] = (struct mapping_record){ .file = string_of(b, path), .build_id = string_of(b, o.build_id),
		                                         .span = o.span };
	}
	return (uint64_t)i + 1;
}

static uint64_t mapping_start(uint64_t id) { return id * MAPPING_STRIDE; }

/* The location of a frame as the dump has it, or of a memshim function (key "\1memcpy"). */
static uint64_t location_of(struct builder *b, const char *key)
{
	bool added;
	long i = index_of(&b->locations, key, &added);
	if (i >= 0 && added && !room_for((void **)&b->location, &b->location_room, (size_t)i, sizeof *b->location))
		i = -1;
	if (i < 0) {
		b->failed = true;
		return 0;
	}
	if (!added)
		return (uint64_t)i + 1;
	struct location_record *l = &b->location[i];
	*l = (struct location_record){ 0 };
	if (key[0] == '\1') {
		l->function = function_of(b, key + 1, "");
		return (uint64_t)i + 1;
	}
	struct frame_info f;
	symbolize_frame(key, &f);
	l->function = function_of(b, f.function[0] ? f.function : key, f.file);
	l->line = f.line;
	char path[4096];
	uint64_t rel;
	if (frame_object(key, path, sizeof path, &rel) && rel < MAPPING_STRIDE && (l->mapping = mapping_of(b, path))) {
		struct mapping_record *m = &b->mapping[l->mapping - 1];
		l->address = mapping_start(l->mapping) + rel;
		m->highest = rel > m->highest ? rel : m->highest;
		m->unnamed |= !f.function[0];
		m->unlined |= !f.line;
	}
	return (uint64_t)i + 1;
}

static unsigned size_class_of(uint64_t size)
{
	unsigned c = 0;
	while (c + 1 < size_class_count && size >= size_classes[c].hi)
		c++;
	return c;
}

static void add_sample(struct builder *b, const uint64_t *location, unsigned depth, const uint64_t *value,
                       int64_t program, int64_t variant, uint64_t size)
{
	if (!room_for((void **)&b->sample, &b->sample_room, b->sample_count, sizeof *b->sample)) {
		b->failed = true;
		return;
	}
	struct sample_record *s = &b->sample[b->sample_count++];
	s->depth = depth;
	memcpy(s->location, location, depth * sizeof *location);
	for (unsigned v = 0; v < 3; v++)
		s->value[v] = (int64_t)value[v];
	s->program = program;
	s->variant = variant;
	s->size_class = string_of(b, size_classes[size_class_of(size)].name);
	s->size = (int64_t)size;
}

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
	qsort(r, n, sizeof *r, by_rest);
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

struct span {
	int64_t first, last; /* ns since the epoch; first > last: none */
};

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

/* ---- protobuf-c's messages, and the file ---- */

struct messages {
	pb_value_type type[4], *type_ptr[3];
	pb_sample *sample, **sample_ptr;
	pb_label *label, **label_ptr;
	pb_mapping *mapping, **mapping_ptr;
	pb_location *location, **location_ptr;
	pb_line *line, **line_ptr;
	pb_function *function, **function_ptr;
	int64_t comment[2];
};

static void *array(size_t n, size_t size, bool *failed)
{
	void *p = calloc(n ? n : 1, size);
	*failed |= !p;
	return p;
}

static bool allocate(struct messages *m, const struct builder *b)
{
	bool failed = false;
	size_t samples = b->sample_count, maps = b->mappings.count, locs = b->locations.count;
	m->sample = array(samples, sizeof *m->sample, &failed);
	m->sample_ptr = array(samples, sizeof *m->sample_ptr, &failed);
	m->label = array(4 * samples, sizeof *m->label, &failed);
	m->label_ptr = array(4 * samples, sizeof *m->label_ptr, &failed);
	m->mapping = array(maps, sizeof *m->mapping, &failed);
	m->mapping_ptr = array(maps, sizeof *m->mapping_ptr, &failed);
	m->location = array(locs, sizeof *m->location, &failed);
	m->location_ptr = array(locs, sizeof *m->location_ptr, &failed);
	m->line = array(locs, sizeof *m->line, &failed);
	m->line_ptr = array(locs, sizeof *m->line_ptr, &failed);
	m->function = array(b->functions.count, sizeof *m->function, &failed);
	m->function_ptr = array(b->functions.count, sizeof *m->function_ptr, &failed);
	return !failed;
}

static void release(struct messages *m)
{
	void *all[] = { m->sample, m->sample_ptr, m->label, m->label_ptr, m->mapping, m->mapping_ptr,
		        m->location, m->location_ptr, m->line, m->line_ptr, m->function, m->function_ptr };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		free(all[i]);
}

static void fill_samples(struct messages *m, struct builder *b, pb_profile *p)
{
	int64_t keys[4] = { string_of(b, "program"), string_of(b, "variant"), string_of(b, "size_class"),
		            string_of(b, "bytes") };
	int64_t bytes_unit = string_of(b, "bytes");
	for (size_t i = 0; i < b->sample_count; i++) {
		struct sample_record *r = &b->sample[i];
		pb_label *l = &m->label[4 * i];
		int64_t strings[3] = { r->program, r->variant, r->size_class };
		for (int k = 0; k < 4; k++) {
			perftools__profiles__label__init(&l[k]);
			l[k].key = keys[k];
			if (k < 3)
				l[k].str = strings[k];
			m->label_ptr[4 * i + k] = &l[k];
		}
		l[3].num = r->size;
		l[3].num_unit = bytes_unit;
		pb_sample *s = &m->sample[i];
		perftools__profiles__sample__init(s);
		s->n_location_id = r->depth;
		s->location_id = r->location;
		s->n_value = b->value_count;
		s->value = r->value;
		s->n_label = 4;
		s->label = &m->label_ptr[4 * i];
		m->sample_ptr[i] = s;
	}
	p->n_sample = b->sample_count;
	p->sample = m->sample_ptr;
}

static void fill_tables(struct messages *m, const struct builder *b, pb_profile *p)
{
	for (size_t i = 0; i < b->mappings.count; i++) {
		const struct mapping_record *r = &b->mapping[i];
		pb_mapping *x = &m->mapping[i];
		perftools__profiles__mapping__init(x);
		uint64_t extent = (r->highest + PAGE) / PAGE * PAGE;
		x->id = i + 1;
		x->memory_start = mapping_start(i + 1);
		x->memory_limit = x->memory_start + (r->span > extent ? r->span : extent);
		x->filename = r->file;
		x->build_id = r->build_id;
		x->has_functions = !r->unnamed;
		x->has_filenames = x->has_line_numbers = !r->unlined;
		m->mapping_ptr[i] = x;
	}
	for (size_t i = 0; i < b->locations.count; i++) {
		const struct location_record *r = &b->location[i];
		perftools__profiles__line__init(&m->line[i]);
		m->line[i].function_id = r->function;
		m->line[i].line = r->line;
		m->line_ptr[i] = &m->line[i];
		pb_location *x = &m->location[i];
		perftools__profiles__location__init(x);
		x->id = i + 1;
		x->mapping_id = r->mapping;
		x->address = r->address;
		x->n_line = 1;
		x->line = &m->line_ptr[i];
		m->location_ptr[i] = x;
	}
	for (size_t i = 0; i < b->functions.count; i++) {
		pb_function *x = &m->function[i];
		perftools__profiles__function__init(x);
		x->id = i + 1;
		x->name = x->system_name = b->function[i].name;
		x->filename = b->function[i].file;
		m->function_ptr[i] = x;
	}
	p->n_mapping = b->mappings.count;
	p->mapping = m->mapping_ptr;
	p->n_location = b->locations.count;
	p->location = m->location_ptr;
	p->n_function = b->functions.count;
	p->function = m->function_ptr;
}

static void fill_header(struct messages *m, struct builder *b, const struct dump *d, struct span s, pb_profile *p)
{
	static const char *const types[3][2] = { { "calls", "count" }, { "bytes", "bytes" }, { "cpu", "nanoseconds" } };
	for (unsigned v = 0; v < 4; v++) {
		perftools__profiles__value_type__init(&m->type[v]);
		m->type[v].type = string_of(b, types[v < 3 ? v : 2][0]);
		m->type[v].unit = string_of(b, types[v < 3 ? v : 2][1]);
		if (v < 3)
			m->type_ptr[v] = &m->type[v];
	}
	p->n_sample_type = b->value_count;
	p->sample_type = m->type_ptr;
	if (b->value_count > 2 && d->profile.rate_hz) {
		p->period_type = &m->type[3];
		p->period = (int64_t)(1000000000 / d->profile.rate_hz);
	}
	if (s.first <= s.last) {
		p->time_nanos = s.first;
		p->duration_nanos = s.last - s.first;
	}
	char title[1200], line[1400];
	snprintf(line, sizeof line, "memshim report --pprof: %s (%u dump file%s)", dump_title(d, title, sizeof title),
	         d->files, d->files == 1 ? "" : "s");
	m->comment[0] = string_of(b, line);
	m->comment[1] = string_of(b, "calls and bytes are the recorded totals; with sampled call sites they are "
	                             "shared among the stacks, whose size_class is that of their mean size");
	p->n_comment = 2;
	p->comment = m->comment;
}

static int save(const char *path, const uint8_t *data, size_t size)
{
	gzFile out = gzopen(path, "wb");
	if (!out) {
		fprintf(stderr, "memshim report: cannot write %s: %s\n", path, errno ? strerror(errno) : "out of memory");
		return -1;
	}
	bool ok = gzfwrite(data, 1, size, out) == size;
	int err;
	const char *why = ok ? "" : gzerror(out, &err);
	if (!ok && err == Z_ERRNO)
		why = strerror(errno);
	char reason[200];
	snprintf(reason, sizeof reason, "%s", why);
	int closed = gzclose(out);
	if (ok && closed != Z_OK)
		snprintf(reason, sizeof reason, "%s", closed == Z_ERRNO ? strerror(errno) : "compression failed");
	if (!ok || closed != Z_OK) {
		fprintf(stderr, "memshim report: cannot write %s: %s\n", path, reason);
		return -1;
	}
	return 0;
}

static int encode(struct builder *b, const struct dump *d, struct span s, const char *path)
{
	struct messages m = { 0 };
	pb_profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	uint8_t *data = NULL;
	bool ready = allocate(&m, b);
	if (ready) {
		fill_header(&m, b, d, s, &p);
		fill_samples(&m, b, &p);
		fill_tables(&m, b, &p);
		/* the table last: filling the rest may add strings */
		p.n_string_table = b->strings.count;
		p.string_table = b->strings.keys;
		data = b->failed ? NULL : malloc(perftools__profiles__profile__get_packed_size(&p) + 1);
	}
	int rc = -1;
	if (!data)
		fprintf(stderr, "memshim report: --pprof: out of memory\n");
	else
		rc = save(path, data, perftools__profiles__profile__pack(&p, data));
	free(data);
	release(&m);
	return rc;
}

int write_pprof(const struct dump *d, const char *path, char *const *args, size_t n)
{
	struct builder b = { .value_count = d->profile.processes ? 3 : 2 };
	string_of(&b, ""); /* string 0 is "" */
	for (size_t i = 0; i < d->program_count; i++)
		for (int fn = 0; fn < FN_COUNT; fn++)
			add_function(&b, d->programs[i].d, d->programs[i].name, fn);
	int rc = encode(&b, d, dumps_span(args, n, d->program_filter), path);
	index_free(&b.strings);
	index_free(&b.functions);
	index_free(&b.locations);
	index_free(&b.mappings);
	free(b.function);
	free(b.location);
	free(b.mapping);
	free(b.sample);
	return rc;
}

#else

const char *pprof_missing(void)
{
	return "this memshim was built without protobuf-c and zlib (Debian: protobuf-c-compiler, "
	       "libprotobuf-c-dev, zlib1g-dev; then configure again)";
}

int write_pprof(const struct dump *d, const char *path, char *const *args, size_t n)
{
	(void)d;
	(void)path;
	(void)args;
	(void)n;
	fprintf(stderr, "memshim report: --pprof: %s\n", pprof_missing());
	return -1;
}

#endif
