/* Reading the calibration file's head without the C library: raw system
 * calls, a fixed buffer on the stack, parsing by hand (see calibration.h). */
#include "dispatch/calibration.h"

#include "dispatch/settings.h"
#include "dispatch/byte_count.h"
#include "dispatch/read_thresholds.h"
#include "dispatch/cpu_features.h"
#include "dispatch/early_env.h"
#include "dispatch/renamed.h"
#include "dispatch/message.h"
#include "dispatch/raw_syscall.h"

#include <fcntl.h>
#include <sys/syscall.h>

/* Appends s to path[*len..size); false if it does not fit. */
static bool append(char *path, size_t size, size_t *len, const char *s)
{
	for (; *s; s++) {
		if (*len + 1 >= size)
			return false;
		path[(*len)++] = *s;
	}
	path[*len] = '\0';
	return true;
}

bool calibration_path(char *path, size_t size, bool *named)
{
	const char *config = renamed_getenv("MEMSHIM_CALIBRATION");
	const char *xdg = early_getenv("XDG_CACHE_HOME");
	const char *home = early_getenv("HOME");
	size_t len = 0;
	path[0] = '\0';
	*named = config != NULL;
	if (config)
		return *config && append(path, size, &len, config);
	if (xdg && *xdg)
		return append(path, size, &len, xdg) && append(path, size, &len, "/memshim/calibration");
	return home && *home && append(path, size, &len, home) &&
	       append(path, size, &len, "/.cache/memshim/calibration");
}

/* Reads up to size - 1 bytes of the file into buf, NUL-terminated: the
 * count, or -1 if it cannot be opened. */
