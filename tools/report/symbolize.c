#include "config.h"

#include "tools/report/symbolize.h"

#include "tools/report/demangle.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBDW
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#endif

/* Splits "PATH+0xREL" (PATH absolute) into its parts; false for other forms. */
static bool object_and_offset(const char *text, size_t len, char *path, size_t size, uint64_t *rel)
{
	const char *plus = NULL;
	for (const char *p = text; p + 3 <= text + len; p++)
		if (p[0] == '+' && p[1] == '0' && p[2] == 'x')
			plus = p;
	if (!plus || text[0] != '/' || (size_t)(plus - text) >= size)
		return false;
	char *end;
	*rel = strtoull(plus + 3, &end, 16);
	if (end != text + len)
		return false;
	memcpy(path, text, (size_t)(plus - text));
	path[plus - text] = '\0';
	return true;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

#ifdef HAVE_LIBDW
static const Dwfl_Callbacks offline = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static Dwfl *dwfl;
static struct known {
	char *path;
	Dwfl_Module *module; /* NULL: the object could not be read */
} *known;
static size_t known_count;

/* path opened for reading if it is a regular file, else -1: a dump names
 * the objects, and one naming a FIFO or a device must not make the
 * report block or read from it.  O_NONBLOCK makes the open itself return
 * at once on a FIFO; a regular file's reads ignore it. */
static int open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* The module of path, reported on first use; NULL if it cannot be read. */
static Dwfl_Module *module_of(const char *path)
{
	for (size_t i = 0; i < known_count; i++)
		if (strcmp(known[i].path, path) == 0)
			return known[i].module;
	if (!dwfl && !(dwfl = dwfl_begin(&offline)))
		return NULL;
	struct known *grown = realloc(known, (known_count + 1) * sizeof *grown);
	char *copy = strdup(path);
	if (!grown || !copy) {
		free(copy);
		known = grown ? grown : known;
		return NULL;
	}
	known = grown;
	int fd = open_regular(path);
	Dwfl_Module *m = NULL;
	if (fd >= 0) {
		dwfl_report_begin_add(dwfl);
		m = dwfl_report_offline(dwfl, path, path, fd); /* takes fd when it succeeds */
		dwfl_report_end(dwfl, NULL, NULL);
		if (!m)
			close(fd);
	}
	known[known_count++] = (struct known){ copy, m };
	return m;
}

/* The link-time address of the object's first mapped page: the frames'
 * offsets count from where the loader mapped it (dladdr's dli_fbase). */
static bool first_page(Dwfl_Module *m, GElf_Addr *first, GElf_Addr *bias)
{
	Elf *elf = dwfl_module_getelf(m, bias);
	size_t count;
	if (!elf || elf_getphdrnum(elf, &count) != 0)
		return false;
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
			*first = ph.p_vaddr & ~(ph.p_align ? ph.p_align - 1 : 0);
			return true;
		}
	}
	return false;
}

static void look_up(const char *path, uint64_t rel, struct frame_info *out)
{
	Dwfl_Module *m = module_of(path);
	GElf_Addr first, bias;
	if (!m || !first_page(m, &first, &bias))
		return;
	GElf_Addr address = bias + first + rel, offset;
	GElf_Sym symbol;
	const char *name = dwfl_module_addrinfo(m, address, &offset, &symbol, NULL, NULL, NULL);
	if (name) {
		snprintf(out->function, sizeof out->function, "%s", name);
		out->offset = offset;
		out->has_offset = true;
	}
	Dwfl_Line *line = dwfl_module_getsrc(m, address);
	int lineno = 0;
	const char *file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (file && lineno > 0) {
		snprintf(out->file, sizeof out->file, "%s", base_name(file));
		out->line = lineno;
	}
}

