/* tune --impl's setting: what a program would run with, from the same
 * code the library chooses with (config_setting_bands, the thresholds it
 * read). */
#include "tools/tune/tune.h"

#include "dispatch/settings.h"
#include "dispatch/byte_count.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MEMSHIM_IMPL's value for every function, or one function's. */
static bool set_bands(struct tune_setting *s, int only, const char *value, char *why, size_t size)
{
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (only >= 0 && fn != only)
			continue;
		const char *problem = config_setting_bands(value, (enum base_function)fn, &s->bands[fn]);
		if (problem) {
			snprintf(why, size, "\"%s\" %s", value, problem);
			return false;
		}
		band_list_format(&s->bands[fn], s->text[fn]);
	}
	return true;
}

/* Threshold t's value from a NAME=VALUE word. */
static bool set_threshold(struct tune_setting *s, enum threshold_name t, const char *name, const char *value, char *why,
			  size_t size)
{
	unsigned long long n;
	const char *problem = parse_byte_count(value, SIZE_MAX, &n);
	if (problem)
		snprintf(why, size, "%s=%s: the value %s", name, value, problem);
	else
		*threshold_member(&s->t, t) = (size_t)n;
	return !problem;
}

/* One NAME=VALUE word of an environment line: a variant setting, or a
 * threshold the model chooses (the first its variable sets). */
static bool set_word(struct tune_setting *s, const char *name, const char *value, char *why, size_t size)
{
	enum setting_id named = setting_of_variable(name);
	if (named == S_IMPL)
		return set_bands(s, -1, value, why, size);
	if (named < S_THRESHOLD)
		return set_bands(s, named - S_MEMCPY, value, why, size);
	if (named < threshold_setting(T_COUNT))
		return set_threshold(s, (enum threshold_name)(named - S_THRESHOLD), name, value, why, size);
	snprintf(why, size, "%s is not %s, %s, %s, %s or a threshold variable", name, setting_keys(S_IMPL)->variable,
		 setting_keys(S_MEMCPY)->variable, setting_keys(S_MEMMOVE)->variable, setting_keys(S_MEMSET)->variable);
	return false;
}

bool tune_setting_parse(const char *value, struct tune_setting *out, char *why, size_t size)
{
	const struct config *c = config_get();
	for (int fn = 0; fn < FN_COUNT; fn++) {
		out->bands[fn] = c->choice[fn].bands;
		band_list_format(&out->bands[fn], out->text[fn]);
	}
	out->t = c->thresholds;
	if (!strchr(value, '='))
		return set_bands(out, -1, value, why, size);
	char *copy = strdup(value), *save = NULL;
	bool ok = copy != NULL;
	for (char *word = copy ? strtok_r(copy, " ", &save) : NULL; ok && word; word = strtok_r(NULL, " ", &save)) {
		char *equals = strchr(word, '=');
		if (!equals) {
			snprintf(why, size, "\"%s\" is not NAME=VALUE (an environment line has only those)", word);
			ok = false;
			break;
		}
		*equals = '\0';
		ok = set_word(out, word, equals + 1, why, size);
	}
	if (!copy)
		snprintf(why, size, "out of memory");
	free(copy);
	return ok;
}

void tune_setting_thresholds(const struct tune_setting *s, double t[T_COUNT])
{
	struct thresholds copy = s->t;
	for (int i = 0; i < T_COUNT; i++)
		t[i] = (double)*threshold_member(&copy, (enum threshold_name)i);
}

bool tune_setting_of(const char *const text[FN_COUNT], const double t[T_COUNT], struct tune_setting *out)
{
	out->t = config_get()->thresholds; /* what the model does not choose: set_stosb_beyond_nt */
	for (int i = 0; i < T_COUNT; i++)
		*threshold_member(&out->t, (enum threshold_name)i) = t[i] >= (double)SIZE_MAX ? SIZE_MAX : (size_t)t[i];
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (band_list_parse(text[fn], &out->bands[fn]))
			return false;
		band_list_format(&out->bands[fn], out->text[fn]);
	}
	return true;
}
