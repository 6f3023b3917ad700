/* memshim: the command-line tool.  One subcommand per function below; each
 * takes --help. */
#include "config.h"

#include "dispatch/config.h"
#include "dispatch/cpu_features.h"
#include "dispatch/cpu_rows.h"
#include "dispatch/variants.h"
#include "tools/commands.h"
#include "tools/util/measure.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"
#include "tools/util/cli_reach.h"
#include "tools/util/glibc_info.h"
#include "tools/util/launch.h"
#include "tools/util/calibration.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *yes_no(bool b) { return b ? "yes" : "no"; }

static void print_size(const char *label, size_t bytes)
{
	if (bytes == 0)
		printf("  %-4s unknown\n", label);
	else if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
		printf("  %-4s %zu MiB\n", label, bytes >> 20);
	else
		printf("  %-4s %zu KiB\n", label, bytes >> 10);
}

static const char info_help[] =
	"usage: memshim info\n"
	"Prints the CPU features that decide the choice of variant, the variants,\n"
	"and what each function resolves to in a program started with the current\n"
	"environment (MEMSHIM_* variables), and why; then, beside it, glibc's own\n"
	"choice here and its thresholds (ld.so --list-diagnostics).\n";

/* Where the default's bands come from when no calibration file decides. */
static void print_cpu_row(const struct cpu_features *f)
{
	const struct cpu_row *r = cpu_row_for(f);
	if (!r) {
		printf("Shipped CPU row: none for this CPU class (%u rows; `memshim tune --calibrate` measures this machine)\n",
		       cpu_row_count);
		return;
	}
	printf("Shipped CPU row: %s, measured on %s\n", r->file, r->measured);
}

int cmd_info(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, info_help, false))
		return 0;
	static const struct option none[] = { { 0 } };
	const struct cli_syntax syntax = { "info", none, false };
	int first, rc = cli_parse_options(argc, argv, &syntax, NULL, NULL, &first);
	if (rc)
		return rc;
	if (first < argc)
		return cli_usage_error("info", "unexpected argument %s", argv[first]);
	const struct cpu_features *f = cpu_features();
	printf("CPU: %s, family %u (0x%x), model %u (0x%x)\n", f->vendor, f->family, f->family,
	       f->model, f->model);
	printf("  ERMS %s  FSRM %s  FZRM %s  FSRS %s  FSRC %s\n", yes_no(f->erms), yes_no(f->fsrm),
	       yes_no(f->fzrm), yes_no(f->fsrs), yes_no(f->fsrc));
	printf("  AVX2 %s  AVX-512 F %s  BW %s  VL %s  BMI2 %s  (vector features count only if the OS saves their state)\n",
	       yes_no(f->avx2), yes_no(f->avx512f), yes_no(f->avx512bw), yes_no(f->avx512vl), yes_no(f->bmi2));
	printf("Caches:\n");
	print_size("L1d", f->l1d_bytes);
	print_size("L2", f->l2_bytes);
	print_size("L3", f->l3_bytes);

	printf("Variants:\n");
	for (unsigned i = 0; i < variant_count; i++) {
		const struct variant *v = &variant_table[i];
		printf("  %-13s %-10s %s\n", v->name, variant_usable(v) ? "usable" : "NOT usable", v->summary);
	}
	printf("Policies (MEMSHIM_IMPL=POLICY picks a variant or size bands per function for this CPU):\n");
	struct band_list picks;
	const char *why, *policy;
	for (unsigned i = 0; (policy = config_policy(i, FN_MEMCPY, &picks, &why)) != NULL; i++) {
		printf("  %-8s", policy);
		for (int fn = 0; fn < FN_COUNT; fn++) {
			char text[BAND_TEXT_MAX];
			config_policy(i, (enum base_function)fn, &picks, &why);
			band_list_format(&picks, text);
			printf("%s %s %s", fn ? "," : "", base_function_names[fn], text);
		}
		printf(" (%s)\n", why);
	}
	print_cpu_row(f);

	const struct config *c = config_get();
	printf("A program started now with this environment gets:\n");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct line l;
		line_start(&l);
		config_describe(c, (enum base_function)fn, &l);
		printf("  %.*s\n", (int)l.len, l.text);
	}
	printf("  (mempcpy and __memcpy_chk follow memcpy; __memmove_chk and bcopy follow memmove;\n"
	       "   __memset_chk, bzero and explicit_bzero follow memset)\n");
	struct line l;
	line_start(&l);
	config_describe_thresholds(c, &l);
	printf("  %.*s\n", (int)l.len, l.text);
	glibc_info_print();
	return 0;
}

