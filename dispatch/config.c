#include "dispatch/config.h"

#include "dispatch/auto_policy.h"
#include "dispatch/calibration.h"
#include "dispatch/early_env.h"
#include "dispatch/thresholds.h"

#include "dispatch/raw_syscall.h"

#include <signal.h>
#include <sys/syscall.h>

/* The vector variants' thresholds depend on the CPU: read_config sets them. */
struct thresholds memshim_thresholds = { .erms = ERMS_THRESHOLD_DEFAULT, .stosb = STOSB_THRESHOLD_DEFAULT };

/* Thresholds beyond 1 TiB mean "never": refuse them as probable typos. */
#define THRESHOLD_MAX (1ull << 40)

/* The limits of the recording variables, plain numbers so that the
 * messages can spell them (TEXT_OF). */
#define HIST_INTERVAL_MAX 1000000
#define CALLSITES_MAX 1073741824
#define TEXT_OF(number) TEXT_OF_(number)
#define TEXT_OF_(number) #number

static const char *const function_variables[FN_COUNT] = { "MEMSHIM_MEMCPY", "MEMSHIM_MEMMOVE",
	                                                      "MEMSHIM_MEMSET" };

/* Every variable the library reads; any other MEMSHIM_* name is reported as unknown. */
static const char *const known_variables[] = {
	"MEMSHIM_IMPL",           "MEMSHIM_MEMCPY",          "MEMSHIM_MEMMOVE", "MEMSHIM_MEMSET",
	"MEMSHIM_ERMS_THRESHOLD", "MEMSHIM_STOSB_THRESHOLD", "MEMSHIM_VERBOSE",
	"MEMSHIM_HIST",           "MEMSHIM_HIST_INTERVAL",   "MEMSHIM_HIST_SIGNAL", "MEMSHIM_CALLSITES",
	"MEMSHIM_PROFILE",
	"MEMSHIM_AUTO_MOVSB_THRESHOLD", "MEMSHIM_AUTO_STOSB_THRESHOLD", "MEMSHIM_NT_THRESHOLD",
	"MEMSHIM_CONFIG",
	"MEMSHIM_LIBRARY", /* read by the memshim tool */
	"MEMSHIM_DISTRIBUTIONS", /* read by memshim bench */
	"MEMSHIM_CACHE_SIZES", /* read by memshim bench and tune */
	NULL,
};

