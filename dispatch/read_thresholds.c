/* Resolving each threshold: its variable, else the calibration file's
 * value, else the CPU row's, else the built-in one, in the settings' order
 * (dispatch/settings.h). */
#include "dispatch/read_thresholds.h"

#include "dispatch/byte_count.h"
#include "dispatch/message.h"

#include "dispatch/cpu_rows.h"
#include "dispatch/renamed.h"

/* Thresholds beyond 1 TiB mean "never": refuse them as probable typos. */
#define THRESHOLD_MAX (1ull << 40)

size_t *threshold_member(struct thresholds *th, enum threshold_name t)
{
	return (size_t *)((char *)th + threshold_keys(t)->member);
}

size_t threshold_value(const struct thresholds *th, enum threshold_name t)
{
	return *threshold_member((struct thresholds *)th, t);
}

/* Threshold t's variable: false where it is not set, or set badly (said). */
static bool read_threshold(enum threshold_name t, size_t fallback, size_t *out)
{
	const struct setting_keys *k = threshold_keys(t);
	const char *name = k->variable, *value = renamed_getenv(name);
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
	if (n == 0 && k->zero)
		warn_bad_value(name, value, k->zero, NULL, n);
	else if (n < k->least)
		warn_bad_value(name, value, k->below_least, NULL, n);
	return true;
}

/* Row r's value of t; 0 where it gives none. */
static size_t row_value(const struct cpu_row *r, enum threshold_name t)
{
	size_t at = threshold_keys(t)->row_member;
	return r && at ? *(const size_t *)((const char *)r + at) : 0;
}

size_t threshold_resolve(enum threshold_name t, const struct threshold_sources *from, enum setting_origin *origin)
{
	size_t fallback = threshold_value(from->builtin, t), value;
	*origin = setting_fallback(from->file && threshold_keys(t)->file_key, row_value(from->row, t));
	if (*origin == FROM_FILE)
		fallback = threshold_value(from->file, t);
	else if (*origin == FROM_ROW)
		fallback = row_value(from->row, t);
	if (!read_threshold(t, fallback, &value))
		return fallback;
	*origin = FROM_ENVIRONMENT;
	return value;
}
