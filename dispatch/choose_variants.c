/* Choosing each function's variant: the variables that name one, bands or
 * a preset (the settings' table's S_IMPL, then each function's), else the
 * default (dispatch/config_internal.h). */
#include "dispatch/config_internal.h"

#include "dispatch/settings.h"
#include "dispatch/early_env.h"
#include "dispatch/presets.h"

/* What a variable names: bands (a variant usable here is one band), or a preset. */
struct selection {
	const char *variable;
	struct band_list bands;
	const struct preset *preset;
};

/* What a preset picks from. */
struct preset_inputs {
	const struct cpu_features *cpu;
	const struct calibration_choices *file;
};

/* "is not a variant, band list or preset (see `memshim info`)", with the
 * name that value misspells, if any ("did you mean avx2?"). */
static const char *not_a_name(const char *value, struct line *l)
{
	const char *meant = config_name_meant(value);
	line_start(l);
	line_add(l, "is not a variant, band list or preset (");
	if (meant) {
		line_add(l, "did you mean ");
		line_add(l, meant);
		line_add(l, "? ");
	}
	line_add(l, "see `memshim info`)");
	l->text[l->len < sizeof l->text ? l->len : sizeof l->text - 1] = '\0';
	return l->text;
}

/* The problem with a value that is neither a preset nor usable bands (its
 * words in l where they are built). */
static const char *selection_problem(const char *value, struct band_list *bands, struct line *l)
{
	if (band_text_is_list(value))
		return band_list_parse(value, bands);
	const struct variant *v = variant_setting_named(value);
	if (!v)
		return not_a_name(value, l);
	if (!variant_usable(v))
		return "is not supported by this CPU or C library";
	*bands = band_list_single(v);
	return NULL;
}

/* Reads variable `name`; false (and a bad value reported, `fallback` named
 * as what is used instead) unless it names usable bands or a preset. */
static bool read_selection(const char *name, const char *fallback, struct selection *s)
{
	const char *value = early_getenv(name);
	if (!value)
		return false;
	const struct preset *p = preset_named(value);
	if (p && !same_string(p->name, value)) /* an old name (auto): one line naming the new */
		warn_bad_value(name, value, "is an old name", p->name, 0);
	struct line words;
	const char *problem = p ? NULL : selection_problem(value, &s->bands, &words);
	if (problem) {
		warn_bad_value(name, value, problem, fallback, 0);
		return false;
	}
	s->variable = name;
	s->preset = p;
	return true;
}

/* c from s; where its bands came from: the preset's source, or the
 * environment where s named bands. */
static enum setting_origin choose(const struct selection *s, const struct preset_inputs *in, enum base_function fn,
                                  struct function_choice *c)
{
	enum setting_origin from = FROM_ENVIRONMENT;
	c->bands = s->bands;
	c->why = s->variable;
	c->variable = c->preset = NULL;
	if (s->preset) {
		from = s->preset->pick(in->cpu, in->file, fn, &c->bands, &c->why);
		c->variable = s->variable;
		c->preset = s->preset->name;
	}
	band_list_format(&c->bands, c->text);
	return from;
}

/* "the default (memcpy evex, memmove evex, memset glibc)", for the
 * message about a bad MEMSHIM_IMPL. */
static const char *describe_default(const struct preset_inputs *in, struct line *l)
{
	struct selection by_default = { .preset = preset_default() };
	struct function_choice c;
	line_start(l);
	line_add(l, "the default (");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		choose(&by_default, in, (enum base_function)fn, &c);
		line_add(l, fn ? ", " : "");
		line_add(l, base_function_names[fn]);
		line_add(l, " ");
		line_add(l, c.text);
	}
	line_add(l, ")");
	l->text[l->len < sizeof l->text ? l->len : sizeof l->text - 1] = '\0';
	return l->text;
}

/* THE ORDER OF A VARIANT SETTING: fn's own variable, else MEMSHIM_IMPL
 * (`all`, read once for every function), else the default's
 * source (calibration file, CPU row, built-in: setting_fallback).  Fills
 * in c and returns where it came from, as threshold_resolve does. */
static enum setting_origin variant_resolve(const struct preset_inputs *in, const struct selection *all,
                                           enum base_function fn, struct function_choice *c)
{
	struct selection one;
	enum setting_id own = function_setting(fn);
	c->origin = choose(all, in, fn, c);
	c->setting = all->variable ? S_IMPL : own;
	bool named = read_selection(setting_keys(own)->variable, c->text, &one);
	if (named) {
		choose(&one, in, fn, c);
		c->setting = own;
	}
	if (!all->variable && c->preset == preset_default()->name)
		c->preset = NULL; /* the default, not a variable, decided */
	if (named || all->variable)
		c->origin = FROM_ENVIRONMENT;
	return c->origin;
}

void choose_variants(const struct cpu_features *f, const struct calibration_choices *file,
                     struct function_choice choice[FN_COUNT])
{
	const struct preset_inputs in = { f, file };
	struct selection all = { .preset = preset_default() };
	struct line default_text;
	read_selection(setting_keys(S_IMPL)->variable, describe_default(&in, &default_text), &all);
	for (int fn = 0; fn < FN_COUNT; fn++)
		variant_resolve(&in, &all, (enum base_function)fn, &choice[fn]);
}

/* The value of the word "NAME=VALUE" of a line of such words (as tune
 * prints a setting) into out; false where the line has none, or it does
 * not fit.  Written without the C library: a resolver may call it. */
static bool word_value(const char *line, const char *name, char *out, size_t size)
{
	for (const char *w = line; *w;) {
		const char *n = name, *p = w;
		for (; *n && *p == *n; n++, p++)
			;
		bool named = !*n && *p == '=';
		size_t len = 0;
		for (p += named; named && p[len] && p[len] != ' '; len++)
			;
		if (named && len < size) {
			for (size_t i = 0; i < len; i++)
				out[i] = p[i];
			out[len] = '\0';
			return len > 0;
		}
		while (*w && *w != ' ')
			w++;
		while (*w == ' ')
			w++;
	}
	return false;
}

/* fn's part of value: in a line of variables as tune prints a setting
 * ("MEMSHIM_MEMCPY=avx2 MEMSHIM_MEMMOVE=evex ..."), its function's word,
 * else MEMSHIM_IMPL's, else the default (the thresholds' words are
 * the process's, not the setting's); any other value whole. */
static const char *function_part(const char *value, enum base_function fn, char *out, size_t size)
{
	const char *prefix = "MEMSHIM_";
	bool line = true;
	for (unsigned i = 0; prefix[i]; i++)
		line = line && value[i] == prefix[i];
	if (!line)
		return value;
	if (word_value(value, setting_keys(function_setting(fn))->variable, out, size) ||
	    word_value(value, setting_keys(S_IMPL)->variable, out, size))
		return out;
	return "default";
}

const char *choose_setting(const struct cpu_features *f, const struct calibration_choices *file, const char *whole,
                           enum base_function fn, struct band_list *out)
{
	static struct line words; /* the problem's text lives here */
	char part[BAND_TEXT_MAX];
	const char *value = function_part(whole, fn, part, sizeof part);
	const struct preset_inputs in = { f, file };
	struct selection s = { .preset = preset_named(value) };
	const char *problem = s.preset ? NULL : selection_problem(value, &s.bands, &words);
	struct function_choice c;
	if (problem)
		return problem;
	choose(&s, &in, fn, &c);
	*out = c.bands;
	return NULL;
}
