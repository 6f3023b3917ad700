/* The profile memshim report --pprof builds from the dumps: compact
 * records (strings, functions, locations, mappings and samples, each a dense
 * index from 1), which pprof_encode.c turns into protobuf-c's messages. */
#ifndef MEMSHIM_PPROF_BUILDER_H
#define MEMSHIM_PPROF_BUILDER_H

#include "dump/format.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_DEPTH (HIST_STACK_MAX + 1) /* frames kept of a stack: a whole one, and the leaf */
#define MAPPING_STRIDE (1ull << 40)

/* Keys to dense indexes: open addressing on FNV-1a, doubled at half full. */
struct index {
	char **keys;   /* by index */
	size_t count;
	size_t *slots; /* 0: empty, else index + 1 */
	size_t size;   /* a power of two */
};

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

/* The index of string s in the string table (0 for ""). */
int64_t string_of(struct builder *b, const char *s);
/* The location of a frame as the dump has it, or of a memshim function (key "\1memcpy"). */
uint64_t location_of(struct builder *b, const char *key);
/* A sample: its stack (leaf first), values and labels. */
void add_sample(struct builder *b, const uint64_t *location, unsigned depth, const uint64_t *value,
                int64_t program, int64_t variant, uint64_t size);
/* Where mapping id's made-up addresses start: one object to each 2^40 bytes. */
static inline uint64_t mapping_start(uint64_t id) { return id * MAPPING_STRIDE; }
void builder_free(struct builder *b);

#endif
