/* memshim report: merges any number of histogram dumps and shows where a
 * program's copy time goes: the share of CPU time first (with a profile),
 * then totals, size percentiles by calls and by bytes, size classes, a bar
 * chart, alignment and aliasing tables, programs, call sites; or the same as
 * JSON, folded stacks, an SVG plot, a pprof profile, or fleetbench's
 * distribution format (each in tools/report/). */
#include "tools/commands.h"

#include "dispatch/config.h"
#include "tools/report/pprof.h"
#include "tools/report/report.h"
#include "tools/util/escape.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"
#include "tools/util/output_file.h"
#include "dump/reader/read.h"
#include "tools/report/symbolize.h"
#include "tools/util/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static const char report_help[] =
	"usage: memshim report [OPTIONS] FILE|DIR...\n"
	"Merges dumps (written with MEMSHIM_DUMP=PATH; a directory stands for\n"
	"every dump and recording in it) and prints, first, its bottom line: the share\n"
	"of CPU time in the three functions together, what the recording added, any\n"
	"hazard, where the time goes and what a setting must win to show; then the\n"
	"share of CPU time in each function when the dumps have a profile\n"
	"(MEMSHIM_PROFILE), and the time per call when they have timed calls\n"
	"(MEMSHIM_TIMING), then per function totals, size percentiles by calls and by\n"
	"bytes, size classes (with their time), a bar chart, alignment and 4 KiB-\n"
	"aliasing tables, and the top call sites by time, bytes and calls (named with\n"
	"function and file:line where the objects allow).\n"
	"  --json                 print the merged histogram as JSON instead\n"
	"  --folded               print the sampled call stacks, folded for flamegraph.pl\n"
	"                         and speedscope (root;...;caller;function bytes); they\n"
	"                         need call sites (memshim record --sites)\n"
	"  --by-program           a table of every program in the dumps\n"
	"  --program NAME         only the dumps of program NAME\n"
	"  --svg OUT.svg          also write a plot (log size axis; calls, bytes, time)\n"
	"  --fleetbench-csv PREFIX also write PREFIXMemcpy.csv, PREFIXMemmove.csv and\n"
	"                         PREFIXMemset.csv in fleetbench's size:probability format\n"
	"  --pprof OUT.pb.gz      also write a gzip-compressed pprof profile (pprof,\n"
	"                         Pyroscope, Parca): calls, bytes and CPU time by stack,\n"
	"                         labelled with program, variant and size class\n"
	"  --top N                call sites to show (default 10)\n"
	"  --force                replace the files --svg, --pprof and --fleetbench-csv\n"
	"                         name when they exist (else they are refused, as record\n"
	"                         and merge refuse theirs)\n"
	"A directory holding recordings stands for each, and its files that are not\n"
	"dumps are named in one line.  A file that cannot be read is named with the\n"
	"reason and left out; a dump cut short is read up to its last complete line\n"
	"and named as cut; the exit status is then 1.\n";

/* ---- the command ---- */

/* More call sites than any dump holds. */
#define REPORT_MAX_TOP 1000000

enum { REPORT_JSON = 1, REPORT_FOLDED, REPORT_BY_PROGRAM, REPORT_PROGRAM, REPORT_SVG, REPORT_FLEETBENCH,
       REPORT_TOP, REPORT_PPROF, REPORT_FORCE };

static const struct option report_options[] = {
	{ "json", no_argument, NULL, REPORT_JSON },
	{ "folded", no_argument, NULL, REPORT_FOLDED },
	{ "by-program", no_argument, NULL, REPORT_BY_PROGRAM },
	{ "program", required_argument, NULL, REPORT_PROGRAM },
	{ "svg", required_argument, NULL, REPORT_SVG },
	{ "fleetbench-csv", required_argument, NULL, REPORT_FLEETBENCH },
	{ "top", required_argument, NULL, REPORT_TOP },
	{ "pprof", required_argument, NULL, REPORT_PPROF },
	{ "force", no_argument, NULL, REPORT_FORCE },
	{ 0 },
};

static int apply_option(void *context, int id, const char *name, const char *value)
{
	struct report_options *o = context;
	if (id == REPORT_JSON)
		o->json = true;
	else if (id == REPORT_FOLDED)
		o->folded = true;
	else if (id == REPORT_BY_PROGRAM)
		o->by_program = true;
	else if (id == REPORT_PROGRAM)
		o->program = value;
	else if (id == REPORT_SVG)
		o->svg = value;
	else if (id == REPORT_FLEETBENCH)
		o->fleetbench = value;
	else if (id == REPORT_PPROF && pprof_missing())
		return cli_usage_error("report", "--pprof: %s", pprof_missing());
	else if (id == REPORT_PPROF)
		o->pprof = value;
	else if (id == REPORT_FORCE)
		o->force = true;
	else if (!cli_whole_number(value, 0, REPORT_MAX_TOP, &o->top))
		return cli_usage_error("report", "%s \"%s\" is not a whole number from 0 to %d", name, value,
				       REPORT_MAX_TOP);
	return 0;
}

