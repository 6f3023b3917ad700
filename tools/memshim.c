/* memshim: the command-line tool.  One subcommand per function below; each
 * takes --help. */
#include "config.h"

#include "dispatch/config.h"
#include "dispatch/cpu_features.h"
#include "dispatch/variants.h"
#include "tools/ab.h"
#include "tools/bench.h"
#include "tools/cli.h"
#include "tools/record.h"
#include "tools/report.h"
#include "tools/tune.h"

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
	"environment (MEMSHIM_* variables), and why.\n";

static int cmd_info(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, info_help, false))
		return 0;
	if (argc > 1) {
		fprintf(stderr, "memshim info: unexpected argument %s (see memshim info --help)\n", argv[1]);
		return 2;
	}
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
		printf("  %-11s %-10s %s\n", v->name, variant_usable(v) ? "usable" : "NOT usable", v->summary);
	}
	printf("Policies (MEMSHIM_IMPL=POLICY picks a variant per function for this CPU):\n");
	const struct variant *picks;
	const char *why, *policy;
	for (unsigned i = 0; (policy = config_policy(i, FN_MEMCPY, &picks, &why)) != NULL; i++) {
		printf("  %-8s", policy);
		for (int fn = 0; fn < FN_COUNT; fn++) {
			config_policy(i, (enum base_function)fn, &picks, &why);
			printf("%s %s %s", fn ? "," : "", base_function_names[fn], picks->name);
		}
		printf(" (%s)\n", why);
	}

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
	return 0;
}

static const char run_help[] =
	"usage: memshim run [OPTIONS] -- COMMAND [ARGS...]\n"
	"Runs COMMAND with libmemshim.so preloaded (after any LD_PRELOAD already set,\n"
	"and after COMMAND's own shared libraries, so that it is relocated first).\n"
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
	"The library is $MEMSHIM_LIBRARY if set, else the installed one.\n";

static int set_checked_size(const char *option, const char *value, const char *variable)
{
	unsigned long long n;
	const char *problem = parse_byte_count(value, 1ull << 40, &n);
	if (problem) {
		fprintf(stderr, "memshim run: %s \"%s\" %s\n", option, value, problem);
		return -1;
	}
	return setenv(variable, value, 1);
}

/* The size options of `memshim run` and the variables they set. */
static const struct {
	const char *option, *variable;
} size_options[] = {
	{ "--erms-threshold", "MEMSHIM_ERMS_THRESHOLD" },
	{ "--stosb-threshold", "MEMSHIM_STOSB_THRESHOLD" },
	{ "--auto-movsb-threshold", "MEMSHIM_AUTO_MOVSB_THRESHOLD" },
	{ "--auto-stosb-threshold", "MEMSHIM_AUTO_STOSB_THRESHOLD" },
	{ "--nt-threshold", "MEMSHIM_NT_THRESHOLD" },
};

/* The variable a size option sets, or NULL. */
static const char *size_option_variable(const char *option)
{
	for (unsigned i = 0; i < sizeof size_options / sizeof size_options[0]; i++)
		if (strcmp(option, size_options[i].option) == 0)
			return size_options[i].variable;
	return NULL;
}

static bool is_run_option(const char *arg)
{
	return strcmp(arg, "--impl") == 0 || size_option_variable(arg);
}

static int apply_run_option(const char *option, const char *value)
{
	if (strcmp(option, "--impl") == 0) {
		if (!config_name_known(value)) {
			fprintf(stderr, "memshim run: --impl \"%s\" is not a variant or policy; try `memshim info`\n",
			        value);
			return -1;
		}
		return setenv("MEMSHIM_IMPL", value, 1);
	}
	return set_checked_size(option, value, size_option_variable(option));
}

/* A relative MEMSHIM_HIST is taken by each process from the directory it
 * starts in; made absolute here, every process of the command dumps where
 * the user meant. */
static int absolute_hist_path(void)
{
	const char *path = getenv("MEMSHIM_HIST");
	char cwd[PATH_MAX];
	if (!path || !*path || path[0] == '/')
		return 0;
	if (!getcwd(cwd, sizeof cwd)) {
		fprintf(stderr, "memshim run: MEMSHIM_HIST=%s is relative and the working directory is unknown\n", path);
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

int cmd_run(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, run_help, true))
		return 0;
	int i = 1;
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--verbose") == 0) {
			setenv("MEMSHIM_VERBOSE", "1", 1);
			continue;
		}
		if (argv[i][0] != '-') {
			fprintf(stderr, "memshim run: \"%s\" is not an option; put -- before the command (see memshim run --help)\n",
			        argv[i]);
			return 2;
		}
		if (!is_run_option(argv[i])) {
			fprintf(stderr, "memshim run: unknown option %s (see memshim run --help)\n", argv[i]);
			return 2;
		}
		if (i + 1 >= argc || strcmp(argv[i + 1], "--") == 0) {
			fprintf(stderr, "memshim run: %s needs a value (see memshim run --help)\n", argv[i]);
			return 2;
		}
		if (apply_run_option(argv[i], argv[i + 1]) != 0)
			return 2;
		i++;
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "memshim run: no command given after -- (see memshim run --help)\n");
		return 2;
	}
	if (cli_preload_library(argv[i + 1]) != 0 || absolute_hist_path() != 0)
		return 2;
	execvp(argv[i + 1], argv + i + 1);
	fprintf(stderr, "memshim run: cannot run %s: %s\n", argv[i + 1], strerror(errno));
	return 127;
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
	{ NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
	return cli_main(argc, argv, commands);
}
