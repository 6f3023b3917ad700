/* The recording settings: MEMSHIM_DUMP, MEMSHIM_DUMP_INTERVAL,
 * MEMSHIM_DUMP_SIGNAL, MEMSHIM_CALLSITES, MEMSHIM_STACK_DEPTH,
 * MEMSHIM_PROFILE, MEMSHIM_TIMING and MEMSHIM_PROBLEMS_FD
 * (dispatch/config_internal.h). */
#include "dispatch/config_internal.h"

#include "dispatch/early_env.h"
#include "dispatch/raw_syscall.h"
#include "dispatch/renamed.h"

#include <signal.h>
#include <sys/syscall.h>

/* The limits of the recording variables, plain numbers so that the
 * messages can spell them (TEXT_OF). */
#define HIST_INTERVAL_MAX 1000000
#define CALLSITES_MAX 1073741824
#define PROBLEMS_FD_MAX 1048576
#define STACK_DEPTH_MAX 64 /* dump/format.h's HIST_STACK_MAX */
#define TEXT_OF(number) TEXT_OF_(number)
#define TEXT_OF_(number) #number

/* The working directory at start-up, with a trailing '/', into `out`; its
 * length, or 0 if it cannot be had.  A relative MEMSHIM_DUMP is taken from
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

/* Whether every % in path starts %p, %e or %% (a % at the end is itself). */
static bool escapes_known(const char *path)
{
	for (; *path; path++)
		if (*path == '%' && path[1] && *++path != 'p' && *path != 'e' && *path != '%')
			return false;
	return true;
}

static void read_hist_path(struct config *c)
{
	const char *value = renamed_getenv("MEMSHIM_DUMP");
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
	                      : !escapes_known(value) ? "has a % escape other than %p (the process id), %e (the "
	                                                "program name) and %% (a %)"
	                      : value[0] != '/' && start == 0 ? "is relative and the working directory is unknown"
	                      : NULL;
	if (problem) {
		warn_bad_value("MEMSHIM_DUMP", value, problem, "no recording", 0);
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

/* `name`: on (on_value), off, 0, or N from 1 to max, into *out; a bad
 * value is said once, with `instead`, what is used instead. */
static void read_on_or_count(const char *name, unsigned on_value, unsigned long long max, const char *instead,
                             unsigned *out)
{
	const char *value = early_getenv(name);
	unsigned long long n;
	const char *problem;
	if (!value || same_string(value, "off") || same_string(value, "0"))
		return;
	if (same_string(value, "on"))
		*out = on_value;
	else if ((problem = parse_count(value, 1, max, &n)))
		warn_bad_value(name, value, problem, instead, 0);
	else
		*out = (unsigned)n;
}

/* MEMSHIM_TIMING: one call in N timed (1: every call); MEMSHIM_SEQUENCES:
 * windows of N consecutive calls (the library's preload/sequences.h). */
static void read_timing_and_sequences(struct config *c)
{
	read_on_or_count("MEMSHIM_TIMING", TIMING_DEFAULT_EVERY, TIMING_MAX_EVERY,
	                 "no timed calls (give on, off, or N to time one call in N, 1 to " TEXT_OF(TIMING_MAX_EVERY) ")",
	                 &c->timing_every);
	read_on_or_count("MEMSHIM_SEQUENCES", SEQUENCES_DEFAULT_LENGTH, SEQUENCES_MAX_LENGTH,
	                 "no windows of calls (give on, off, or N, the calls a window holds, 1 to "
	                 TEXT_OF(SEQUENCES_MAX_LENGTH) ")",
	                 &c->sequence_length);
}

/* A whole number from min to max in variable `name`, into *out; false,
 * leaving *out, when it is unset or bad (said once: what is wrong with it,
 * and `instead`, what is used instead). */
static bool read_count(const char *name, unsigned long long min, unsigned long long max,
                       const char *problem, const char *instead, unsigned long long *out)
{
	const char *value = renamed_getenv(name);
	unsigned long long n;
	if (!value)
		return false;
	if (parse_count(value, min, max, &n)) {
		warn_bad_value(name, value, problem, instead, 0);
		return false;
	}
	*out = n;
	return true;
}

void read_recording(struct config *c)
{
	unsigned long long n;
	const char *value;
	read_hist_path(c);
	/* MEMSHIM_PROBLEMS_FD: a descriptor open for appending, where a recording
	 * parent (memshim record) collects the dump problems of its processes */
	c->problems_fd = read_count("MEMSHIM_PROBLEMS_FD", 0, PROBLEMS_FD_MAX,
	                            "is not a file descriptor number from 0 to " TEXT_OF(PROBLEMS_FD_MAX),
	                            "dump problems go to stderr only", &n) ? (int)n : -1;
	if (read_count("MEMSHIM_DUMP_INTERVAL", 1, HIST_INTERVAL_MAX,
	               "is not a whole number of seconds from 1 to " TEXT_OF(HIST_INTERVAL_MAX),
	               "no interval dumps", &n))
		c->hist_interval = (unsigned)n;
	/* SIGTERM, SIGINT and SIGHUP dump before they end a process, unless
	 * MEMSHIM_DUMP_SIGNAL=none */
	c->hist_end_signals = c->hist_path[0] != '\0';
	if ((value = renamed_getenv("MEMSHIM_DUMP_SIGNAL")) && same_string(value, "none")) {
		c->hist_end_signals = false;
	} else if (value) {
		c->hist_signal = signal_named(value);
		if (!c->hist_signal)
			warn_bad_value("MEMSHIM_DUMP_SIGNAL", value,
			               "is not a signal a dump can be asked with (USR1, USR2, HUP, ..., or none)",
			               "no signal dumps but those before TERM, INT or HUP ends the process", 0);
	}
	if (read_count("MEMSHIM_CALLSITES", 1, CALLSITES_MAX,
	               "is not a whole number from 1 to " TEXT_OF(CALLSITES_MAX) " (one call in N is sampled)",
	               "no call sites", &n))
		c->callsite_every = (unsigned)n;
	c->stack_depth = STACK_DEPTH_MAX; /* whole stacks, as far as perf's usual depth */
	if (read_count("MEMSHIM_STACK_DEPTH", 1, STACK_DEPTH_MAX,
	               "is not a whole number of frames from 1 to " TEXT_OF(STACK_DEPTH_MAX),
	               "call sites of up to " TEXT_OF(STACK_DEPTH_MAX) " frames", &n))
		c->stack_depth = (unsigned)n;
	read_profile_rate(c);
	read_timing_and_sequences(c);
	if (!c->hist_path[0] && (c->hist_interval || c->hist_signal || c->callsite_every || c->profile_hz ||
	                         c->timing_every || c->sequence_length)) {
		struct line l;
		line_start(&l);
		line_add(&l, "MEMSHIM_DUMP_INTERVAL, MEMSHIM_DUMP_SIGNAL, MEMSHIM_CALLSITES, MEMSHIM_SEQUENCES,"
		             " MEMSHIM_TIMING and MEMSHIM_PROFILE need MEMSHIM_DUMP; ignored");
		line_emit(&l);
		c->hist_interval = 0;
		c->hist_signal = 0;
		c->hist_end_signals = false;
		c->callsite_every = 0;
		c->profile_hz = 0;
		c->timing_every = 0;
		c->sequence_length = 0;
	}
}
