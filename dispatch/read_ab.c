/* The in-process A/B's settings: MEMSHIM_AB=A/B and MEMSHIM_AB_BLOCK
 * (dispatch/config_internal.h).  A and B are what MEMSHIM_IMPL takes (a
 * variant, bands or a preset); '/' parts them because bands use ',' and ':'. */
#include "dispatch/config_internal.h"

#include "dispatch/early_env.h"

/* Setting `text` (up to `end`) into arm's text and bands; NULL, or the problem. */
static const char *read_arm(struct config *c, const struct cpu_features *f, unsigned arm, const char *text,
                            const char *end)
{
	size_t len = (size_t)(end - text);
	if (len == 0)
		return "has an empty setting (give A/B, each what MEMSHIM_IMPL takes)";
	if (len >= BAND_TEXT_MAX)
		return "has too long a setting";
	for (size_t i = 0; i < len; i++)
		c->ab_setting[arm][i] = text[i];
	c->ab_setting[arm][len] = '\0';
	for (int fn = 0; fn < FN_COUNT; fn++) {
		const char *problem = choose_setting(f, &c->calibrated, c->ab_setting[arm], fn, &c->ab_bands[arm][fn]);
		if (problem)
			return problem;
	}
	return NULL;
}

/* The problem with value as A/B, or NULL with both arms read. */
static const char *read_arms(struct config *c, const struct cpu_features *f, const char *value)
{
	const char *slash = value;
	while (*slash && *slash != '/')
		slash++;
	if (!*slash)
		return "has no '/' (give A/B, each what MEMSHIM_IMPL takes)";
	const char *end = slash + 1;
	while (*end)
		end++;
	const char *problem = read_arm(c, f, 0, value, slash);
	problem = problem ? problem : read_arm(c, f, 1, slash + 1, end);
	for (int fn = 0; !problem && fn < FN_COUNT; fn++)
		if (c->ab_bands[0][fn].count > 1 && c->ab_bands[1][fn].count > 1)
			problem = "gives both settings size bands for one function (one of them may have bands)";
	return problem;
}

void read_ab(struct config *c, const struct cpu_features *f)
{
	const char *value = early_getenv("MEMSHIM_AB");
	if (!value)
		return;
	const char *problem = !c->hist_path[0] ? "needs recording (MEMSHIM_DUMP), where its pairs are written"
	                                       : read_arms(c, f, value);
	if (problem) {
		warn_bad_value("MEMSHIM_AB", value, problem, "no A/B", 0);
		return;
	}
	c->ab = true;
	c->ab_block = AB_DEFAULT_BLOCK;
	const char *block = early_getenv("MEMSHIM_AB_BLOCK");
	unsigned long long n;
	if (block && (problem = parse_count(block, 16, AB_MAX_BLOCK, &n)))
		warn_bad_value("MEMSHIM_AB_BLOCK", block, problem, NULL, AB_DEFAULT_BLOCK);
	else if (block)
		c->ab_block = (unsigned)n;
	/* every call is timed already; the windows count down, and the profile
	 * marks calls, in wrappers the A/B does not use */
	c->timing_every = 0;
	c->sequence_length = 0;
	c->profile_hz = 0;
}