static const char run_help[] =
	"usage: memshim run [OPTIONS] -- COMMAND [ARGS...]\n"
	"Runs COMMAND with libmemshim.so preloaded (after any LD_PRELOAD already set).\n"
	"Options set the matching MEMSHIM_* variables:\n"
	"  --impl VARIANT          MEMSHIM_IMPL: the variant (or policy: kernel, auto)\n"
	"                          for every function\n"
	"  --erms-threshold BYTES  MEMSHIM_ERMS_THRESHOLD (erms: rep movsb from here)\n"
	"  --stosb-threshold BYTES MEMSHIM_STOSB_THRESHOLD (erms: rep stosb from here)\n"
	"  --auto-movsb-threshold BYTES  MEMSHIM_AUTO_MOVSB_THRESHOLD (*_erms vector\n"
	"                          variants: rep movsb from here)\n"
	"  --auto-stosb-threshold BYTES  MEMSHIM_AUTO_STOSB_THRESHOLD (*_erms vector\n"
	"                          variants: rep stosb from here)\n"
	"  --nt-threshold BYTES    MEMSHIM_NT_THRESHOLD (vector variants: non-temporal\n"
	"                          stores from here)\n"
	"  --verbose               MEMSHIM_VERBOSE=1: print the choice at start\n"
	"The library is $MEMSHIM_LIBRARY if set, else the installed one.  A program\n"
	"LD_PRELOAD cannot reach (static, Go without cgo) is run all the same, after\n"
	"one line that says so.\n"
	"Exit status: COMMAND's own; 126 when it cannot be run, 127 when it is not\n"
	"found; 1 when the library is not found; 2 for a usage error.\n";

/* The options of `memshim run`; each sets a MEMSHIM_* variable. */
enum { RUN_IMPL = 1, RUN_VERBOSE, RUN_ERMS, RUN_STOSB, RUN_AUTO_MOVSB, RUN_AUTO_STOSB, RUN_NT };

static const char *const size_variables[] = {
	[RUN_ERMS] = "MEMSHIM_ERMS_THRESHOLD",
	[RUN_STOSB] = "MEMSHIM_STOSB_THRESHOLD",
	[RUN_AUTO_MOVSB] = "MEMSHIM_AUTO_MOVSB_THRESHOLD",
	[RUN_AUTO_STOSB] = "MEMSHIM_AUTO_STOSB_THRESHOLD",
	[RUN_NT] = "MEMSHIM_NT_THRESHOLD",
};

const struct option run_options[] = {
	{ "impl", required_argument, NULL, RUN_IMPL },
	{ "verbose", no_argument, NULL, RUN_VERBOSE },
	{ "erms-threshold", required_argument, NULL, RUN_ERMS },
	{ "stosb-threshold", required_argument, NULL, RUN_STOSB },
	{ "auto-movsb-threshold", required_argument, NULL, RUN_AUTO_MOVSB },
	{ "auto-stosb-threshold", required_argument, NULL, RUN_AUTO_STOSB },
	{ "nt-threshold", required_argument, NULL, RUN_NT },
	{ 0 },
};

static int set_variable(const char *command, const char *variable, const char *value)
{
	if (setenv(variable, value, 1) == 0)
		return 0;
	fprintf(stderr, "memshim %s: cannot set %s: %s\n", command, variable, strerror(errno));
	return CLI_FAILED;
}

