#include "dispatch/config.h"

#include "dispatch/early_env.h"
#include "dispatch/thresholds.h"

struct thresholds memshim_thresholds = { ERMS_THRESHOLD_DEFAULT, STOSB_THRESHOLD_DEFAULT };

/* Thresholds beyond 1 TiB mean "never": refuse them as probable typos. */
#define THRESHOLD_MAX (1ull << 40)

static const char *const function_variables[FN_COUNT] = { "MEMSHIM_MEMCPY", "MEMSHIM_MEMMOVE",
	                                                      "MEMSHIM_MEMSET" };

/* Every variable the library reads; any other MEMSHIM_* name is reported as unknown. */
static const char *const known_variables[] = {
	"MEMSHIM_IMPL",           "MEMSHIM_MEMCPY",          "MEMSHIM_MEMMOVE", "MEMSHIM_MEMSET",
	"MEMSHIM_ERMS_THRESHOLD", "MEMSHIM_STOSB_THRESHOLD", "MEMSHIM_VERBOSE",
	"MEMSHIM_LIBRARY", /* read by the memshim tool */
	NULL,
};

const struct variant *kernel_policy_variant(const struct cpu_features *f, const char **why)
{
	if (f->fsrm) {
		*why = "CPU has FSRM";
		return variant_named("fsrm");
	}
	if (f->erms) {
		*why = "CPU has ERMS, not FSRM";
		return variant_named("erms");
	}
	*why = "CPU has neither ERMS nor FSRM";
	return variant_named("movsq");
}

/* "MEMSHIM_X="value" <problem>; using <fallback>" */
static void warn_bad_value(const char *name, const char *value, const char *problem,
                           const char *fallback_text, unsigned long long fallback_number)
{
	struct line l;
	line_start(&l);
	line_add(&l, name);
	line_add(&l, "=");
	line_add_quoted(&l, value, 64);
	line_add(&l, " ");
	line_add(&l, problem);
	line_add(&l, "; using ");
	if (fallback_text)
		line_add(&l, fallback_text);
	else
		line_add_number(&l, fallback_number);
	line_emit(&l);
}

const char *parse_byte_count(const char *text, unsigned long long max, unsigned long long *out)
{
	if (*text == '\0')
		return "is empty";
	if (*text == '-')
		return "is negative";
	unsigned long long n = 0;
	const char *p = text;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (n > (~0ull - 9) / 10)
			return "is too large";
		n = n * 10 + (unsigned)(*p - '0');
	}
	if (p == text)
		return "is not a number of bytes";
	unsigned shift = 0;
	switch (*p) {
	case 'k': case 'K': shift = 10; p++; break;
	case 'm': case 'M': shift = 20; p++; break;
	case 'g': case 'G': shift = 30; p++; break;
	case 't': case 'T': shift = 40; p++; break;
	}
	if (*p != '\0')
		return "is not a number of bytes (digits, then K, M, G or T at most)";
	if (shift && n > (max >> shift))
		return "is too large";
	n <<= shift;
	if (n > max)
		return "is too large";
	*out = n;
	return NULL;
}

static void read_threshold(const char *name, size_t *threshold)
{
	const char *value = early_getenv(name);
	unsigned long long n;
	if (!value)
		return;
	const char *problem = parse_byte_count(value, THRESHOLD_MAX, &n);
	if (problem)
		warn_bad_value(name, value, problem, NULL, *threshold);
	else
		*threshold = n;
}

/* The variant named by variable `name`, or NULL (reported) if it names none usable here. */
static const struct variant *read_variant(const char *name, const char *fallback)
{
	const char *value = early_getenv(name);
	if (!value)
		return NULL;
	const struct variant *v = variant_named(value);
	if (v && variant_usable(v))
		return v;
	warn_bad_value(name, value,
	               v ? "is not supported by this CPU or C library"
	                 : "is not a variant (see `memshim info`)",
	               fallback, 0);
	return NULL;
}

static void choose_variants(struct config *c)
{
	const char *why;
	const struct variant *fallback = kernel_policy_variant(cpu_features(), &why);
	const char *fallback_why = why;
	const struct variant *all = read_variant("MEMSHIM_IMPL", fallback->name);
	if (all) {
		fallback = all;
		fallback_why = "MEMSHIM_IMPL";
	}
	for (int fn = 0; fn < FN_COUNT; fn++) {
		const struct variant *one = read_variant(function_variables[fn], fallback->name);
		c->choice[fn].variant = one ? one : fallback;
		c->choice[fn].why = one ? function_variables[fn] : fallback_why;
	}
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

void config_describe(const struct config *c, enum base_function fn, struct line *l)
{
	const struct variant *v = c->choice[fn].variant;
	line_add(l, base_function_names[fn]);
	line_add(l, " -> ");
	line_add(l, v->name);
	if (same_string(v->name, "erms")) {
		line_add(l, fn == FN_MEMSET ? " (rep stosb from " : " (rep movsb from ");
		line_add_number(l, fn == FN_MEMSET ? memshim_thresholds.stosb : memshim_thresholds.erms);
		line_add(l, " B)");
	}
	line_add(l, " [");
	line_add(l, c->choice[fn].why);
	line_add(l, "]");
}

static void print_choices(const struct config *c)
{
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct line l;
		line_start(&l);
		config_describe(c, (enum base_function)fn, &l);
		if (fn == FN_MEMCPY)
			line_add(&l, "; mempcpy, __memcpy_chk, __mempcpy_chk follow");
		if (fn == FN_MEMMOVE)
			line_add(&l, "; __memmove_chk, bcopy follow");
		if (fn == FN_MEMSET)
			line_add(&l, "; __memset_chk, bzero, explicit_bzero follow");
		line_emit(&l);
	}
}

static void read_config(struct config *c)
{
	c->secure = early_secure_mode();
	c->verbose = false;
	report_unknown_variables();
	choose_variants(c);
	read_threshold("MEMSHIM_ERMS_THRESHOLD", &memshim_thresholds.erms);
	read_threshold("MEMSHIM_STOSB_THRESHOLD", &memshim_thresholds.stosb);
	read_verbose(c);
	if (c->verbose)
		print_choices(c);
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
