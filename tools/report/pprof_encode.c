/* memshim report --pprof's profile as protobuf-c's messages, packed,
 * compressed by zlib and written. */
#include "config.h"

#ifdef HAVE_PPROF
#include "tools/report/pprof_encode.h"

#include "tools/report/profile.pb-c.h"
#include "tools/util/output_file.h"
#include "tools/util/units_shares.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define PAGE 4096u

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Label pb_label;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

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

/* Writes the profile gzipped to path, through output_file's temporary
 * name (zlib writes to a copy of its descriptor). */
static int save(const char *path, bool replace, const uint8_t *data, size_t size)
{
	struct output_file o;
	if (!output_open(&o, "report", path))
		return -1;
	int fd = dup(fileno(o.f));
	gzFile out = fd >= 0 ? gzdopen(fd, "wb") : NULL;
	if (!out) {
		fprintf(stderr, "memshim report: cannot write %s: %s\n", path, errno ? strerror(errno) : "out of memory");
		if (fd >= 0)
			close(fd);
		output_discard(&o);
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
		output_discard(&o);
		return -1;
	}
	return output_finish(&o, "report", replace) ? 0 : -1;
}

int pprof_encode(struct builder *b, const struct dump *d, struct span s, const char *path, bool replace)
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
		rc = save(path, replace, data, perftools__profiles__profile__pack(&p, data));
	free(data);
	release(&m);
	return rc;
}

#endif
