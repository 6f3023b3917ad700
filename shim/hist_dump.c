/* Dumps: writing the recorded counts to the MEMSHIM_HIST file.
 *
 * The file is created once per process with O_CREAT|O_EXCL|O_NOFOLLOW, so
 * a dump never follows a symbolic link and never overwrites a file this
 * process did not create; if the name is taken (another process, or the
 * program before an exec with the same pid), ".1", ".2", ... are tried.
 * Each dump is written whole to NAME.tmp (created the same way) and then
 * renamed over NAME, so NAME is always a complete dump, whatever kills the
 * process when, or a write that fails (a full disk) leaves it as it was;
 * if the first dump fails, NAME is removed again.  Only when NAME.tmp
 * cannot be created is NAME rewritten in place.  A forked child forgets the
 * parent's file and counts and starts its own.  A process that recorded no
 * call writes no file.  Everything on the dump path is async-signal-safe:
 * it may run in a signal handler. */
#include "shim/hist_dump.h"

#include "dispatch/config.h"
#include "dispatch/early_env.h"
#include "dispatch/thresholds.h"
#include "shim/callsites.h"
#include "shim/histogram_format.h"
#include "shim/profile.h"
#include "shim/record.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h> /* rename */
#include <string.h> /* strerrordesc_np */
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int dump_fd = -1;             /* the file this process created, once created */
static pid_t dump_owner;             /* the process whose counts these are */
static char dump_path[HIST_PATH_MAX + 8]; /* the name dump_fd was created with */
static bool dump_written;            /* dump_path holds a complete dump */
static int dump_busy;                /* the thread dumping (its id), 0 if none: one dump at a time */
static int dump_failed_reported;
static struct histogram snapshot;    /* static: too big for a signal handler's stack */
static struct timing_counts timing_snapshot;
static struct sigaction previous_action;

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
	line_add(&l, "MEMSHIM_HIST: ");
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

static void copy_text(char *to, const char *from)
{
	while ((*to++ = *from++) != '\0') /* no memcpy: it would count */
		;
}

/* Creates the dump file: PATH, else PATH.1 ... PATH.99 if taken; its name
 * goes to dump_path. */
static int create_dump_file(void)
{
	char path[HIST_PATH_MAX], numbered[HIST_PATH_MAX + 8];
	if (!expand_path(path, sizeof path)) {
		warn_dump(config_get()->hist_path, "path too long after expanding %p/%e:", ENAMETOOLONG);
		return -1;
	}
	copy_text(dump_path, path);
	int fd = create_exclusive(path);
	for (unsigned n = 1; fd < 0 && errno == EEXIST && n < 100; n++) {
		struct line l;
		line_start(&l);
		line_add(&l, path);
		line_add_char(&l, '.');
		line_add_number(&l, n);
		for (size_t i = 0; i <= l.len; i++)
			numbered[i] = i < l.len ? l.text[i] : '\0';
		fd = create_exclusive(numbered);
		if (fd >= 0)
			copy_text(dump_path, numbered);
	}
	if (fd < 0)
		warn_dump(path, errno == EEXIST ? "every free name is taken for" : "cannot create", errno);
	return fd;
}

static void fill_header(struct dump_header *h, const char *reason)
{
	const struct config *c = config_get();
	h->pid = getpid();
	h->program = early_program_name();
	h->reason = reason;
	for (int fn = 0; fn < FN_COUNT; fn++)
		h->variant[fn] = c->choice[fn].variant->name;
	h->erms_threshold = memshim_thresholds.erms;
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
	return profile_write(fd) && write_timing(fd) && hist_write_end(fd);
}

/* Writes the dump to dump_path.tmp and renames it over dump_path; in place
 * if dump_path.tmp cannot be created.  False (errno set) if it failed. */
