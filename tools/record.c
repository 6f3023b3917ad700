/* memshim record: one step from a command to its report. */
#include "tools/commands.h"
#include "tools/record/record.h"

#include "dispatch/config.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"
#include "tools/util/cli_reach.h"
#include "dump/reader/merge.h"
#include "tools/util/launch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define RECORD_DEFAULT_DIR "memshim-record"

static const char record_help[] =
	"usage: memshim record [-o|--output DIR] [--report FILE] [--keep] [--profile[=HZ]]\n"
	"                      [--sites[=N]] [--timing[=N]] [RUN OPTIONS]\n"
	"                      -- COMMAND [ARGS...]\n"
	"Runs COMMAND as memshim run does, recording it and every process it starts\n"
	"(MEMSHIM_DUMP=DIR/processes/%e.%p), then merges their dumps into DIR/merged,\n"
	"prints the report on standard error (COMMAND's standard output stays its\n"
	"own), and exits with COMMAND's exit status (128 + N when signal N ended it).\n"
	"SIGTERM, SIGINT or SIGHUP sent to record is passed on to COMMAND (to its\n"
	"process group when record has no terminal), and record still merges what\n"
	"was dumped; if record is killed, COMMAND gets SIGTERM, and memshim report\n"
	"DIR reads the dumps left in DIR/processes.  A process that cannot write its\n"
	"dump says so in DIR/problems too (MEMSHIM_PROBLEMS_FD), and the report ends\n"
	"with those lines.\n"
	"  -o, --output DIR where the dumps go; a DIR that holds a recording already\n"
	"                   (a merged dump, processes/, any dump) is refused.  Without\n"
	"                   -o: " RECORD_DEFAULT_DIR ", or, when that holds one, the first free\n"
	"                   of " RECORD_DEFAULT_DIR ".1, .2, ... (the last line says which)\n"
	"  --report FILE    the report into FILE, new (never replaced), not on stderr\n"
	"  --keep           keep the dump of each process in DIR/processes\n"
	"  --profile[=HZ]   MEMSHIM_PROFILE: also measure the share of CPU time in each\n"
	"                   function (HZ samples per second of CPU time; default on)\n"
	"  --sites[=N]      MEMSHIM_CALLSITES: record the call stacks (whole, up to\n"
	"                   MEMSHIM_STACK_DEPTH frames, 64) of one call in N (default\n"
	"                   100), for the report's top call sites and report --folded\n"
	"  --timing[=N]     MEMSHIM_TIMING: also time one call in N with the time-stamp\n"
	"                   counter, for the ns per call by size class (default on: N = 64)\n"
	"  --sequences[=N]  MEMSHIM_SEQUENCES: also keep windows of N consecutive calls\n"
	"                   (default 64) from moments at random, for bench --replay\n"
	"                   and tune --impl\n"
	"RUN OPTIONS are those of memshim run (--impl, --erms-threshold, ...).\n";

#define RECORD_SITES_DEFAULT "100"
#define RECORD_SITES_MAX 1073741824 /* MEMSHIM_CALLSITES's largest */

struct record_options {
	const char *dir; /* -o; NULL: the default */
	const char *profile, *sites, *timing, *sequences;
	const char *report; /* --report FILE; NULL: stderr */
	bool keep;
};

/* record's own ids, above run's */
enum { RECORD_KEEP = 64, RECORD_PROFILE, RECORD_SITES, RECORD_TIMING, RECORD_SEQUENCES, RECORD_REPORT,
       RECORD_OUTPUT = 'o' };

static const struct option record_own_options[] = {
	{ "output", required_argument, NULL, RECORD_OUTPUT },
	{ "keep", no_argument, NULL, RECORD_KEEP },
	{ "report", required_argument, NULL, RECORD_REPORT },
	{ "profile", optional_argument, NULL, RECORD_PROFILE },
	{ "sites", optional_argument, NULL, RECORD_SITES },
	{ "timing", optional_argument, NULL, RECORD_TIMING },
	{ "sequences", optional_argument, NULL, RECORD_SEQUENCES },
};
#define RECORD_OWN (sizeof record_own_options / sizeof record_own_options[0])

