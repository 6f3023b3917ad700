/* The thresholds' table (names, variables, calibration-file and row keys),
 * and the one order a threshold's value is resolved in: its variable, else
 * the calibration file's value, else the CPU row's, else the built-in one
 * (dispatch/config.h). */
#include "dispatch/read_thresholds.h"

#include "dispatch/byte_count.h"
#include "dispatch/message.h"

#include "dispatch/cpu_rows.h"
#include "dispatch/renamed.h"

#include <stddef.h>

/* Thresholds beyond 1 TiB mean "never": refuse them as probable typos. */
#define THRESHOLD_MAX (1ull << 40)

/* THE THRESHOLDS' TABLE.  Each threshold: its variable, its member of
 * struct thresholds, its name in descriptions, its key in the calibration
 * file and in a CPU row's thresholds line (NULL: neither gives it; the row
 * key is also its member of struct cpu_row), and (for the warning about 0)
 * what a call from that size on gets, NULL where 0 is a value meant.  One
 * pair of variables serves every variant that uses rep movsb and rep
 * stosb: erms's thresholds and the *_erms variants' read the same two
 * (their built-in values differ: dispatch/auto_policy.c). */
#define NO_ROW_KEY ((size_t)-1)
static const struct {
	const char *variable, *name;
	size_t member;
	const char *file_key, *row_key;
	size_t row_member;
	const char *zero;
} threshold_table[T_ALL] = {
	[T_ERMS] = { "MEMSHIM_MOVSB_THRESHOLD", "erms", offsetof(struct thresholds, erms), NULL, NULL, NO_ROW_KEY,
	             "is 0: copies of every size, the smallest too, take rep movsb" },
	[T_STOSB] = { "MEMSHIM_STOSB_THRESHOLD", "stosb", offsetof(struct thresholds, stosb), NULL, NULL, NO_ROW_KEY,
	              "is 0: sets of every size, the smallest too, take rep stosb" },
	[T_AUTO_MOVSB] = { "MEMSHIM_MOVSB_THRESHOLD", "auto_movsb", offsetof(struct thresholds, auto_movsb),
	                   "auto_movsb", "auto_movsb", offsetof(struct cpu_row, auto_movsb),
	                   "is 0: copies of every size, the smallest too, take rep movsb" },
	[T_AUTO_STOSB] = { "MEMSHIM_STOSB_THRESHOLD", "auto_stosb", offsetof(struct thresholds, auto_stosb),
	                   "auto_stosb", "auto_stosb", offsetof(struct cpu_row, auto_stosb),
	                   "is 0: sets of every size, the smallest too, take rep stosb" },
	[T_NT] = { "MEMSHIM_NT_THRESHOLD", "nt", offsetof(struct thresholds, nt), "nt", NULL, NO_ROW_KEY,
	           "is 0: the vector variants store every size past 8 vectors non-temporally, past the caches" },
	/* 0 is no slip here: it is the built-in "no stop" */
	[T_AUTO_MOVSB_STOP] = { "MEMSHIM_MOVSB_STOP_THRESHOLD", "auto_movsb_stop",
	                        offsetof(struct thresholds, auto_movsb_stop), NULL, "auto_movsb_stop",
	                        offsetof(struct cpu_row, auto_movsb_stop), NULL },
};

const char *threshold_file_key(enum threshold_name t)
{
	return threshold_table[t].file_key;
}

const char *config_threshold_variable(enum threshold_name t)
{
	return threshold_table[t].variable;
}

const char *threshold_short_name(enum threshold_name t)
{
	return threshold_table[t].name;
}

size_t *threshold_member(struct thresholds *th, enum threshold_name t)
{
	return (size_t *)((char *)th + threshold_table[t].member);
}

size_t threshold_value(const struct thresholds *th, enum threshold_name t)
{
	return *threshold_member((struct thresholds *)th, t);
}

/* Threshold t's variable: false where it is not set, or set badly (said). */
static bool read_threshold(enum threshold_name t, size_t fallback, size_t *out)
{
	const char *name = threshold_table[t].variable, *value = renamed_getenv(name);
	unsigned long long n;
	if (!value)
		return false;
	const char *problem = parse_byte_count(value, THRESHOLD_MAX, &n);
	if (problem) {
		warn_bad_value(name, value, problem, NULL, fallback);
		return false;
	}
	*out = n;
	/* taken as asked, but said: more likely a slip than a wish */
	if (n == 0 && threshold_table[t].zero)
		warn_bad_value(name, value, threshold_table[t].zero, NULL, n);
	else if (t == T_NT && n < NT_THRESHOLD_LEAST)
		warn_bad_value(name, value,
		               "is below 16448 B, glibc's least: copies that small would bypass the caches", NULL, n);
	return true;
}

/* Row r's value of t; 0 where it gives none. */
static size_t row_value(const struct cpu_row *r, enum threshold_name t)
{
	size_t at = threshold_table[t].row_member;
	return r && at != NO_ROW_KEY ? *(const size_t *)((const char *)r + at) : 0;
}

size_t threshold_resolve(enum threshold_name t, const struct threshold_sources *from, enum threshold_origin *origin)
{
	size_t fallback = threshold_value(from->builtin, t), value;
	if (from->file && threshold_table[t].file_key)
		*origin = FROM_FILE, fallback = threshold_value(from->file, t);
	else if (row_value(from->row, t))
		*origin = FROM_ROW, fallback = row_value(from->row, t);
	else
		*origin = FROM_BUILTIN;
	if (!read_threshold(t, fallback, &value))
		return fallback;
	*origin = FROM_ENVIRONMENT;
	return value;
}
