/* Reading the configuration once per process: which variant each function
 * gets (the variables that name one, else the default policy), and the
 * order the other settings are read in (their files: config_internal.h). */
#include "dispatch/config_internal.h"

#include "dispatch/auto_policy.h"
#include "dispatch/early_env.h"
#include "shim/thresholds.h"

static const char *const function_variables[FN_COUNT] = { "MEMSHIM_MEMCPY", "MEMSHIM_MEMMOVE",
	                                                      "MEMSHIM_MEMSET" };

/* Every variable the library reads; any other MEMSHIM_* name is reported as unknown. */
static const char *const known_variables[] = {
	"MEMSHIM_IMPL",           "MEMSHIM_MEMCPY",          "MEMSHIM_MEMMOVE", "MEMSHIM_MEMSET",
	"MEMSHIM_ERMS_THRESHOLD", "MEMSHIM_STOSB_THRESHOLD", "MEMSHIM_VERBOSE",
	"MEMSHIM_HIST",           "MEMSHIM_HIST_INTERVAL",   "MEMSHIM_HIST_SIGNAL", "MEMSHIM_CALLSITES",
	"MEMSHIM_PROFILE", "MEMSHIM_TIMING", "MEMSHIM_SEQUENCES", "MEMSHIM_PROBLEMS_FD",
	"MEMSHIM_AUTO_MOVSB_THRESHOLD", "MEMSHIM_AUTO_STOSB_THRESHOLD", "MEMSHIM_NT_THRESHOLD",
	"MEMSHIM_CONFIG", "MEMSHIM_BIND", "MEMSHIM_HWCAPS",
	"MEMSHIM_LIBRARY", /* read by the memshim tool */
	"MEMSHIM_DISTRIBUTIONS", /* read by memshim bench */
	"MEMSHIM_CACHE_SIZES", /* read by memshim bench and tune */
	NULL,
};

/* What a variable names: bands (a variant usable here is one band), or a policy. */
struct selection {
	const char *variable;
	struct band_list bands;
	const struct policy *policy;
};

/* "is not a variant, band list or policy (see `memshim info`)", with the
 * name that value spells in another case, if any ("did you mean avx2?"). */
static const char *not_a_name(const char *value, struct line *l)
{
	const char *meant = config_name_in_other_case(value);
	line_start(l);
	line_add(l, "is not a variant, band list or policy (");
	if (meant) {
		line_add(l, "names are lower case: did you mean ");
		line_add(l, meant);
		line_add(l, "? ");
	}
	line_add(l, "see `memshim info`)");
	l->text[l->len < sizeof l->text ? l->len : sizeof l->text - 1] = '\0';
	return l->text;
}

/* The problem with a value that is neither a policy nor usable bands (its
 * words in l where they are built). */
static const char *selection_problem(const char *value, struct band_list *bands, struct line *l)
{
	if (band_text_is_list(value))
		return band_list_parse(value, bands);
	const struct variant *v = variant_named(value);
	if (!v)
		return not_a_name(value, l);
	if (!variant_usable(v))
		return "is not supported by this CPU or C library";
	*bands = band_list_single(v);
	return NULL;
}

/* Reads variable `name`; false (and a bad value reported, `fallback` named
 * as what is used instead) unless it names usable bands or a policy. */
static bool read_selection(const char *name, const char *fallback, struct selection *s)
{
	const char *value = early_getenv(name);
	if (!value)
		return false;
	const struct policy *p = policy_named(value);
	struct line words;
	const char *problem = p ? NULL : selection_problem(value, &s->bands, &words);
	if (problem) {
		warn_bad_value(name, value, problem, fallback, 0);
		return false;
	}
	s->variable = name;
	s->policy = p;
	return true;
}

static void choose(const struct selection *s, enum base_function fn, struct function_choice *c)
{
	c->bands = s->bands;
	c->why = s->variable;
	c->variable = c->policy = NULL;
	if (s->policy) {
		s->policy->pick(cpu_features(), fn, &c->bands, &c->why);
		c->variable = s->variable;
		c->policy = s->policy->name;
	}
	band_list_format(&c->bands, c->text);
}

/* "the default policy (memcpy evex, memmove evex, memset glibc)", for the
 * message about a bad MEMSHIM_IMPL. */
static const char *describe_default(struct line *l)
{
	struct selection by_default = { .policy = policy_default() };
	struct function_choice c;
	line_start(l);
	line_add(l, "the default policy (");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		choose(&by_default, (enum base_function)fn, &c);
		line_add(l, fn ? ", " : "");
		line_add(l, base_function_names[fn]);
		line_add(l, " ");
		line_add(l, c.text);
	}
	line_add(l, ")");
	l->text[l->len < sizeof l->text ? l->len : sizeof l->text - 1] = '\0';
	return l->text;
}