const struct variant *kernel_policy_variant(const struct cpu_features *f, enum base_function fn,
                                            const char **why)
{
	(void)fn; /* the kernel's choice is the same for every function */
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

/* A policy picks a row from the CPU's features; MEMSHIM_IMPL and the
 * per-function variables may name one instead of a row. */
struct policy {
	const char *name;
	const struct variant *(*pick)(const struct cpu_features *f, enum base_function fn, const char **why);
};

enum { KERNEL_POLICY, AUTO_POLICY, DEFAULT_POLICY, POLICY_COUNT };

/* The calibration file's choices, once read_calibration applied a file
 * that has them (before any policy picks). */
static const struct calibration_choices *file_choices;

/* The default policy: this machine's calibration file where it chose a
 * variant for fn, else the built-in choice for the CPU class. */
static const struct variant *calibrated_default_variant(const struct cpu_features *f, enum base_function fn,
                                                        const char **why)
{
	if (file_choices && file_choices->variant[fn]) {
		*why = file_choices->why[fn];
		return file_choices->variant[fn];
	}
	return default_policy_variant(f, fn, why);
}

static const struct policy policies[POLICY_COUNT] = {
	[KERNEL_POLICY] = { "kernel", kernel_policy_variant },
	[AUTO_POLICY] = { "auto", auto_policy_variant },
	[DEFAULT_POLICY] = { "default", calibrated_default_variant },
};

/* THE DEFAULT POLICY: what every function gets when no variable names a
 * variant.  It was the kernel's; it is now what `memshim tune --calibrate`
 * chose on this machine (the calibration file), else auto where auto was
 * measured at or below glibc in every size class (dispatch/auto_policy.c),
 * and glibc's own functions elsewhere. */
static const struct policy *const default_policy = &policies[DEFAULT_POLICY];

const struct variant *config_default_variant(enum base_function fn, const char **why)
{
	config_get(); /* the calibration file, if any, is read */
	return default_policy->pick(cpu_features(), fn, why);
}

static const struct policy *policy_named(const char *name)
{
	for (unsigned i = 0; i < POLICY_COUNT; i++)
		if (same_string(policies[i].name, name))
			return &policies[i];
	return NULL;
}

const char *config_policy(unsigned i, enum base_function fn, const struct variant **picks, const char **why)
{
	if (i >= POLICY_COUNT)
		return NULL;
	config_get();
	*picks = policies[i].pick(cpu_features(), fn, why);
	return policies[i].name;
}

bool config_name_known(const char *name)
{
	return variant_named(name) || policy_named(name);
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

/* Each threshold: its variable, its field, its name in descriptions. */
static const struct {
	const char *variable, *name;
	size_t *value;
} threshold_table[T_COUNT] = {
	[T_ERMS] = { "MEMSHIM_ERMS_THRESHOLD", "erms", &memshim_thresholds.erms },
	[T_STOSB] = { "MEMSHIM_STOSB_THRESHOLD", "stosb", &memshim_thresholds.stosb },
	[T_AUTO_MOVSB] = { "MEMSHIM_AUTO_MOVSB_THRESHOLD", "auto_movsb", &memshim_thresholds.auto_movsb },
	[T_AUTO_STOSB] = { "MEMSHIM_AUTO_STOSB_THRESHOLD", "auto_stosb", &memshim_thresholds.auto_stosb },
	[T_NT] = { "MEMSHIM_NT_THRESHOLD", "nt", &memshim_thresholds.nt },
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
}

/* The calibration file's thresholds for the auto policy, over the built-in
 * ones; the environment overrides both.  A file is named by a variable (or
 * found through HOME), so a secure-mode process reads none. */
static void read_calibration(struct config *c)
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
		file_choices = &c->calibrated;
		return;
	}
	path[0] = '\0';
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

/* Sets *choice from variable `name` if it names a variant usable here or a
 * policy; returns false (and reports a bad value) otherwise. */
/* What a variable names: a variant usable here, or a policy. */
struct selection {
	const char *variable;
	const struct variant *variant;
	const struct policy *policy;
};

/* Reads variable `name`; false (and a bad value reported, `fallback` named
 * as what is used instead) unless it names a usable variant or a policy. */
static bool read_selection(const char *name, const char *fallback, struct selection *s)
{
	const char *value = early_getenv(name);
	if (!value)
		return false;
	const struct policy *p = policy_named(value);
	const struct variant *v = p ? NULL : variant_named(value);
	if (p || (v && variant_usable(v))) {
		s->variable = name;
		s->policy = p;
		s->variant = v;
		return true;
	}
	warn_bad_value(name, value,
	               v ? "is not supported by this CPU or C library"
	                 : "is not a variant or policy (see `memshim info`)",
	               fallback, 0);
	return false;
}

static struct function_choice choice_for(const struct selection *s, enum base_function fn)
{
	struct function_choice c = { .variant = s->variant, .why = s->variable };
	if (s->policy) {
		c.variant = s->policy->pick(cpu_features(), fn, &c.why);
		c.variable = s->variable;
		c.policy = s->policy->name;
	}
	return c;
}

/* "the default policy (memcpy evex, memmove evex, memset glibc)", for the
 * message about a bad MEMSHIM_IMPL. */
static const char *describe_default(struct line *l)
{
	struct selection by_default = { .policy = default_policy };
	line_start(l);
	line_add(l, "the default policy (");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		line_add(l, fn ? ", " : "");
		line_add(l, base_function_names[fn]);
		line_add(l, " ");
		line_add(l, choice_for(&by_default, (enum base_function)fn).variant->name);
	}
	line_add(l, ")");
	l->text[l->len < sizeof l->text ? l->len : sizeof l->text - 1] = '\0';
	return l->text;
}

