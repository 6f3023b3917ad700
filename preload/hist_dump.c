/* Dumps: writing the recorded counts to the MEMSHIM_DUMP file.
 *
 * Each dump is written whole to a temporary file in the directory of its
 * name, .memshim-PID.tmp (readers skip hidden and *.tmp files), created
 * with O_CREAT|O_EXCL|O_NOFOLLOW: never through a symbolic link, never over
 * a file someone else made.  Only then does it take its name, in one step:
 * the first dump takes PATH, or
 * PATH.1 ... PATH.99 where the name is taken (another process, or the
 * program before an exec with the same pid), with a rename that fails
 * instead of replacing; later dumps replace the process's own file.  So a
 * dump's name never holds an empty or partial file, whatever kills the
 * process when, and a write that fails (a full disk) leaves the name as it
 * was.  A forked child forgets the parent's file and counts and starts its
 * own.  A process that recorded no call writes no file.  Everything on the
 * dump path is async-signal-safe: it may run in a signal handler. */
#include "preload/hist_dump.h"

#include "preload/ab.h"

#include "dispatch/config.h"
#include "dispatch/early_env.h"
#include "shim/thresholds.h"
#include "preload/ab.h"
#include "preload/callsites.h"
#include "dump/format.h"
#include "preload/profile.h"
#include "preload/record.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h> /* rename */
#include <string.h> /* strerrordesc_np */
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static pid_t dump_owner;             /* the process whose counts these are */
static char dump_path[HIST_PATH_MAX + 8]; /* the name the first dump took */
static bool dump_written;            /* dump_path holds a complete dump */
static int dump_busy;                /* the thread dumping (its id), 0 if none: one dump at a time */
static int dump_failed_reported;
static struct histogram snapshot;    /* static: too big for a signal handler's stack */
static struct timing_counts timing_snapshot;

/* What `err` means for a file being created, in words: the C library's
 * description (not translated: no locale code in a signal handler), in
 * lower case like the rest of the line; ENOENT can only be the directory. */
static void add_reason(struct line *l, int err)
{
	const char *words = err == ENOENT ? "no such directory" : strerrordesc_np(err);
	if (!words) {
		line_add(l, "error ");
		line_add_number(l, (unsigned)err);
		return;
	}
	line_add_char(l, words[0] >= 'A' && words[0] <= 'Z' ? (char)(words[0] - 'A' + 'a') : words[0]);
	line_add(l, words + 1);
}

/* Says a dump problem on stderr and, when a recording parent asked for
 * them (MEMSHIM_PROBLEMS_FD), appends it there as "program[pid]: ...",
 * in one write, so that the parent's report has it. */
static void say_problem(struct line *l)
{
	int fd = config_get()->problems_fd;
	if (fd >= 0) {
		struct line told;
		line_start(&told);
		line_add(&told, early_program_name());
		line_add_char(&told, '[');
		line_add_number(&told, (unsigned long long)getpid());
		line_add(&told, "]: ");
		for (size_t i = 0; i < l->len; i++)
			line_add_char(&told, l->text[i]);
		line_add_char(&told, '\n');
		int saved = errno;
		if (write(fd, told.text, told.len) < 0)
			errno = saved; /* the parent's file gone: stderr still has it */
	}
	line_emit(l);
}

static void warn_dump(const char *path, const char *problem, int err)
{
	if (__atomic_exchange_n(&dump_failed_reported, 1, __ATOMIC_RELAXED))
		return; /* one warning per process */
	struct line l;
	line_start(&l);
	line_add(&l, "MEMSHIM_DUMP: ");
	line_add(&l, problem);
	line_add(&l, " ");
	line_add_quoted(&l, path, 200);
	line_add(&l, ": ");
	add_reason(&l, err);
	line_add(&l, "; the program runs on without a histogram");
	say_problem(&l);
}

/* Expands %p (process id), %e (program name) and %% in the configured path. */
static bool expand_path(char *out, size_t size)
{
	const char *in = config_get()->hist_path;
	struct line l; /* a handy bounded buffer */
	line_start(&l);
	for (; *in; in++) {
		if (in[0] == '%' && in[1] == 'p') {
			line_add_number(&l, (unsigned long long)getpid());
			in++;
		} else if (in[0] == '%' && in[1] == 'e') {
			line_add(&l, early_program_name());
			in++;
		} else if (in[0] == '%' && in[1] == '%') {
			line_add_char(&l, '%');
			in++;
		} else {
			line_add_char(&l, *in);
		}
	}
	if (l.cut || l.len >= size)
		return false;
	for (size_t i = 0; i < l.len; i++)
		out[i] = l.text[i];
	out[l.len] = '\0';
	return true;
}

static int create_exclusive(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}

/* base, then "." and n when n > 0, then suffix, into out (HIST_PATH_MAX
 * + 8 bytes); false if it does not fit. */
