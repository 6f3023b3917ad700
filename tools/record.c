/* memshim merge and memshim record: many dumps into one file, and one step
 * from a command to its report. */
#include "tools/record.h"

#include "dispatch/config.h"
#include "tools/cli.h"
#include "tools/cli_options.h"
#include "tools/dump_load.h"
#include "tools/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char merge_help[] =
	"usage: memshim merge -o|--output OUT FILE|DIR...\n"
	"Adds up histogram dumps (a directory stands for every dump in it) into one\n"
	"dump, OUT, with one section per program, which memshim report and tune read\n"
	"like the dumps it adds up.  OUT must not exist: merge never replaces a file\n"
	"(it is written to OUT.tmp, then named OUT).  A dump that cannot be read is\n"
	"named and left out; the exit status is then 1, as when OUT cannot be written.\n";

/* Writes d as one merged dump at out, through out.tmp; false (with a message) if it failed. */
static bool write_merged(const char *command, const char *out, const struct dump *d)
{
	size_t size = strlen(out) + 5;
	char *tmp = malloc(size);
	if (!tmp)
		return false;
	snprintf(tmp, size, "%s.tmp", out);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	bool ok = fd >= 0 && hist_write_merged(fd, d);
	int saved = errno;
	if (fd >= 0 && close(fd) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	if (ok && !hist_take_name(tmp, out)) {
		ok = false;
		saved = errno;
	}
	if (!ok) {
		fprintf(stderr, "memshim %s: cannot write %s: %s\n", command, fd >= 0 ? out : tmp, strerror(saved));
		if (fd >= 0)
			unlink(tmp);
	}
	free(tmp);
	return ok;
}

/* Reads the inputs and writes them merged to out; *written says whether
 * it was.  The exit status: 0, 1 (some left out, or nothing written), or 2
 * (out exists already). */
static int merge(const char *command, const char *out, char *const *args, size_t n, struct dump_inputs *in,
                 bool *written)
{
	unsigned bad = 0;
	*written = false;
	if (!dump_inputs_expand(command, args, n, in, &bad)) {
		fprintf(stderr, "memshim %s: out of memory\n", command);
		return CLI_FAILED;
	}
	struct stat there;
	if (lstat(out, &there) == 0) {
		fprintf(stderr, "memshim %s: %s exists (a merge never replaces a file); give another -o\n", command, out);
		return CLI_USAGE;
	}
	static struct dump d;
	hist_dump_init(&d);
	bad += dump_load_inputs(command, in, &d);
	dump_merge_sites(&d);
	if (d.processes == 0)
		fprintf(stderr, "memshim %s: no readable dump\n", command);
	else
		*written = write_merged(command, out, &d);
	hist_dump_free(&d);
	return bad || !*written ? CLI_FAILED : CLI_OK;
}

static int apply_merge_option(void *context, int id, const char *name, const char *value)
{
	(void)id;
	if (!value[0])
		return cli_usage_error("merge", "%s needs a file name", name);
	*(const char **)context = value;
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, merge_help, false))
		return 0;
	static const struct option options[] = { { "output", required_argument, NULL, 'o' }, { 0 } };
	const struct cli_syntax syntax = { "merge", options, false };
	const char *out = NULL;
	int first, rc = cli_parse_options(argc, argv, &syntax, apply_merge_option, &out, &first);
	if (rc)
		return rc;
	if (!out || first >= argc)
		return cli_usage_error("merge", "needs -o OUT and at least one dump");
	struct dump_inputs in;
	bool written;
	rc = merge("merge", out, argv + first, (size_t)(argc - first), &in, &written);
	dump_inputs_free(&in);
	return rc;
}

/* ---- record ---- */

