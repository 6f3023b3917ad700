/* The size thresholds: built-in per CPU (dispatch/auto_policy.c), then the
 * calibration file, then the environment; and their description. */
#include "dispatch/config_internal.h"

#include "dispatch/calibration.h"
#include "dispatch/early_env.h"
#include "shim/thresholds.h"

/* The vector variants' thresholds depend on the CPU: read_config sets them. */
struct thresholds memshim_thresholds = { .erms = ERMS_THRESHOLD_DEFAULT, .stosb = STOSB_THRESHOLD_DEFAULT };

/* Thresholds beyond 1 TiB mean "never": refuse them as probable typos. */
#define THRESHOLD_MAX (1ull << 40)
/* glibc's least non-temporal threshold (0x4040, sysdeps/x86/dl-cacheinfo.h):
 * below it, copies that fit in the caches would bypass them. */
#define NT_THRESHOLD_LEAST 16448

/* Each threshold: its variable, its field, its name in descriptions, and
 * (for the warning about 0) what a call from that size on gets. */
static const struct {
	const char *variable, *name;
	size_t *value;
	const char *zero;
} threshold_table[T_COUNT] = {
	[T_ERMS] = { "MEMSHIM_ERMS_THRESHOLD", "erms", &memshim_thresholds.erms, "is 0: erms copies every size, "
	             "the smallest too, with rep movsb" },
	[T_STOSB] = { "MEMSHIM_STOSB_THRESHOLD", "stosb", &memshim_thresholds.stosb, "is 0: erms sets every size, "
	              "the smallest too, with rep stosb" },
	[T_AUTO_MOVSB] = { "MEMSHIM_AUTO_MOVSB_THRESHOLD", "auto_movsb", &memshim_thresholds.auto_movsb,
	                   "is 0: the *_erms variants copy every size past 8 vectors with rep movsb" },
	[T_AUTO_STOSB] = { "MEMSHIM_AUTO_STOSB_THRESHOLD", "auto_stosb", &memshim_thresholds.auto_stosb,
	                   "is 0: the *_erms variants set every size past 8 vectors with rep stosb" },
	[T_NT] = { "MEMSHIM_NT_THRESHOLD", "nt", &memshim_thresholds.nt, "is 0: the vector variants store every "
	           "size past 8 vectors non-temporally, past the caches" },
};

const char *config_threshold_variable(enum threshold_name t)
{
	return threshold_table[t].variable;
}

static void read_threshold(struct config *c, enum threshold_name t)
{
	const char *name = threshold_table[t].variable, *value = early_getenv(name);
	unsigned long long n;
	if (!value)
		return;
	const char *problem = parse_byte_count(value, THRESHOLD_MAX, &n);
	if (problem) {
		warn_bad_value(name, value, problem, NULL, *threshold_table[t].value);
		return;
	}
	*threshold_table[t].value = n;
	c->origin[t] = FROM_ENVIRONMENT;
	/* taken as asked, but said: more likely a slip than a wish */
	if (n == 0)
		warn_bad_value(name, value, threshold_table[t].zero, NULL, n);
	else if (t == T_NT && n < NT_THRESHOLD_LEAST)
		warn_bad_value(name, value,
		               "is below 16448 B, glibc's least: copies that small would bypass the caches", NULL, n);
}

/* The calibration file's thresholds for the auto policy, over the built-in
 * ones; the environment overrides both.  A file is named by a variable (or
 * found through HOME), so a secure-mode process reads none. */
void config_read_calibration(struct config *c)
{
	bool named;
	char *path = c->calibration_path;
	bool found = calibration_path(path, HIST_PATH_MAX, &named);
	if (found && c->secure && named)
		warn_bad_value("MEMSHIM_CONFIG", path, "is ignored in a secure-mode (set-user-ID) process",
		               "the built-in thresholds", 0);
	else if (!found && named)
		warn_bad_value("MEMSHIM_CONFIG", early_getenv("MEMSHIM_CONFIG"), "is empty or too long a path",
		               "the built-in thresholds", 0);
	if (found && !c->secure && calibration_apply(path, named, &memshim_thresholds, &c->calibrated)) {
		c->origin[T_AUTO_MOVSB] = c->origin[T_AUTO_STOSB] = c->origin[T_NT] = FROM_FILE;
		policy_follow_calibration(&c->calibrated);
		return;
	}
	path[0] = '\0';
}

void config_read_thresholds(struct config *c)
{
	for (int t = 0; t < T_COUNT; t++)
		read_threshold(c, (enum threshold_name)t);
}

void config_describe_thresholds(const struct config *c, struct line *l)
{
	static const char *const origins[] = { "built-in", "calibration file", "environment" };
	line_add(l, "thresholds:");
	for (int t = 0; t < T_COUNT; t++) {
		line_add(l, t ? ", " : " ");
		line_add(l, threshold_table[t].name);
		line_add(l, " ");
		line_add_number(l, *threshold_table[t].value);
		line_add(l, " B [");
		line_add(l, origins[c->origin[t]]);
		line_add(l, "]");
	}
	if (c->calibration_path[0]) {
		line_add(l, "; calibration file ");
		line_add(l, c->calibration_path);
	}
	if (memshim_thresholds.set_stosb_beyond_nt) /* after the path, which tests match as above */
		line_add(l, "; vector memset from nt on: rep stosb (CPU row)");
}