static bool numbered_name(char *out, const char *base, unsigned n, const char *suffix)
{
	struct line l; /* a handy bounded buffer */
	line_start(&l);
	line_add(&l, base);
	if (n) {
		line_add_char(&l, '.');
		line_add_number(&l, n);
	}
	line_add(&l, suffix);
	if (l.cut || l.len >= HIST_PATH_MAX + 8)
		return false;
	for (size_t i = 0; i <= l.len; i++)
		out[i] = i < l.len ? l.text[i] : '\0';
	return true;
}

/* The temporary file of a dump of `path`: .memshim-PID.tmp in its
 * directory (hidden, and *.tmp: readers skip it; short: any name that fits
 * NAME_MAX can have one), or .memshim-PID.1.tmp ... where one is left from
 * a process killed while dumping; its name goes to tmp.  -1 (errno set) if
 * none can be made. */
static int create_temporary(const char *path, char *tmp)
{
	char base[HIST_PATH_MAX + 8];
	char pid[21];
	pid[format_decimal((unsigned long long)getpid(), pid)] = '\0';
	size_t slash = 0; /* the path is absolute */
	for (size_t i = 0; path[i]; i++)
		if (path[i] == '/')
			slash = i;
	for (size_t i = 0; i <= slash; i++)
		base[i] = path[i];
	base[slash + 1] = '\0';
	int fd = -1;
	errno = ENAMETOOLONG;
	if (!numbered_name(base, base, 0, ".memshim-") || !numbered_name(base, base, 0, pid))
		return -1;
	for (unsigned n = 0; n < 100 && (n == 0 || errno == EEXIST); n++) {
		if (!numbered_name(tmp, base, n, ".tmp"))
			return -1;
		if ((fd = create_exclusive(tmp)) >= 0)
			break;
	}
	return fd;
}

/* The first dump's name: PATH, else PATH.1 ... PATH.99; it goes to dump_path. */
static bool take_free_name(const char *tmp, const char *path)
{
	for (unsigned n = 0; n < 100; n++) {
		if (!numbered_name(dump_path, path, n, "")) {
			errno = ENAMETOOLONG;
			return false;
		}
		if (hist_take_name(tmp, dump_path))
			return true;
		if (errno != EEXIST)
			return false;
	}
	return false;
}

static void fill_header(struct dump_header *h, const char *reason)
{
	const struct config *c = config_get();
	h->pid = getpid();
	h->program = early_program_name();
	h->reason = reason;
	for (int fn = 0; fn < FN_COUNT; fn++)
		h->variant[fn] = c->choice[fn].text;
	h->movsb_threshold = memshim_thresholds.movsb;
	h->stosb_threshold = memshim_thresholds.stosb;
}

static void zero_snapshot(void)
{
	uint64_t *p = (uint64_t *)&snapshot;
	for (size_t i = 0; i < sizeof snapshot / sizeof *p; i++)
		p[i] = 0;
}

/* Takes the counts into `snapshot`; false if not one call was recorded. */
static bool take_snapshot(void)
{
	zero_snapshot();
	record_sum(&snapshot);
	uint64_t calls = 0;
	for (int e = 0; e < E_COUNT; e++)
		calls += snapshot.entry_calls[e];
	return calls != 0;
}

/* The timed calls, summed over the threads now, when timing is on. */
static bool write_timing(int fd)
{
	uint64_t *p = (uint64_t *)&timing_snapshot;
	if (!config_get()->timing_every)
		return true;
	for (size_t i = 0; i < sizeof timing_snapshot / sizeof *p; i++)
		p[i] = 0;
	record_sum_timing(&timing_snapshot);
	return timing_write(fd, &timing_snapshot);
}

/* Writes the header and `snapshot`, which take_snapshot() filled. */
static bool write_dump(int fd, const char *reason)
{
	struct dump_header h;
	fill_header(&h, reason);
	if (!hist_write(fd, &h, &snapshot))
		return false;
	callsites_write(fd);
	return profile_write(fd) && write_timing(fd) && record_write_sequences(fd) && ab_write(fd) &&
	       hist_write_end(fd);
}

/* Writes the dump to a temporary file, then gives it the dump's name
 * (taking one the first time); on failure says so, and leaves no file. */
static void write_and_name(const char *reason)
{
	char path[HIST_PATH_MAX], tmp[HIST_PATH_MAX + 8];
	if (!expand_path(path, sizeof path)) {
		warn_dump(config_get()->hist_path, "path too long after expanding %p/%e:", ENAMETOOLONG);
		return;
	}
	size_t len = 0;
	while (path[len])
		len++;
	if (path[len - 1] == '/') { /* a directory's name, with no file name in it */
		warn_dump(path, "cannot create", EISDIR);
		return;
	}
	int fd = create_temporary(path, tmp);
	if (fd < 0) {
		warn_dump(path, "cannot create", errno);
		return;
	}
	const char *problem = NULL;
	if (!write_dump(fd, reason))
		problem = "cannot write";
	if (close(fd) != 0 && !problem)
		problem = "cannot write";
	if (!problem && dump_written && rename(tmp, dump_path) != 0)
		problem = "cannot write";
	if (!problem && !dump_written && !take_free_name(tmp, path))
		problem = errno == EEXIST ? "every free name is taken for" : "cannot create";
	if (!problem) {
		dump_written = true;
		return;
	}
	int err = errno;
	unlink(tmp);
	warn_dump(dump_written ? dump_path : path, problem, err);
}