static int parse_options(int argc, char **argv, struct report_options *o)
{
	*o = (struct report_options){ .top = 10 };
	const struct cli_syntax syntax = { "report", report_options, false };
	int rc = cli_parse_options(argc, argv, &syntax, apply_option, o, &o->first_file);
	if (rc)
		return rc;
	if (o->json + o->folded > 1)
		return cli_usage_error("report", "--json and --folded are two outputs; choose one");
	return 0;
}

/* 0, or 2 after one line, when path exists and --force was not given. */
static int refuse_existing(const char *path, const char *option)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return 0;
	fprintf(stderr, "memshim report: %s exists (%s never replaces a file without --force)\n", path, option);
	return CLI_USAGE;
}

/* The files the options would write, refused before anything is read if
 * one is there already (unless --force), names an input, or names the
 * same file as another. */
static int check_outputs(const struct report_options *o, char *const *inputs, size_t input_count)
{
	static const char *const fleetbench[] = { "Memcpy.csv", "Memmove.csv", "Memset.csv" };
	char paths[3][4096];
	const char *outputs[5] = { o->svg, o->pprof };
	for (unsigned i = 0; o->fleetbench && i < 3; i++) {
		snprintf(paths[i], sizeof paths[i], "%s%s", o->fleetbench, fleetbench[i]);
		outputs[2 + i] = paths[i];
	}
	int rc = output_check_names("report", outputs, 5, inputs, input_count);
	for (unsigned i = 0; !rc && !o->force && i < 5; i++)
		if (outputs[i])
			rc = refuse_existing(outputs[i], i == 0 ? "--svg" : i == 1 ? "--pprof" : "--fleetbench-csv");
	return rc;
}

static void print_text(struct dump *d, const struct report_options *o)
{
	char title[1200];
	write_escaped(stdout, dump_title(d, title, sizeof title), ESCAPE_TEXT);
	printf(" (read from %u file%s)\n", d->files, d->files == 1 ? "" : "s");
	print_bottom_line(d);
	print_hazards(d);
	print_time(d);
	print_timing(d);
	if (o->by_program || d->program_count > 1)
		print_programs(d, o->by_program ? d->program_count : o->top);
	for (int fn = 0; fn < FN_COUNT; fn++)
		print_function(d, fn);
	print_cpu_sites(d, o->top);
	print_time_sites(d, o->top);
	print_callsites(d, o->top);
	if (d->callsite_count && !symbolize_available())
		printf("(this memshim was built without libdw: call sites show as object+offset)\n");
}

int cmd_report(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, report_help, false))
		return 0;
	struct report_options o;
	int rc = parse_options(argc, argv, &o);
	if (rc)
		return rc;
	if (o.first_file >= argc) {
		fprintf(stderr, "memshim report: no dump files given (see memshim report --help)\n");
		return 2;
	}
	if ((rc = check_outputs(&o, argv + o.first_file, (size_t)(argc - o.first_file))) != 0)
		return rc;
	struct dump *d = malloc(sizeof *d);
	if (!d)
		return 1;
	hist_dump_init(d);
	d->program_filter = o.program;
	int bad = dump_load("report", argv + o.first_file, (size_t)(argc - o.first_file), d);
	int status = bad ? 1 : 0;
	dump_merge_sites_said("report", d);
	sort_items(d->callsites, d->callsite_count, sizeof *d->callsites, by_amount);
	sort_items(d->cpu_sites, d->cpu_site_count, sizeof *d->cpu_sites, by_amount);
	sort_items(d->time_sites, d->time_site_count, sizeof *d->time_sites, by_amount);
	if (d->files == 0) {
		fprintf(stderr, "memshim report: no readable dump\n");
		status = 1;
	} else if (d->processes == 0) {
		fprintf(stderr, "memshim report: no dump of program %s in these files\n", o.program);
		status = 1;
	} else if (o.json) {
		print_json(d);
	} else if (o.folded && d->callsite_count == 0) {
		fprintf(stderr, "memshim report: no call sites were recorded in these dumps, so there are no stacks "
		                "to fold (record them with memshim record --sites, or MEMSHIM_CALLSITES=N)\n");
		status = 1;
	} else if (o.folded) {
		print_folded(d);
	} else {
		print_text(d, &o);
	}
	if (d->processes && o.svg && write_svg(d, o.svg, o.force) != 0)
		status = 1;
	if (d->processes && o.fleetbench && write_fleetbench(d, o.fleetbench, o.force) != 0)
		status = 1;
	if (d->processes && o.pprof && write_pprof(d, o.pprof, o.force, argv + o.first_file, (size_t)(argc - o.first_file)) != 0)
		status = 1;
	symbolize_end();
	hist_dump_free(d);
	free(d);
	return status;
}