static long read_head(const char *path, char *buf, size_t size)
{
	long fd = raw_syscall3(SYS_open, (long)path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	long total = 0, got;
	while ((size_t)total + 1 < size &&
	       (got = raw_syscall3(SYS_read, fd, (long)(buf + total), (long)(size - 1 - (size_t)total))) > 0)
		total += got;
	raw_syscall3(SYS_close, fd, 0, 0);
	buf[total] = '\0';
	return total;
}

/* Cuts the next line off *text (NUL in place of its newline); NULL if no
 * complete line is left. */
static char *next_line(char **text)
{
	char *line = *text, *p = line;
	while (*p && *p != '\n')
		p++;
	if (*p != '\n')
		return NULL;
	*p = '\0';
	*text = p + 1;
	return line;
}

/* If line starts with `word` and a space, the rest; else NULL. */
static const char *after_word(const char *line, const char *word)
{
	for (; *word; word++, line++)
		if (*line != *word)
			return NULL;
	return *line == ' ' ? line + 1 : NULL;
}

/* Parses "D+ D+" (family, model) at p; false otherwise. */
static bool parse_two(const char *p, unsigned long long *a, unsigned long long *b)
{
	char first[24];
	unsigned i = 0;
	while (*p && *p != ' ' && i + 1 < sizeof first)
		first[i++] = *p++;
	first[i] = '\0';
	return *p == ' ' && !parse_byte_count(first, 1u << 16, a) && !parse_byte_count(p + 1, 1u << 16, b);
}

/* "cpu VENDOR FAMILY MODEL": NULL with them in h, else the problem. */
static const char *parse_cpu(char *line, struct calibration_head *h)
{
	char *vendor = line ? (char *)after_word(line, "cpu") : NULL, *end = vendor;
	while (end && *end && *end != ' ')
		end++;
	unsigned long long family, model;
	if (!vendor || end == vendor || *end != ' ' || !parse_two(end + 1, &family, &model))
		return "line 2: expected cpu VENDOR FAMILY MODEL";
	*end = '\0';
	h->vendor = vendor;
	h->family = (unsigned)family;
	h->model = (unsigned)model;
	return NULL;
}

/* NULL if the head was measured on this CPU, else the problem. */
static const char *check_cpu(const struct calibration_head *h)
{
	const struct cpu_features *f = cpu_features();
	if (!same_string(h->vendor, f->vendor))
		return "was measured on another CPU vendor";
	return h->family == f->family && h->model == f->model ? NULL : "was measured on another CPU model";
}

/* The thresholds of lines 3-5, whose keys the settings' table gives. */
static const enum threshold_name in_file[3] = { T_MOVSB, T_STOSB, T_NT };

/* "choice FN BANDS WHY": NULL with the bands and the reason, else the problem. */
static const char *parse_choice(char *line, enum base_function fn, struct calibration_head *h)
{
	static const char *const expected[FN_COUNT] = { "line 6: expected choice memcpy BANDS WHY",
		                                            "line 7: expected choice memmove BANDS WHY",
		                                            "line 8: expected choice memset BANDS WHY" };
	const char *rest = line ? after_word(line, "choice") : NULL;
	char *name = rest ? (char *)after_word(rest, setting_keys(function_setting(fn))->file_key) : NULL;
	if (!name)
		return expected[fn];
	char *end = name;
	while (*end && *end != ' ')
		end++;
	if (*end != ' ' || end[1] == '\0')
		return expected[fn];
	*end = '\0';
	if (band_list_parse(name, &h->bands[fn]))
		return band_list_parse_on(name, cpu_features_detected(), &h->bands[fn])
			? "names bands this memshim or CPU cannot run (run memshim tune --calibrate again)"
			: "names bands of a variant that MEMSHIM_HWCAPS hides";
	h->choice[fn] = name;
	h->why[fn] = end + 1;
	return NULL;
}

/* The next line of *text, counted in h->lines. */
static char *take_line(char **text, struct calibration_head *h)
{
	char *line = next_line(text);
	h->lines += line != NULL;
	return line;
}

const char *calibration_parse_head(char *text, struct calibration_head *h)
{
	h->lines = 0;
	char *line = take_line(&text, h);
	if (!line || !(same_string(line, CALIBRATION_FORMAT) || same_string(line, CALIBRATION_FORMAT_2) ||
	               same_string(line, CALIBRATION_FORMAT_1)))
		return "line 1: not a memshim calibration file of this version (" CALIBRATION_FORMAT ")";
	h->has_choices = !same_string(line, CALIBRATION_FORMAT_1);
	const char *problem = parse_cpu(take_line(&text, h), h);
	if (problem)
		return problem;
	for (unsigned i = 0; i < 3; i++) {
		unsigned long long n;
		const struct setting_keys *k = threshold_keys(in_file[i]);
		const char *value = (line = take_line(&text, h)) ? after_word(line, k->file_key) : NULL;
		if (line && !value && k->old_file_key) /* a file written before the key's rename */
			value = after_word(line, k->old_file_key);
		if (!value || parse_byte_count(value, 1ull << 40, &n))
			return i == 0 ? "line 3: expected movsb BYTES"
			       : i == 1 ? "line 4: expected stosb BYTES" : "line 5: expected nt BYTES";
		h->values[i] = (size_t)n;
	}
	/* Unlike the variable, which is taken with a warning, a file is not
	 * trusted below the least its writer ever chooses. */
	if (h->values[2] < NT_THRESHOLD_LEAST)
		return "line 5: nt is below 16448 B, glibc's least and the calibration's (copies that small "
		       "would bypass the caches)";
	for (int fn = 0; h->has_choices && fn < FN_COUNT; fn++)
		if ((problem = parse_choice(take_line(&text, h), (enum base_function)fn, h)))
			return problem;
	h->rest = text;
	return NULL;
}

/* "calibration file PATH: WHY" into out; a WHY longer than a choice line's
 * (a file edited by hand) is cut after a whole word, with "...". */
static void describe_choice(const char *path, const char *why, char out[CALIBRATION_DESCRIBED_MAX])
{
	struct line l;
	line_start(&l);
	line_add(&l, "calibration file ");
	line_add_quoted(&l, path, 100);
	line_add(&l, ": ");
	line_add(&l, why);
	size_t n = l.len;
	if (n + 1 > CALIBRATION_DESCRIBED_MAX || l.cut) {
		n = CALIBRATION_DESCRIBED_MAX - 4;
		while (n > 0 && l.text[n] != ' ')
			n--;
		for (const char *dots = "..."; *dots; dots++)
			l.text[n++] = *dots;
	}
	for (size_t i = 0; i < n; i++)
		out[i] = l.text[i];
	out[n] = '\0';
}

static void warn(const char *path, const char *problem)
{
	struct line l;
	line_start(&l);
	line_add(&l, "calibration file ");
	line_add_quoted(&l, path, 200);
	line_add(&l, " ");
	line_add(&l, problem);
	line_add(&l, "; using the built-in thresholds");
	line_emit(&l);
}

bool calibration_apply(const char *path, bool named, struct thresholds *t, struct calibration_choices *choices)
{
	char text[CALIBRATION_HEAD];
	struct calibration_head h;
	h.has_choices = false;
	if (read_head(path, text, sizeof text) < 0) {
		if (named)
			warn(path, "cannot be opened");
		return false;
	}
	const char *problem = calibration_parse_head(text, &h);
	if (!problem)
		problem = check_cpu(&h);
	if (problem) {
		warn(path, problem);
		return false;
	}
	t->movsb = h.values[0];
	t->stosb = h.values[1];
	t->nt = h.values[2];
	for (int fn = 0; fn < FN_COUNT; fn++) {
		choices->bands[fn].count = 0;
		if (h.has_choices) {
			choices->bands[fn] = h.bands[fn];
			describe_choice(path, h.why[fn], choices->why[fn]);
		}
	}
	return true;
}
