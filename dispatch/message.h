/* One-line messages on standard error that work before the C library is up.
 *
 * The resolvers report bad environment values while the dynamic linker is
 * still relocating the program, where stdio must not be used; these write
 * with the raw system call and format nothing but strings and numbers. */
#ifndef MEMSHIM_MESSAGE_H
#define MEMSHIM_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>

/* A line being built in a fixed buffer; text past the end is cut with "...". */
struct line {
	char text[512];
	size_t len;
	int cut; /* something did not fit */
};

/* Starts an empty line (no initializer: that could compile to a memset call). */
void line_start(struct line *l);

void line_add(struct line *l, const char *s);
void line_add_char(struct line *l, char c);
/* Adds at most max_chars of s, and "..." when s is longer: for values a user typed. */
void line_add_quoted(struct line *l, const char *s, size_t max_chars);
void line_add_number(struct line *l, unsigned long long n);
void line_add_hex(struct line *l, unsigned long long n);
/* Adds n bytes as "300 B", "64 KiB", "4 MiB" or "1 GiB": the largest unit that divides it. */
void line_add_bytes(struct line *l, unsigned long long n);
/* Writes n in decimal into out (no terminating NUL); returns the length. */
size_t format_decimal(unsigned long long n, char out[20]);

/* Writes "memshim: " + the line + "\n" to standard error in one write. */
void line_emit(struct line *l);

/* The line for a bad value of a variable: "MEMSHIM_X="value" <problem>;
 * using <fallback>" (fallback_text, else the number). */
void warn_bad_value(const char *name, const char *value, const char *problem, const char *fallback_text,
                    unsigned long long fallback_number);

/* The line for a variable set under its old name: "OLD is read as NEW,
 * its new name", or, where NEW is set too, that OLD is ignored.  Once per
 * run, as warn_bad_value. */
void warn_old_name(const char *old_name, const char *name, bool name_set);

/* One line (once per run): variant `name` was retired, `nearest` is used. */
void warn_retired(const char *name, const char *nearest);

/* The variables this process reported a bad value of, space-separated
 * ("" if none).  memshim record and run pass them to the program in
 * MEMSHIM_WARNED, whose names warn_bad_value then leaves unsaid: one line
 * per run of a program, not one per process. */
const char *warned_variables(void);

#endif