static void choose_variants(struct config *c)
{
	struct selection all = { .policy = policy_default() };
	struct line default_text;
	bool impl = read_selection("MEMSHIM_IMPL", describe_default(&default_text), &all);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct function_choice *choice = &c->choice[fn];
		struct selection one;
		choose(&all, (enum base_function)fn, choice);
		if (read_selection(function_variables[fn], choice->text, &one))
			choose(&one, (enum base_function)fn, choice);
		if (!impl && choice->policy == policy_default()->name)
			choice->policy = NULL; /* the default, not a variable, decided */
	}
}

const char *config_setting_bands(const char *value, enum base_function fn, struct band_list *out)
{
	static struct line words; /* the problem's text lives here */
	struct selection s = { .policy = policy_named(value) };
	const char *problem = s.policy ? NULL : selection_problem(value, &s.bands, &words);
	struct function_choice c;
	if (problem)
		return problem;
	choose(&s, fn, &c);
	*out = c.bands;
	return NULL;
}

static void read_verbose(struct config *c)
{
	const char *value = early_getenv("MEMSHIM_VERBOSE");
	if (!value)
		return;
	if (same_string(value, "0") || same_string(value, "1"))
		c->verbose = value[0] == '1';
	else
		warn_bad_value("MEMSHIM_VERBOSE", value, "is not 0 or 1", "0", 0);
}

/* MEMSHIM_BIND=stub keeps every call going through the exported stub, as
 * calls through pointers and from libraries loaded later always do. */
static void read_binding(struct config *c)
{
	const char *value = early_getenv("MEMSHIM_BIND");
	c->direct_binding = true;
	if (!value || same_string(value, "direct"))
		return;
	if (same_string(value, "stub"))
		c->direct_binding = false;
	else
		warn_bad_value("MEMSHIM_BIND", value, "is not direct or stub", "direct", 0);
}

static bool is_known_variable(const char *entry)
{
	for (const char *const *known = known_variables; *known; known++) {
		const char *k = *known, *e = entry;
		for (; *k && *k == *e; k++, e++)
			;
		if (*k == '\0' && *e == '=')
			return true;
	}
	return false;
}

static void report_unknown_variables(void)
{
	for (char *const *env = early_environ(); *env; env++) {
		const char *e = *env, *prefix = "MEMSHIM_";
		for (; *prefix && *prefix == *e; prefix++, e++)
			;
		if (*prefix || is_known_variable(*env))
			continue;
		struct line l;
		line_start(&l);
		line_add(&l, "unknown variable ");
		for (e = *env; *e && *e != '=' && l.len < 100; e++)
			line_add_char(&l, *e);
		if (*e && *e != '=')
			line_add(&l, "..."); /* the name was cut */
		line_add(&l, " ignored (see `memshim info`)");
		line_emit(&l);
	}
}

/* Defined (true) by the memshim tool: its own process never records (it
 * sets the recording variables for the programs it runs), so they are not
 * its to read, nor to warn about. */
extern const bool memshim_tool_process __attribute__((weak));

static void read_config(struct config *c)
{
	c->secure = early_secure_mode();
	c->verbose = false;
	report_unknown_variables();
	auto_default_thresholds(cpu_features(), &memshim_thresholds);
	config_read_calibration(c); /* before the choice: the default policy follows the file */
	choose_variants(c);
	config_read_thresholds(c);
	read_verbose(c);
	read_binding(c);
	if (!&memshim_tool_process)
		config_read_recording(c);
	else
		c->problems_fd = -1;
	if (c->verbose) {
		config_print_choices(c);
		struct line l;
		line_start(&l);
		config_describe_thresholds(c, &l);
		line_emit(&l);
	}
}

const struct config *config_get(void)
{
	/* 0: unread, 1: being read, 2: ready.  Resolvers of lazily bound calls
	 * can run in several threads at once: one reads, the others wait, so
	 * the problems are reported once and everyone sees the same choice. */
	static struct config config;
	static int state;
	int expected = 0;
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 2)
		return &config;
	if (__atomic_compare_exchange_n(&state, &expected, 1, false, __ATOMIC_ACQUIRE,
	                                __ATOMIC_ACQUIRE)) {
		read_config(&config);
		__atomic_store_n(&state, 2, __ATOMIC_RELEASE);
	}
	while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2)
		__builtin_ia32_pause();
	return &config;
}