static const char record_help[] =
	"usage: memshim record [-o|--output DIR] [--keep] [--profile[=HZ]] [--sites[=N]] [--timing[=N]]\n"
	"                      [RUN OPTIONS]\n"
	"                      -- COMMAND [ARGS...]\n"
	"Runs COMMAND as memshim run does, recording it and every process it starts\n"
	"(MEMSHIM_HIST=DIR/processes/%e.%p), then merges their dumps into DIR/merged,\n"
	"prints the report, and exits with COMMAND's exit status.  A process that\n"
	"cannot write its dump says so in DIR/problems too (MEMSHIM_PROBLEMS_FD), and\n"
	"the report ends with those lines.\n"
	"  -o, --output DIR where the dumps go; a DIR that holds a recording already\n"
	"                   (a merged dump, processes/, any dump) is refused.  Without\n"
	"                   -o: memshim-record, or, when that holds one, the first free\n"
	"                   of memshim-record.1, .2, ... (the last line says which)\n"
	"  --keep           keep the dump of each process in DIR/processes\n"
	"  --profile[=HZ]   MEMSHIM_PROFILE: also measure the share of CPU time in each\n"
	"                   function (HZ samples per second of CPU time; default on)\n"
	"  --sites[=N]      MEMSHIM_CALLSITES: record the call sites (the callers, three\n"
	"                   frames) of one call in N (default 100), for the report's\n"
	"                   top call sites and report --folded\n"
	"  --timing[=N]     MEMSHIM_TIMING: also time one call in N with the time-stamp\n"
	"                   counter, for the ns per call by size class (default on: N = 64)\n"
	"RUN OPTIONS are those of memshim run (--impl, --erms-threshold, ...).\n";

#define RECORD_DEFAULT_DIR "memshim-record"
#define RECORD_SITES_DEFAULT "100"
#define RECORD_SITES_MAX 1073741824 /* MEMSHIM_CALLSITES's largest */

struct record_options {
	const char *dir; /* -o; NULL: the default */
	const char *profile, *sites, *timing;
	bool keep;
};

/* record's own ids, above run's */
enum { RECORD_KEEP = 64, RECORD_PROFILE, RECORD_SITES, RECORD_TIMING, RECORD_OUTPUT = 'o' };

static const struct option record_own_options[] = {
	{ "output", required_argument, NULL, RECORD_OUTPUT },
	{ "keep", no_argument, NULL, RECORD_KEEP },
	{ "profile", optional_argument, NULL, RECORD_PROFILE },
	{ "sites", optional_argument, NULL, RECORD_SITES },
	{ "timing", optional_argument, NULL, RECORD_TIMING },
};
#define RECORD_OWN (sizeof record_own_options / sizeof record_own_options[0])

static int apply_record_option(void *context, int id, const char *name, const char *value)
{
	struct record_options *o = context;
	unsigned n;
	if (id == RECORD_OUTPUT && !value[0])
		return cli_usage_error("record", "%s needs a directory", name);
	if (id == RECORD_OUTPUT)
		o->dir = value;
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
		fprintf(stderr, "memshim record: %s holds a recording already; give another -o, or remove it\n", dir);
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

/* Runs argv (argv[0] the program) as memshim run does, in a child; its exit
 * status as a shell gives it. */
static int run_child(char **argv)
{
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "memshim record: cannot start: %s\n", strerror(errno));
		return 126;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		_exit(run_exec("record", argv));
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 126;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
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
	if (setenv("MEMSHIM_HIST", pattern, 1) == 0 &&
	    (!o->profile || setenv("MEMSHIM_PROFILE", o->profile, 1) == 0) &&
	    (!o->sites || setenv("MEMSHIM_CALLSITES", o->sites, 1) == 0) &&
	    (!o->timing || setenv("MEMSHIM_TIMING", o->timing, 1) == 0))
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
	merge("record", merged, dirs, 1, &in, &written);
	if (written && !o->keep)
		remove_merged(&in, processes);
	dump_inputs_free(&in);
	if (!written)
		return;
	fflush(stdout);
	char *report_args[] = { "report", merged, NULL };
	cmd_report(2, report_args);
	printf("\nthe merged dump: %s%s\n", merged,
	       numbered ? " (" RECORD_DEFAULT_DIR " holds an earlier recording, kept as it was)" : "");
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
	snprintf(processes, sizeof processes, "%s/processes", dir);
	if ((rc = set_recording(&o, processes)) != 0 || (rc = make_directories(dir, processes, &created)) != 0)
		return rc;
	int problems = open_problems(dir, problems_path, sizeof problems_path);
	/* Ctrl-C reaches the command; the recording is still merged after it */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	int status = run_child(argv + first);
	if (rmdir(processes) == 0) { /* empty */
		fprintf(stderr, "memshim record: no process of the command wrote a dump: none called memcpy, "
		                "memmove or memset through the library (LD_PRELOAD reaches no static or Go program)\n");
		print_problems(problems, problems_path);
		if (created)
			rmdir(dir); /* when nothing is left in it */
		return status;
	}
	merge_and_report(&o, dir, processes, numbered);
	print_problems(problems, problems_path);
	return status;
}