int apply_run_option(void *command_name, int id, const char *option, const char *value)
{
	const char *command = command_name;
	if (id == RUN_VERBOSE)
		return set_variable(command, "MEMSHIM_VERBOSE", "1");
	if (id == RUN_IMPL) {
		if (!config_name_known(value)) {
			const char *meant = config_name_in_other_case(value);
			fprintf(stderr, "memshim %s: --impl \"%s\" is not a variant or policy%s%s%s; try `memshim info`\n",
			        command, value, meant ? " (did you mean " : "", meant ? meant : "", meant ? "?)" : "");
			return CLI_USAGE;
		}
		return set_variable(command, "MEMSHIM_IMPL", value);
	}
	unsigned long long n;
	const char *problem = parse_byte_count(value, 1ull << 40, &n);
	if (problem) {
		fprintf(stderr, "memshim %s: %s \"%s\" %s\n", command, option, value, problem);
		return CLI_USAGE;
	}
	return set_variable(command, size_variables[id], value);
}

/* A relative MEMSHIM_HIST is taken by each process from the directory it
 * starts in; made absolute here, every process of the command dumps where
 * the user meant. */
static int absolute_hist_path(const char *command)
{
	const char *path = getenv("MEMSHIM_HIST");
	char cwd[PATH_MAX];
	if (!path || !*path || path[0] == '/')
		return 0;
	if (!getcwd(cwd, sizeof cwd)) {
		fprintf(stderr, "memshim %s: MEMSHIM_HIST=%s is relative and the working directory is unknown\n",
		        command, path);
		return -1;
	}
	size_t size = strlen(cwd) + strlen(path) + 2;
	char *absolute = malloc(size);
	if (!absolute)
		return -1;
	snprintf(absolute, size, "%s/%s", cwd, path);
	int rc = setenv("MEMSHIM_HIST", absolute, 1);
	free(absolute);
	return rc;
}

/* As a shell does: 127 when there is no such command, 126 when there is
 * one that cannot be run. */
static int exec_failure_status(int error) { return error == ENOENT || error == ENOTDIR ? 127 : 126; }

int run_exec(const char *command, char **argv)
{
	cli_prepare_preload(command, argv[0]);
	if (cli_preload_library() != 0 || absolute_hist_path(command) != 0)
		return CLI_FAILED;
	execvp(argv[0], argv);
	int error = errno;
	fprintf(stderr, "memshim %s: cannot run %s: %s\n", command, argv[0], strerror(error));
	return exec_failure_status(error);
}

int run_check(const char *command, const char *program)
{
	char *found = cli_find_program(program);
	if (found) {
		free(found);
		return 0;
	}
	/* a path to a file that is there cannot be run; anything else is not found */
	int error = strchr(program, '/') && access(program, F_OK) == 0 ? EACCES : ENOENT;
	fprintf(stderr, "memshim %s: cannot run %s: %s\n", command, program, strerror(error));
	return exec_failure_status(error);
}

int cmd_run(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, run_help, true))
		return 0;
	const struct cli_syntax syntax = { "run", run_options, true };
	int first, rc = cli_parse_options(argc, argv, &syntax, apply_run_option, "run", &first);
	if (rc)
		return rc;
	return run_exec("run", argv + first);
}

static const struct cli_command commands[] = {
	{ "info", cmd_info, "CPU features, variants, and what each function resolves to" },
	{ "run", cmd_run, "run a program with the library preloaded" },
	{ "report", cmd_report, "merge histogram dumps and show sizes, alignment, call sites" },
	{ "record", cmd_record, "record a command and its children, merge, and report" },
	{ "merge", cmd_merge, "add up histogram dumps into one" },
	{ "bench", cmd_bench, "time every variant against glibc's on this machine" },
	{ "ab", cmd_ab, "time a command under several settings, interleaved" },
	{ "tune", cmd_tune, "predict the best variant and thresholds for recorded histograms" },
	{ "cpu-row", cmd_cpu_row, "write a CPU row: the default's size bands for this CPU class, measured" },
	{ NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
	return cli_main(argc, argv, commands);
}