static int apply_record_option(void *context, int id, const char *name, const char *value)
{
	struct record_options *o = context;
	unsigned n;
	if (id == RECORD_OUTPUT && !value[0])
		return cli_usage_error("record", "%s needs a directory", name);
	if (id == RECORD_REPORT && !value[0])
		return cli_usage_error("record", "%s needs a file name", name);
	if (id == RECORD_OUTPUT)
		o->dir = value;
	else if (id == RECORD_REPORT)
		o->report = value;
	else if (id == RECORD_KEEP)
		o->keep = true;
	else if (id == RECORD_PROFILE && value && !cli_whole_number(value, 2, PROFILE_MAX_HZ, &n))
		return cli_usage_error("record", "--profile=\"%s\": expected samples per second from 2 to %d", value,
		                       PROFILE_MAX_HZ); /* 1 would be MEMSHIM_PROFILE=1, "on" */
	else if (id == RECORD_PROFILE)
		o->profile = value ? value : "on";
	else if (id == RECORD_SITES && value && !cli_whole_number(value, 1, RECORD_SITES_MAX, &n))
		return cli_usage_error("record", "--sites=%s is not a whole number from 1 to %d (one call in N)",
		                       value, RECORD_SITES_MAX);
	else if (id == RECORD_SITES)
		o->sites = value ? value : RECORD_SITES_DEFAULT;
	else if (id == RECORD_TIMING && value && strcmp(value, "on") != 0 &&
	         !cli_whole_number(value, 1, TIMING_MAX_EVERY, &n))
		return cli_usage_error("record", "--timing=%s is not on or a whole number from 1 to %d (one call in N timed)",
		                       value, TIMING_MAX_EVERY);
	else if (id == RECORD_TIMING)
		o->timing = value ? value : "on";
	else if (id == RECORD_SEQUENCES && value && !cli_whole_number(value, 1, SEQUENCES_MAX_LENGTH, &n))
		return cli_usage_error("record", "--sequences=%s is not a whole number from 1 to %d (calls a window holds)",
		                       value, SEQUENCES_MAX_LENGTH);
	else if (id == RECORD_SEQUENCES)
		o->sequences = value ? value : "on";
	else
		return apply_run_option("record", id, name, value);
	return 0;
}

/* Parses record's options and run's, with the parser every command uses;
 * *first: the command's index in argv. */
static int parse_record(int argc, char **argv, struct record_options *o, int *first)
{
	static struct option options[RECORD_OWN + 16];
	size_t n = 0;
	for (; n < RECORD_OWN; n++)
		options[n] = record_own_options[n];
	for (const struct option *r = run_options; r->name && n + 1 < sizeof options / sizeof options[0]; r++)
		options[n++] = *r;
	options[n] = (struct option){ 0 };
	*o = (struct record_options){ 0 };
	const struct cli_syntax syntax = { "record", options, true };
	return cli_parse_options(argc, argv, &syntax, apply_record_option, o, first);
}

/* Whether the file `name` in directory fd begins as a dump does. */
static bool is_dump_file(int dir_fd, const char *name)
{
	static const char magic[] = "memshim-histogram";
	char head[sizeof magic - 1];
	int fd = openat(dir_fd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, head, sizeof head) : -1;
	if (fd >= 0)
		close(fd);
	return got == (ssize_t)sizeof head && memcmp(head, magic, sizeof head) == 0;
}

/* Whether dir holds a recording of any kind: a merged dump, processes/,
 * problems, or any dump. */
static bool holds_recording(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return false; /* none there; or mkdir will say what is wrong */
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d)))
		found = strcmp(e->d_name, "merged") == 0 || strcmp(e->d_name, "processes") == 0 ||
		        strcmp(e->d_name, "problems") == 0 || is_dump_file(dirfd(d), e->d_name);
	closedir(d);
	return found;
}

/* The directory of this recording, into dir: -o DIR, refused (2) if it
 * holds a recording; else the first of memshim-record, memshim-record.1,
 * ... that holds none (*numbered: not the first). */
