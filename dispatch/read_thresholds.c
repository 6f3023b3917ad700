/* Resolving each threshold: its variable, else the calibration file's
 * value, else the CPU row's, else the built-in one, in the settings' order
 * (dispatch/settings.h). */
#include "dispatch/read_thresholds.h"

#include "dispatch/byte_count.h"
#include "dispatch/message.h"

#include "dispatch/cpu_rows.h"
#include "dispatch/renamed.h"

#include <stddef.h>

/* Thresholds beyond 1 TiB mean "never": refuse them as probable typos. */
#define THRESHOLD_MAX (1ull << 40)

/* Each threshold's member of struct thresholds, its member of struct
 * cpu_row (NO_ROW_KEY where its settings' entry has no row key), and (for
 * the warning about 0) what a call from that size on gets, NULL where 0 is
 * a value meant. */
#define NO_ROW_KEY ((size_t)-1)
static const struct {
	size_t member, row_member;
	const char *zero;
} threshold_table[T_ALL] = {
	[T_ERMS] = { offsetof(struct thresholds, erms), NO_ROW_KEY,
	             "is 0: copies of every size, the smallest too, take rep movsb" },
	[T_STOSB] = { offsetof(struct thresholds, stosb), NO_ROW_KEY,
	              "is 0: sets of every size, the smallest too, take rep stosb" },
	[T_AUTO_MOVSB] = { offsetof(struct thresholds, auto_movsb), offsetof(struct cpu_row, auto_movsb),
	                   "is 0: copies of every size, the smallest too, take rep movsb" },
	[T_AUTO_STOSB] = { offsetof(struct thresholds, auto_stosb), offsetof(struct cpu_row, auto_stosb),
	                   "is 0: sets of every size, the smallest too, take rep stosb" },
	[T_NT] = { offsetof(struct thresholds, nt), NO_ROW_KEY,
	           "is 0: the vector variants store every size past 8 vectors non-temporally, past the caches" },
	/* 0 is no slip here: it is the built-in "no stop" */
	[T_AUTO_MOVSB_STOP] = { offsetof(struct thresholds, auto_movsb_stop), offsetof(struct cpu_row, auto_movsb_stop),
	                        NULL },
};

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
	const char *name = setting_keys(threshold_setting(t))->variable, *value = renamed_getenv(name);
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

size_t threshold_resolve(enum threshold_name t, const struct threshold_sources *from, enum setting_origin *origin)
{
	size_t fallback = threshold_value(from->builtin, t), value;
	*origin = setting_fallback(from->file && setting_keys(threshold_setting(t))->file_key, row_value(from->row, t));
	if (*origin == FROM_FILE)
		fallback = threshold_value(from->file, t);
	else if (*origin == FROM_ROW)
		fallback = row_value(from->row, t);
	if (!read_threshold(t, fallback, &value))
		return fallback;
	*origin = FROM_ENVIRONMENT;
	return value;
}
