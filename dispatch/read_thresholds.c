/* The size thresholds' variables (MEMSHIM_MOVSB_THRESHOLD, ...), over the
 * built-in values (dispatch/auto_policy.c) and the calibration file's
 * (dispatch/config_internal.h). */
#include "dispatch/config_internal.h"

#include "dispatch/renamed.h"

#include <stddef.h>

/* Thresholds beyond 1 TiB mean "never": refuse them as probable typos. */
#define THRESHOLD_MAX (1ull << 40)

/* Each threshold: its variable, its member of struct thresholds, its name
 * in descriptions, and (for the warning about 0) what a call from that
 * size on gets, NULL where 0 is a value meant.  One pair of variables
 * serves every variant that uses rep movsb and rep stosb: erms's
 * thresholds and the *_erms variants' read the same two (their built-in
 * values differ: dispatch/auto_policy.c). */
static const struct {
	const char *variable, *name;
	size_t member;
	const char *zero;
} threshold_table[T_ALL] = {
	[T_ERMS] = { "MEMSHIM_MOVSB_THRESHOLD", "erms", offsetof(struct thresholds, erms),
	             "is 0: copies of every size, the smallest too, take rep movsb" },
	[T_STOSB] = { "MEMSHIM_STOSB_THRESHOLD", "stosb", offsetof(struct thresholds, stosb),
	              "is 0: sets of every size, the smallest too, take rep stosb" },
	[T_AUTO_MOVSB] = { "MEMSHIM_MOVSB_THRESHOLD", "auto_movsb", offsetof(struct thresholds, auto_movsb),
	                   "is 0: copies of every size, the smallest too, take rep movsb" },
	[T_AUTO_STOSB] = { "MEMSHIM_STOSB_THRESHOLD", "auto_stosb", offsetof(struct thresholds, auto_stosb),
	                   "is 0: sets of every size, the smallest too, take rep stosb" },
	[T_NT] = { "MEMSHIM_NT_THRESHOLD", "nt", offsetof(struct thresholds, nt), "is 0: the vector variants store "
	           "every size past 8 vectors non-temporally, past the caches" },
	/* 0 is no slip here: it is the built-in "no stop" */
	[T_AUTO_MOVSB_STOP] = { "MEMSHIM_MOVSB_STOP_THRESHOLD", "auto_movsb_stop",
	                        offsetof(struct thresholds, auto_movsb_stop), NULL },
};

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

static void read_threshold(struct thresholds *th, enum threshold_name t, enum threshold_origin *origin)
{
	const char *name = threshold_table[t].variable, *value = renamed_getenv(name);
	unsigned long long n;
	if (!value)
		return;
	const char *problem = parse_byte_count(value, THRESHOLD_MAX, &n);
	if (problem) {
		warn_bad_value(name, value, problem, NULL, *threshold_member(th, t));
		return;
	}
	*threshold_member(th, t) = n;
	*origin = FROM_ENVIRONMENT;
	/* taken as asked, but said: more likely a slip than a wish */
	if (n == 0 && threshold_table[t].zero)
		warn_bad_value(name, value, threshold_table[t].zero, NULL, n);
	else if (t == T_NT && n < NT_THRESHOLD_LEAST)
		warn_bad_value(name, value,
		               "is below 16448 B, glibc's least: copies that small would bypass the caches", NULL, n);
}

void read_thresholds(struct thresholds *th, enum threshold_origin origin[T_ALL])
{
	for (int t = 0; t < T_ALL; t++)
		read_threshold(th, (enum threshold_name)t, &origin[t]);
}