/* Takes the dump lock: at once, or (wait) once another thread's dump ends.
 * Never waits for itself: a signal handler that calls _exit during a dump
 * in the same thread gives up instead. */
static bool take_dump_lock(bool wait)
{
	int self = gettid();
	for (;;) {
		int holder = 0;
		if (__atomic_compare_exchange_n(&dump_busy, &holder, self, false, __ATOMIC_ACQUIRE,
		                                __ATOMIC_RELAXED))
			return true;
		if (!wait || holder == self)
			return false;
		struct timespec pause = { 0, 1000000 };
		nanosleep(&pause, NULL);
	}
}

/* Into *set: the signals that end a process with a dump (signal_dump.c). */
static void end_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
	if (config_get()->hist_signal)
		sigaddset(set, config_get()->hist_signal);
}

static void dump(const char *reason, bool wait)
{
	/* A vfork child (exec after vfork) shares our memory but not our
	 * files: a dump there would write our counts under its pid.  Its
	 * exec'd program records for itself. */
	if (getpid() != dump_owner)
		return;
	int saved_errno = errno;
	/* A signal that ends the process waits for the dump under way on
	 * this thread, then dumps again: it cannot wait for it in the middle. */
	sigset_t ends, before;
	end_signals(&ends);
	pthread_sigmask(SIG_BLOCK, &ends, &before);
	if (take_dump_lock(wait)) {
		if (take_snapshot())
			write_and_name(reason);
		__atomic_store_n(&dump_busy, 0, __ATOMIC_RELEASE);
	}
	pthread_sigmask(SIG_SETMASK, &before, NULL);
	errno = saved_errno;
}

void hist_dump_now(const char *reason)
{
	dump(reason, false);
}

void hist_dump_last(const char *reason)
{
	dump(reason, true);
}

bool hist_dump_own_process(void)
{
	return getpid() == dump_owner;
}

/* ---- triggers ---- */

__attribute__((destructor)) static void dump_at_exit(void)
{
	if (config_get()->hist_path[0])
		hist_dump_last("exit");
}

static void *interval_dumper(void *unused)
{
	(void)unused;
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are the program's business */
	struct timespec period = { (time_t)config_get()->hist_interval, 0 };
	for (;;) {
		struct timespec left = period;
		while (nanosleep(&left, &left) != 0 && errno == EINTR)
			;
		dump("interval", true);
	}
	return NULL;
}

static void start_interval_dumps(void)
{
	pthread_t thread;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&thread, &attr, interval_dumper, NULL) != 0)
		warn_dump("", "cannot start the interval dump thread for", errno);
	pthread_attr_destroy(&attr);
}

/* A forked child counts only its own calls, into its own file. */
static void start_over_in_child(void)
{
	dump_written = false; /* the parent's file stays the parent's */
	dump_owner = getpid();
	dump_busy = 0;
	record_reset();
	profile_restart_in_child();
	ab_restart_in_child();
	if (config_get()->hist_interval)
		start_interval_dumps();
}

/* Says at start-up, while stderr is still open (cat, ls and sort close it
 * before they exit), when the dump directory cannot take a file.  The exit
 * dump then fails without a second line. */
static void check_dump_directory(void)
{
	char dir[HIST_PATH_MAX];
	if (!expand_path(dir, sizeof dir)) {
		warn_dump(config_get()->hist_path, "path too long after expanding %p/%e:", ENAMETOOLONG);
		return;
	}
	size_t last_slash = 0; /* the configured path is absolute */
	for (size_t i = 0; dir[i]; i++)
		if (dir[i] == '/')
			last_slash = i;
	dir[last_slash ? last_slash : 1] = '\0';
	struct stat st;
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
		errno = ENOTDIR;
	else if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) == 0)
		return;
	int err = errno;
	if (__atomic_exchange_n(&dump_failed_reported, 1, __ATOMIC_RELAXED))
		return;
	struct line l;
	line_start(&l);
	line_add(&l, "MEMSHIM_DUMP=");
	line_add_quoted(&l, config_get()->hist_path, 200);
	line_add(&l, ": cannot write dumps there: ");
	add_reason(&l, err);
	say_problem(&l);
}

void hist_dump_arm(void)
{
	check_dump_directory();
	dump_owner = getpid();
	pthread_atfork(NULL, NULL, start_over_in_child);
	if (config_get()->hist_interval)
		start_interval_dumps();
}