bool symbolize_object(const char *path, struct object_info *out)
{
	memset(out, 0, sizeof *out);
	Dwfl_Module *m = module_of(path);
	GElf_Addr first, bias;
	if (!m || !first_page(m, &first, &bias))
		return false;
	const unsigned char *bits;
	GElf_Addr where;
	int n = dwfl_module_build_id(m, &bits, &where);
	for (int i = 0; i < n && 2 * (size_t)i + 2 < sizeof out->build_id; i++)
		snprintf(out->build_id + 2 * i, 3, "%02x", bits[i]);
	Dwarf_Addr start, end;
	dwfl_module_info(m, NULL, &start, &end, NULL, NULL, NULL, NULL);
	out->span = end - start; /* the loadable segments, first page to last byte */
	return true;
}

bool symbolize_available(void) { return true; }

void symbolize_end(void)
{
	if (dwfl)
		dwfl_end(dwfl);
	dwfl = NULL;
	for (size_t i = 0; i < known_count; i++)
		free(known[i].path);
	free(known);
	known = NULL;
	known_count = 0;
}
#else
static void look_up(const char *path, uint64_t rel, struct frame_info *out)
{
	(void)path;
	(void)rel;
	(void)out;
}

bool symbolize_object(const char *path, struct object_info *out)
{
	(void)path;
	memset(out, 0, sizeof *out);
	return false;
}

bool symbolize_available(void) { return false; }

void symbolize_end(void) {}
#endif

/* The part of a frame naming the object: all of "/bin/x+0xrel", the inside
 * of the parentheses of "sym+0xoff(/lib/x.so+0xrel)"; *name_len is the
 * length of "sym" in the latter, 0 in the former. */
static const char *frame_object_part(const char *frame, size_t *len, size_t *name_len)
{
	size_t all = strlen(frame);
	const char *open = strchr(frame, '(');
	*len = all;
	*name_len = 0;
	if (!open || all == 0 || frame[all - 1] != ')')
		return frame;
	const char *plus = strstr(frame, "+0x");
	*name_len = (size_t)((plus && plus < open ? plus : open) - frame);
	*len = all - (size_t)(open + 1 - frame) - 1;
	return open + 1;
}

bool frame_object(const char *frame, char *path, size_t size, uint64_t *rel)
{
	size_t len, name_len;
	const char *inner = frame_object_part(frame, &len, &name_len);
	return object_and_offset(inner, len, path, size, rel);
}

/* symbolize_frame before demangling. */
static void read_frame(const char *frame, struct frame_info *out)
{
	memset(out, 0, sizeof *out);
	size_t inner_len, name_len;
	const char *inner = frame_object_part(frame, &inner_len, &name_len);
	/* "sym+0xoff(object...)": the exported symbol is already a name */
	if (inner != frame) {
		snprintf(out->function, sizeof out->function, "%.*s", (int)name_len, frame);
		const char *plus = strstr(frame, "+0x");
		if (plus && plus < inner) {
			out->offset = strtoul(plus + 3, NULL, 16);
			out->has_offset = true;
		}
	}
	char path[4096];
	uint64_t rel;
	if (!object_and_offset(inner, inner_len, path, sizeof path, &rel)) {
		snprintf(out->object, sizeof out->object, "%.*s", (int)inner_len, inner);
		return;
	}
	snprintf(out->object, sizeof out->object, "%.*s", (int)sizeof out->object - 1, base_name(path));
	look_up(path, rel, out);
}

void symbolize_frame(const char *frame, struct frame_info *out)
{
	char name[sizeof out->function];
	read_frame(frame, out);
	if (out->function[0] && demangle(out->function, name, sizeof name))
		memcpy(out->function, name, sizeof name);
}

const char *frame_readable(const char *frame, char *buf, size_t size)
{
	struct frame_info f;
	symbolize_frame(frame, &f);
	if (!f.function[0])
		snprintf(buf, size, "%s", frame);
	else if (f.file[0])
		snprintf(buf, size, "%s (%s:%d, %s)", f.function, f.file, f.line, f.object);
	else if (f.has_offset)
		snprintf(buf, size, "%s+0x%lx (%s)", f.function, f.offset, f.object);
	else
		snprintf(buf, size, "%s (%s)", f.function, f.object);
	return buf;
}