static void choose_variants(struct config *c)
{
	struct selection all = { .policy = default_policy };
	struct line default_text;
	bool impl = read_selection("MEMSHIM_IMPL", describe_default(&default_text), &all);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct function_choice fallback = choice_for(&all, (enum base_function)fn);
		struct selection one;
		c->choice[fn] = read_selection(function_variables[fn], fallback.variant->name, &one)
		                        ? choice_for(&one, (enum base_function)fn) : fallback;
		if (!impl && c->choice[fn].policy == default_policy->name)
			c->choice[fn].policy = NULL; /* the default, not a variable, decided */
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
	if (v->describe_thresholds)
		v->describe_thresholds(fn, l);
	line_add(l, " [");
	if (c->choice[fn].policy) {
		line_add(l, c->choice[fn].variable);
		line_add(l, "=");
		line_add(l, c->choice[fn].policy);
		line_add(l, ": ");
	}
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

/* A whole number in [min, max] from decimal digits only, or NULL and the
 * problem, in words that fit any unit (max far below ULLONG_MAX / 10, so
 * that no step can overflow). */
static const char *parse_count(const char *text, unsigned long long min, unsigned long long max,
                               unsigned long long *out)
{
	unsigned long long n = 0;
	const char *p = text;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((n = n * 10 + (unsigned)(*p - '0')) > max)
			return "is too large";
	if (p == text || *p)
		return "is not a whole number";
	if (n < min)
		return "is too small";
	*out = n;
	return NULL;
}

/* The working directory at start-up, with a trailing '/', into `out`; its
 * length, or 0 if it cannot be had.  A relative MEMSHIM_HIST is taken from
 * there, so a program that changes directory still dumps where asked. */
static size_t start_directory(char *out, size_t size)
{
	long len = raw_syscall3(SYS_getcwd, (long)out, (long)size - 1, 0);
	if (len <= 1 || out[len - 1] != '\0')
		return 0;
	if (len == 2)
		return 1; /* "/" already ends with the slash */
	out[len - 1] = '/'; /* the kernel counts the terminating NUL */
	return (size_t)len;
}

static void read_hist_path(struct config *c)
{
	const char *value = early_getenv("MEMSHIM_HIST");
	c->hist_path[0] = '\0';
	if (!value)
		return;
	size_t start = value[0] == '/' ? 0 : start_directory(c->hist_path, HIST_PATH_MAX);
	size_t len = 0;
	while (value[len] && start + len < HIST_PATH_MAX - 1)
		len++;
	const char *problem = c->secure ? "is ignored in a secure-mode (set-user-ID) process"
	                      : len == 0 ? "is empty"
	                      : value[len] ? "is too long a path"
	                      : value[0] != '/' && start == 0 ? "is relative and the working directory is unknown"
	                      : NULL;
	if (problem) {
		warn_bad_value("MEMSHIM_HIST", value, problem, "no recording", 0);
		c->hist_path[0] = '\0';
		return;
	}
	for (size_t i = 0; i <= len; i++)
		c->hist_path[start + i] = value[i];
}

/* Signal names a user may give, with or without "SIG"; synchronous and
 * uncatchable signals are left out on purpose. */
static const struct {
	const char *name;
	int number;
} dump_signals[] = {
	{ "HUP", SIGHUP },   { "INT", SIGINT },     { "QUIT", SIGQUIT },  { "USR1", SIGUSR1 },
	{ "USR2", SIGUSR2 }, { "ALRM", SIGALRM },   { "TERM", SIGTERM },  { "PROF", SIGPROF },
	{ "WINCH", SIGWINCH }, { "URG", SIGURG }, { "PWR", SIGPWR },     { "VTALRM", SIGVTALRM },
};

static int signal_named(const char *text)
{
	if (text[0] == 'S' && text[1] == 'I' && text[2] == 'G')
		text += 3;
	for (unsigned i = 0; i < sizeof dump_signals / sizeof dump_signals[0]; i++)
		if (same_string(text, dump_signals[i].name))
			return dump_signals[i].number;
	unsigned long long n;
	if (parse_count(text, 1, 64, &n) == NULL)
		for (unsigned i = 0; i < sizeof dump_signals / sizeof dump_signals[0]; i++)
			if (dump_signals[i].number == (int)n)
				return (int)n;
	return 0;
}

/* MEMSHIM_PROFILE: on, 1 (the default rate), off, 0, or samples per CPU second. */
static void read_profile_rate(struct config *c)
{
	const char *value = early_getenv("MEMSHIM_PROFILE");
	unsigned long long n;
	const char *problem;
	if (!value || same_string(value, "off") || same_string(value, "0"))
		return;
	if (same_string(value, "on") || same_string(value, "1"))
		c->profile_hz = PROFILE_DEFAULT_HZ;
	else if ((problem = parse_count(value, 2, PROFILE_MAX_HZ, &n)))
		warn_bad_value("MEMSHIM_PROFILE", value, problem,
		               "no profile (give on, off, or samples per second of CPU time, 2 to 100000)", 0);
	else
		c->profile_hz = (unsigned)n;
}

static void read_recording(struct config *c)
{
	unsigned long long n;
	const char *value;
	read_hist_path(c);
	if ((value = early_getenv("MEMSHIM_HIST_INTERVAL"))) {
		if (parse_count(value, 1, HIST_INTERVAL_MAX, &n))
			warn_bad_value("MEMSHIM_HIST_INTERVAL", value,
			               "is not a whole number of seconds from 1 to " TEXT_OF(HIST_INTERVAL_MAX),
			               "no interval dumps", 0);
		else
			c->hist_interval = (unsigned)n;
	}
	if ((value = early_getenv("MEMSHIM_HIST_SIGNAL"))) {
		c->hist_signal = signal_named(value);
		if (!c->hist_signal)
			warn_bad_value("MEMSHIM_HIST_SIGNAL", value,
			               "is not a signal a dump can be asked with (USR1, USR2, HUP, ...)",
			               "no signal dumps", 0);
	}
	if ((value = early_getenv("MEMSHIM_CALLSITES"))) {
		if (parse_count(value, 1, CALLSITES_MAX, &n))
			warn_bad_value("MEMSHIM_CALLSITES", value,
			               "is not a whole number from 1 to " TEXT_OF(CALLSITES_MAX) " (one call in N is sampled)",
			               "no call sites", 0);
		else
			c->callsite_every = (unsigned)n;
	}
	read_profile_rate(c);
	if (!c->hist_path[0] && (c->hist_interval || c->hist_signal || c->callsite_every || c->profile_hz)) {
		struct line l;
		line_start(&l);
		line_add(&l, "MEMSHIM_HIST_INTERVAL, MEMSHIM_HIST_SIGNAL, MEMSHIM_CALLSITES and MEMSHIM_PROFILE"
		             " need MEMSHIM_HIST; ignored");
		line_emit(&l);
		c->hist_interval = 0;
		c->hist_signal = 0;
		c->callsite_every = 0;
		c->profile_hz = 0;
	}
}

static void read_config(struct config *c)
{
	c->secure = early_secure_mode();
	c->verbose = false;
	report_unknown_variables();
	auto_default_thresholds(cpu_features(), &memshim_thresholds);
	read_calibration(c); /* before the choice: the default policy follows the file */
	choose_variants(c);
	for (int t = 0; t < T_COUNT; t++)
		read_threshold(c, (enum threshold_name)t);
	read_verbose(c);
	read_recording(c);
	if (c->verbose) {
		print_choices(c);
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