static int choose_directory(const struct record_options *o, char *dir, size_t size, bool *numbered)
{
	*numbered = false;
	if (o->dir) {
		snprintf(dir, size, "%s", o->dir);
		if (!holds_recording(dir))
			return 0;
		fprintf(stderr, "memshim record: %s holds a recording already (memshim report %s reads it); "
		                "give another -o, or remove it\n", dir, dir);
		return CLI_USAGE;
	}
	for (unsigned n = 0; n < 10000; n++) {
		snprintf(dir, size, n ? RECORD_DEFAULT_DIR ".%u" : RECORD_DEFAULT_DIR, n);
		if (!holds_recording(dir)) {
			*numbered = n > 0;
			return 0;
		}
	}
	fprintf(stderr, "memshim record: " RECORD_DEFAULT_DIR " to " RECORD_DEFAULT_DIR
	                ".9999 hold recordings; give -o DIR\n");
	return CLI_FAILED;
}

/* DIR (unless there: *created says) and DIR/processes, new: a recording
 * never mixes with another.  Nothing is left behind if it fails. */
static int make_directories(const char *dir, const char *processes, bool *created)
{
	*created = mkdir(dir, 0755) == 0;
	if (!*created && errno != EEXIST) {
		fprintf(stderr, "memshim record: cannot create %s: %s\n", dir, strerror(errno));
		return CLI_FAILED;
	}
	if (mkdir(processes, 0755) == 0)
		return 0;
	int error = errno;
	fprintf(stderr, "memshim record: cannot create %s: %s%s\n", processes, strerror(error),
	        error == EEXIST ? " (another recording is under way there)" : "");
	if (*created)
		rmdir(dir);
	return error == EEXIST ? CLI_USAGE : CLI_FAILED;
}

/* Removes the dumps merged into DIR/merged (never one left out: it is the
 * only copy of what it holds), and DIR/processes if that empties it. */
static void remove_merged(const struct dump_inputs *in, const char *processes)
{
	for (size_t i = 0; i < in->count && in->read; i++)
		if (in->read[i])
			unlink(in->paths[i]);
	rmdir(processes);
}

/* DIR/problems, which the processes' own dump problems are appended to
 * (MEMSHIM_PROBLEMS_FD): a process that cannot write its dump says so there
 * as well as on its stderr, which a program may have closed or sent away.
 * Its descriptor, inherited by every process; -1 if it cannot be had. */
static int open_problems(const char *dir, char *path, size_t size)
{
	snprintf(path, size, "%s/problems", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW, 0644);
	if (fd >= 0 && fd <= STDERR_FILENO) { /* stdin, stdout or stderr closed: not in their place */
		int high = fcntl(fd, F_DUPFD, STDERR_FILENO + 1);
		close(fd);
		if ((fd = high) < 0)
			unlink(path);
	}
	char number[16];
	snprintf(number, sizeof number, "%d", fd);
	if (fd >= 0 && setenv("MEMSHIM_PROBLEMS_FD", number, 1) != 0) {
		close(fd);
		unlink(path);
		return -1;
	}
	return fd;
}

/* Prints what the processes told DIR/problems, after the report; removes
 * the file when they told nothing. */
static void print_problems(int fd, const char *path)
{
	struct stat st;
	if (fd < 0)
		return;
	if (fstat(fd, &st) != 0 || st.st_size == 0) {
		close(fd);
		unlink(path);
		return;
	}
	printf("\nproblems the processes reported (%s):\n", path);
	fflush(stdout);
	char buf[4096];
	ssize_t got;
	for (off_t at = 0; (got = pread(fd, buf, sizeof buf, at)) > 0; at += got)
		fwrite(buf, 1, (size_t)got, stdout);
	close(fd);
}

/* The variables that make the command's processes record into DIR. */
static int set_recording(const struct record_options *o, const char *processes)
{
	char pattern[4300];
	snprintf(pattern, sizeof pattern, "%s/%%e.%%p", processes);
	if (launch_set_dump(pattern) == 0 &&
	    (!o->profile || setenv("MEMSHIM_PROFILE", o->profile, 1) == 0) &&
	    (!o->sites || setenv("MEMSHIM_CALLSITES", o->sites, 1) == 0) &&
	    (!o->timing || setenv("MEMSHIM_TIMING", o->timing, 1) == 0) &&
	    (!o->sequences || setenv("MEMSHIM_SEQUENCES", o->sequences, 1) == 0))
		return 0;
	fprintf(stderr, "memshim record: cannot set the recording variables: %s\n", strerror(errno));
	return CLI_FAILED;
}

