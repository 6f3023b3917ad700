/* memshim merge and memshim record: many dumps into one file, and one step
 * from a command to its report. */
#include "tools/record.h"

#include "dispatch/config.h"
#include "tools/cli.h"
#include "tools/cli_options.h"
#include "tools/dump_load.h"
#include "tools/report.h"

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
	"like the dumps it adds up.  OUT is written to OUT.tmp, then renamed; it may\n"
	"not be one of the inputs.  A dump that cannot be read is named and left out;\n"
	"the exit status is then 1.\n";

/* Whether OUT is the same file as one of the inputs. */
static bool is_input(const char *out, const struct dump_inputs *in)
{
	struct stat o, i;
	if (stat(out, &o) != 0)
		return false;
	for (size_t k = 0; k < in->count; k++)
		if (stat(in->paths[k], &i) == 0 && i.st_dev == o.st_dev && i.st_ino == o.st_ino)
			return true;
	return false;
}

/* Writes d as one merged dump at out, through out.tmp; false (with a message) if it failed. */
static bool write_merged(const char *command, const char *out, const struct dump *d)
{
	size_t size = strlen(out) + 5;
	char *tmp = malloc(size);
	if (!tmp)
		return false;
	snprintf(tmp, size, "%s.tmp", out);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	bool ok = fd >= 0 && hist_write_merged(fd, d);
	int saved = errno;
	if (fd >= 0 && close(fd) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	if (ok && rename(tmp, out) != 0) {
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

/* Reads the inputs and writes them merged to out: 0, 1 (some left out) or 2 (nothing written). */
static int merge(const char *command, const char *out, char *const *args, size_t n, struct dump_inputs *in)
{
	unsigned bad = 0;
	if (!dump_inputs_expand(command, args, n, in, &bad)) {
		fprintf(stderr, "memshim %s: out of memory\n", command);
		return 2;
	}
	if (is_input(out, in)) {
		fprintf(stderr, "memshim %s: %s is one of the inputs; give another -o\n", command, out);
		return 2;
	}
	static struct dump d;
	hist_dump_init(&d);
	bad += dump_load_inputs(command, in, &d);
	dump_merge_sites(&d);
	int rc = bad ? 1 : 0;
	if (d.processes == 0) {
		fprintf(stderr, "memshim %s: no readable dump\n", command);
		rc = 2;
	} else if (!write_merged(command, out, &d)) {
		rc = 2;
	}
	hist_dump_free(&d);
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, merge_help, false))
		return 0;
	const char *out = NULL;
	int i = 1;
	if (i + 1 < argc && (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0)) {
		out = argv[i + 1];
		i += 2;
	} else if (i < argc && strncmp(argv[i], "--output=", 9) == 0) {
		out = argv[i++] + 9;
	}
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (!out || !*out || i >= argc) {
		fprintf(stderr, "memshim merge: needs -o OUT and at least one dump (see memshim merge --help)\n");
		return 2;
	}
	struct dump_inputs in;
	int rc = merge("merge", out, argv + i, (size_t)(argc - i), &in);
	dump_inputs_free(&in);
	return rc;
}

/* ---- record ---- */

static const char record_help[] =
	"usage: memshim record [-o|--output DIR] [--keep] [--profile[=HZ]] [--timing[=N]] [RUN OPTIONS]\n"
	"                      -- COMMAND [ARGS...]\n"
	"Runs COMMAND as memshim run does, recording it and every process it starts\n"
	"(MEMSHIM_HIST=DIR/processes/%e.%p), then merges their dumps into DIR/merged,\n"
	"prints the report, and exits with COMMAND's exit status.  A process that\n"
	"cannot write its dump says so in DIR/problems too (MEMSHIM_PROBLEMS_FD), and\n"
	"the report ends with those lines.\n"
	"  -o, --output DIR where the dumps go (default memshim-record); it must not\n"
	"                   hold a recording already\n"
	"  --keep           keep the dump of each process in DIR/processes\n"
	"  --profile[=HZ]   MEMSHIM_PROFILE: also measure the share of CPU time in each\n"
	"                   function (HZ samples per second of CPU time; default on)\n"
	"  --timing[=N]     MEMSHIM_TIMING: also time one call in N with the time-stamp\n"
	"                   counter, for the ns per call by size class (default on: N = 64)\n"
	"RUN OPTIONS are those of memshim run (--impl, --erms-threshold, ...).\n";

struct record_options {
	const char *dir, *profile, *timing;
	bool keep;
	int run_from; /* the first argument passed on to memshim run */
};

static int parse_record(int argc, char **argv, struct record_options *o)
{
	*o = (struct record_options){ .dir = "memshim-record" };
	int i = 1;
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) && i + 1 < argc)
			o->dir = argv[++i];
		else if (strncmp(argv[i], "--output=", 9) == 0)
			o->dir = argv[i] + 9;
		else if (strcmp(argv[i], "--keep") == 0)
			o->keep = true;
		else if (strcmp(argv[i], "--profile") == 0)
			o->profile = "on";
		else if (strncmp(argv[i], "--profile=", 10) == 0)
			o->profile = argv[i] + 10;
		else if (strcmp(argv[i], "--timing") == 0)
			o->timing = "on";
		else if (strncmp(argv[i], "--timing=", 9) == 0)
			o->timing = argv[i] + 9;
		else
			break; /* memshim run's options, and --, from here */
	}
	o->run_from = i;
	if (!*o->dir) {
		fprintf(stderr, "memshim record: -o needs a directory (see memshim record --help)\n");
		return -1;
	}
	if (o->profile) {
		char *end;
		unsigned long hz = strtoul(o->profile, &end, 10);
		if (strcmp(o->profile, "on") != 0 && (*end || !*o->profile || hz == 0 || o->profile[0] == '-')) {
			fprintf(stderr, "memshim record: --profile=%s is not a number of samples per second\n", o->profile);
			return -1;
		}
	}
	unsigned every;
	if (o->timing && strcmp(o->timing, "on") != 0 && !cli_whole_number(o->timing, 1, TIMING_MAX_EVERY, &every)) {
		fprintf(stderr, "memshim record: --timing=%s is not on or a whole number from 1 to %d (one call in N timed)\n",
		        o->timing, TIMING_MAX_EVERY);
		return -1;
	}
	return 0;
}