static bool replace_dump(const char *reason)
{
	char tmp[sizeof dump_path + 8];
	copy_text(tmp, dump_path);
	size_t len = 0;
	while (tmp[len])
		len++;
	copy_text(tmp + len, ".tmp");
	int fd = create_exclusive(tmp); /* a name someone else holds is left alone */
	if (fd < 0)
		return ftruncate(dump_fd, 0) == 0 && lseek(dump_fd, 0, SEEK_SET) == 0 &&
		       write_dump(dump_fd, reason);
	if (write_dump(fd, reason) && rename(tmp, dump_path) == 0) {
		close(dump_fd);
		dump_fd = fd;
		return true;
	}
	int err = errno;
	close(fd);
	unlink(tmp);
	errno = err;
	return false;
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

static void dump(const char *reason, bool wait)
{
	/* A vfork child (exec after vfork) shares our memory but not our
	 * files: a dump there would write our counts under its pid and leave
	 * dump_fd naming a descriptor we do not have.  Its exec'd program
	 * records for itself. */
	if (getpid() != dump_owner)
		return;
	if (!take_dump_lock(wait))
		return;
	int saved_errno = errno;
	bool any_calls = take_snapshot();
	if (any_calls && dump_fd < 0)
		dump_fd = create_dump_file();
	if (any_calls && dump_fd >= 0) {
		if (replace_dump(reason)) {
			dump_written = true;
		} else {
			warn_dump(dump_path, "cannot write", errno);
			if (!dump_written) { /* never leave an empty or partial file behind */
				close(dump_fd);
				unlink(dump_path);
				dump_fd = -1;
			}
		}
	}
	errno = saved_errno;
	__atomic_store_n(&dump_busy, 0, __ATOMIC_RELEASE);
}

void hist_dump_now(const char *reason)
{
	dump(reason, false);
}

void hist_dump_last(void)
{
	dump("exit", true);
}

/* ---- triggers ---- */

__attribute__((destructor)) static void dump_at_exit(void)
{
	if (config_get()->hist_path[0])
		hist_dump_last();
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

static void on_dump_signal(int sig, siginfo_t *info, void *context)
{
	hist_dump_now("signal");
	/* then whatever handled the signal before us */
	if (previous_action.sa_flags & SA_SIGINFO) {
		if (previous_action.sa_sigaction)
			previous_action.sa_sigaction(sig, info, context);
	} else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
		previous_action.sa_handler(sig);
	} else if (previous_action.sa_handler == SIG_DFL && sig != SIGUSR1 && sig != SIGUSR2) {
		/* The program left the signal to its default action (TERM, INT,
		 * HUP...: end the process): take it, after the dump.  The signal is
		 * blocked in this handler, so it is delivered when we return.
		 * USR1 and USR2 are the dump requests themselves and only dump. */
		struct sigaction dfl;
		sigemptyset(&dfl.sa_mask);
		dfl.sa_flags = 0;
		dfl.sa_handler = SIG_DFL;
		sigaction(sig, &dfl, NULL);
		raise(sig);
	}
}

static void install_signal_dump(int sig)
{
	struct sigaction action;
	sigemptyset(&action.sa_mask);
	action.sa_flags = SA_SIGINFO | SA_RESTART;
	action.sa_sigaction = on_dump_signal;
	sigaction(sig, &action, &previous_action);
}

/* A forked child counts only its own calls, into its own file. */
static void start_over_in_child(void)
{
	if (dump_fd >= 0)
		close(dump_fd); /* the parent's file stays the parent's */
	dump_fd = -1;
	dump_written = false;
	dump_owner = getpid();
	dump_busy = 0;
	record_reset();
	profile_restart_in_child();
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
	line_add(&l, "MEMSHIM_HIST=");
	line_add_quoted(&l, config_get()->hist_path, 200);
	line_add(&l, ": cannot write dumps there: ");
	add_reason(&l, err);
	say_problem(&l);
}

void hist_dump_start(void)
{
	const struct config *c = config_get();
	if (!c->hist_path[0])
		return;
	check_dump_directory();
	dump_owner = getpid();
	pthread_atfork(NULL, NULL, start_over_in_child);
	if (c->hist_interval)
		start_interval_dumps();
	if (c->hist_signal)
		install_signal_dump(c->hist_signal);
	if (c->callsite_every)
		record_start_callsites(c->callsite_every);
	if (c->profile_hz)
		profile_start(c->profile_hz);
	if (c->timing_every)
		record_start_timing(c->timing_every);
	record_started();
}
