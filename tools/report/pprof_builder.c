/* The profile memshim report --pprof builds (pprof_builder.h). */
#include "config.h"

#ifdef HAVE_PPROF
#include "tools/report/pprof_builder.h"

#include "tools/util/units_shares.h"
#include "tools/report/symbolize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- keys to dense indexes: open addressing on FNV-1a, doubled at half full ---- */


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

int64_t string_of(struct builder *b, const char *s)
{
	bool added;
	long i = index_of(&b->strings, s, &added);
	if (i < 0)
		b->failed = true;
	return i < 0 ? 0 : i;
}

/* The index of key in x, with room made for its record in *array when it
 * is new (*added); -1 (b failed) when out of memory. */
static long add_key(struct builder *b, struct index *x, const char *key, void **array, size_t *room, size_t size,
		    bool *added)
{
	long i = index_of(x, key, added);
	if (i >= 0 && *added && !room_for(array, room, (size_t)i, size))
		i = -1;
	if (i < 0)
		b->failed = true;
	return i;
}

/* A function by name and file: ids count from 1. */
static uint64_t function_of(struct builder *b, const char *name, const char *file)
{
	char key[1024];
	snprintf(key, sizeof key, "%s\n%s", name, file);
	bool added;
	long i = add_key(b, &b->functions, key, (void **)&b->function, &b->function_room, sizeof *b->function, &added);
	if (i < 0)
		return 0;
	if (added)
		b->function[i] = (struct function_record){ string_of(b, name), string_of(b, file) };
	return (uint64_t)i + 1;
}

static uint64_t mapping_of(struct builder *b, const char *path)
{
	bool added;
	long i = add_key(b, &b->mappings, path, (void **)&b->mapping, &b->mapping_room, sizeof *b->mapping, &added);
	if (i < 0)
		return 0;
	if (added) {
		struct object_info o;
		symbolize_object(path, &o);
		b->mapping[i] = (struct mapping_record){ .file = string_of(b, path), .build_id = string_of(b, o.build_id),
		                                         .span = o.span };
	}
	return (uint64_t)i + 1;
}

/* The location of a frame as the dump has it, or of a memshim function (key "\1memcpy"). */
uint64_t location_of(struct builder *b, const char *key)
{
	bool added;
	long i = add_key(b, &b->locations, key, (void **)&b->location, &b->location_room, sizeof *b->location, &added);
	if (i < 0)
		return 0;
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

void add_sample(struct builder *b, const uint64_t *location, unsigned depth, const uint64_t *value,
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


void builder_free(struct builder *b)
{
	index_free(&b->strings);
	index_free(&b->functions);
	index_free(&b->locations);
	index_free(&b->mappings);
	free(b->function);
	free(b->location);
	free(b->mapping);
	free(b->sample);
}

#endif