/* DIR and DIR/processes, new: a recording never mixes with an older one. */
static int make_directories(const char *dir, char *processes, size_t size)
{
	snprintf(processes, size, "%s/processes", dir);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "memshim record: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (mkdir(processes, 0755) != 0) {
		fprintf(stderr, "memshim record: cannot create %s: %s%s\n", processes, strerror(errno),
		        errno == EEXIST ? " (it holds a recording: choose another -o, or remove it)" : "");
		return -1;
	}
	return 0;
}

/* Runs argv through memshim run in a child; its exit status as a shell gives it. */
static int run_child(int argc, char **argv)
{
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "memshim record: cannot start: %s\n", strerror(errno));
		return 126;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		_exit(cmd_run(argc, argv));
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

int cmd_record(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, record_help, true))
		return 0;
	struct record_options o;
	if (parse_record(argc, argv, &o) != 0)
		return 2;
	char processes[4096], pattern[4200], merged[4200];
	if (make_directories(o.dir, processes, sizeof processes) != 0)
		return 2;
	snprintf(pattern, sizeof pattern, "%s/%%e.%%p", processes);
	snprintf(merged, sizeof merged, "%s/merged", o.dir);
	char problems_path[4200];
	int problems = open_problems(o.dir, problems_path, sizeof problems_path);
	if (setenv("MEMSHIM_HIST", pattern, 1) != 0 || (o.profile && setenv("MEMSHIM_PROFILE", o.profile, 1) != 0) ||
	    (o.timing && setenv("MEMSHIM_TIMING", o.timing, 1) != 0))
		return 2;
	/* Ctrl-C reaches the command; the recording is still merged after it */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	argv[o.run_from - 1] = "run";
	int status = run_child(argc - o.run_from + 1, argv + o.run_from - 1);
	if (rmdir(processes) == 0) { /* empty */
		fprintf(stderr, "memshim record: no process of the command wrote a dump (did it start? LD_PRELOAD "
		                "reaches no static or Go program)\n");
		print_problems(problems, problems_path);
		return status;
	}
	char *dirs[] = { processes };
	struct dump_inputs in;
	int rc = merge("record", merged, dirs, 1, &in);
	if (rc != 2 && !o.keep)
		remove_merged(&in, processes);
	dump_inputs_free(&in);
	if (rc != 2) {
		fflush(stdout);
		char *report_args[] = { "report", merged, NULL };
		cmd_report(2, report_args);
		printf("\nthe merged dump: %s\n", merged);
	}
	print_problems(problems, problems_path);
	return status;
}
