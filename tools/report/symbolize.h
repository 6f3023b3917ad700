/* Call-site frames made readable: the function (exported or not) and, when
 * the object has debug information, file:line, read offline from the object
 * a frame names (libdw).  Without libdw, or for frames of old dumps (a bare
 * object name), frames stay as the dump has them. */
#ifndef MEMSHIM_SYMBOLIZE_H
#define MEMSHIM_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct frame_info {
	char function[1024]; /* "" when unknown; C++ names demangled */
	unsigned long offset; /* of the call in the function (with has_offset) */
	bool has_offset;
	char file[512];      /* "" when no line information */
	int line;
	char object[256];    /* the object's base name, or the frame as the dump has it */
};

/* What the frame text of a dump ("sym+0xoff(/lib/x.so+0xrel)", "/bin/x+0xrel",
 * or older forms) stands for, C++ names demangled; never fails: unknown
 * parts are left empty. */
void symbolize_frame(const char *frame, struct frame_info *out);

/* "function (file.c:7, object)", "function+0x1a4 (object)" (no line
 * information: the offset tells two sites of one function apart), or the
 * frame itself. */
const char *frame_readable(const char *frame, char *buf, size_t size);

/* The object's full path and the frame's offset from its first mapped
 * page; false for frames of old dumps, which name only a base name. */
bool frame_object(const char *frame, char *path, size_t size, uint64_t *rel);

struct object_info {
	char build_id[81]; /* hex, "" when the object has none */
	uint64_t span;     /* bytes from its first mapped page to the end of its loadable segments */
};

/* What libdw reads of the object at path; false when it cannot be read
 * (or this memshim has no libdw). */
bool symbolize_object(const char *path, struct object_info *out);

/* Whether this memshim was built with libdw. */
bool symbolize_available(void);

/* Closes the objects opened so far. */
void symbolize_end(void);

#endif