/* Merges DIR/processes into DIR/merged and prints the report. */
static void merge_and_report(const struct record_options *o, const char *dir, const char *processes,
                             bool numbered)
{
	char merged[4200];
	snprintf(merged, sizeof merged, "%s/merged", dir);
	char *dirs[] = { (char *)processes };
	struct dump_inputs in;
	bool written;
	dump_merge_files("record", merged, dirs, 1, false, &in, &written);
	if (written && !o->keep)
		remove_merged(&in, processes);
	dump_inputs_free(&in);
	if (!written)
		return;
	fflush(stdout);
	char *report_args[] = { "report", merged, NULL };
	cli_run_command(2, report_args);
	printf("\nthe merged dump: %s%s\n", merged,
	       numbered ? " (" RECORD_DEFAULT_DIR " holds an earlier recording, kept as it was)" : "");
}

/* The report's stream, from here on record's standard output (the
 * command's is its own, and done with): --report FILE, new, or stderr.
 * Opened before the command runs, so that a FILE in the way stops nothing
 * half done; -1 (said) if it cannot be. */
static int open_report(const char *path)
{
	if (!path)
		return STDERR_FILENO;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		fprintf(stderr, "memshim record: cannot write the report to %s: %s%s\n", path, strerror(errno),
		        errno == EEXIST ? " (record never replaces a file; give another --report)" : "");
	return fd;
}

/* With stderr closed (2>&-) the report has nowhere to go, and is dropped:
 * never left on the command's stdout. */
static void report_to(int fd)
{
	fflush(stdout);
	if (fcntl(fd, F_GETFD) >= 0 && dup2(fd, STDOUT_FILENO) >= 0)
		return;
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		close(STDOUT_FILENO);
	if (null >= 0)
		close(null);
}

/* Whether LD_PRELOAD reaches the program `name` (an ASan one: once first). */
static bool program_reached(const char *name)
{
	char *path = cli_find_program(name), why[512];
	enum cli_reach reach = path ? cli_preload_reachable(path, name, why, sizeof why) : REACH_OK;
	free(path);
	return reach == REACH_OK || reach == REACH_ASAN;
}

/* Why no process dumped, when the command was not killed: said once. */
static void say_nothing_dumped(int status, bool reached)
{
	if (record_signal_seen() || status == 128 + SIGKILL)
		return; /* say_how_it_ended said why */
	if (!reached)
		fprintf(stderr, "memshim record: no process of the command wrote a dump (LD_PRELOAD does not "
		                "reach the command, as said above)\n");
	else
		fprintf(stderr, "memshim record: no process of the command wrote a dump: none called memcpy, "
		                "memmove or memset through the library (LD_PRELOAD reaches no static or Go program, "
		                "nor one in secure-execution mode)\n");
}

int cmd_record(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, record_help, true))
		return 0;
	struct record_options o;
	int first, rc = parse_record(argc, argv, &o, &first);
	/* nothing is made before we know the command can start */
	if (rc || (rc = run_check("record", argv[first])) != 0)
		return rc;
	if (!cli_library_path())
		return CLI_FAILED;
	char dir[4096], processes[4200], problems_path[4200];
	bool numbered, created;
	if ((rc = choose_directory(&o, dir, sizeof dir, &numbered)) != 0)
		return rc;
	int report = open_report(o.report);
	if (report < 0)
		return CLI_USAGE;
	snprintf(processes, sizeof processes, "%s/processes", dir);
	if ((rc = set_recording(&o, processes)) != 0 || (rc = make_directories(dir, processes, &created)) != 0) {
		if (o.report)
			unlink(o.report);
		return rc;
	}
	int problems = open_problems(dir, problems_path, sizeof problems_path);
	bool reached = program_reached(argv[first]);
	/* Ctrl-\ reaches the command; record stays to merge after it */
	signal(SIGQUIT, SIG_IGN);
	int status = record_run_child(argv + first);
	report_to(report);
	bool dumped = rmdir(processes) != 0; /* not empty */
	record_say_how_it_ended(status, dumped);
	if (!dumped) {
		say_nothing_dumped(status, reached);
		print_problems(problems, problems_path);
		if (created)
			rmdir(dir); /* when nothing is left in it */
	} else {
		merge_and_report(&o, dir, processes, numbered);
		print_problems(problems, problems_path);
	}
	fflush(stdout);
	return status;
}
