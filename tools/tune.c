/* memshim tune: from recorded histograms and this machine's cost curves
 * (tools/calibrate/cost_model.h), the variant and thresholds that would cost the
 * recorded calls least, as the environment line to use. */
#include "config.h"

#include "dispatch/calibration.h"
#include "dispatch/settings.h"
#include "shim/thresholds.h"
#include "tools/commands.h"
#include "tools/tune/tune.h"
#include "tools/calibrate/calibrate.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"
#include "tools/util/default_source.h"
#include "tools/util/output_file.h"
#include "dump/reader/load.h"
#include "dump/reader/read.h"
#include "tools/measure/load.h"
#include "tools/measure/replay.h"
#include "tools/util/units_shares.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char tune_help[] =
	"usage: memshim tune [--calibration FILE] DUMP...\n"
	"       memshim tune --impl SETTING [--basis replay|histogram]\n"
	"                        [--placement WHERE] [--fenced] [--calibration FILE]\n"
	"                        DUMP...\n"
	"       memshim tune --calibrate [--quick] [--install | --calibration FILE]\n"
	"                        [DUMP...]\n"
	"Predicts, from dumps (MEMSHIM_DUMP) and this machine's cost curves,\n"
	"the time each variant and threshold would spend in memcpy, memmove and\n"
	"memset: sum over size buckets of calls x cost(variant, size).  Prints the\n"
	"best setting as an environment line, and its predicted saving against the\n"
	"default and against glibc, with the spread over the calibration's rounds\n"
	"(none where that spread spans zero or the dumps' own measurements find the\n"
	"model more than 2x off: then why, and the memshim ab --timing run to make);\n"
	"and the GLIBC_TUNABLES line that gives glibc's own functions the same\n"
	"thresholds, where the setting has some glibc can take.  Under a saving of\n"
	"less than 1% of the program's CPU time (dumps with a profile) it says that no\n"
	"memshim ab of the whole program resolves it, and whether ab --in-process can.\n"
	"It calibrates only when asked (--calibrate); without a calibration it\n"
	"says so and predicts nothing.\n"
	"  --calibrate          measure the cost curves (10-45 s) and write them, with\n"
	"                       this machine's best thresholds and each function's best\n"
	"                       variant, to the measured file (the default file's path\n"
	"                       with .measured added), which tune reads and a program\n"
	"                       reads only when asked (MEMSHIM_CALIBRATION=FILE): the\n"
	"                       default of preloaded programs stays as it was\n"
	"  --install            with --calibrate: write the default file instead, which\n"
	"                       every program preloaded with libmemshim.so reads: its\n"
	"                       variants and thresholds become their default\n"
	"  --quick              with --calibrate: fewer sizes and rounds (about 10 s)\n"
	"  --impl SETTING       instead: predict SETTING against glibc, in MEMSHIM_IMPL's\n"
	"                       syntax (a variant, bands such as glibc:1K,avx2, a preset)\n"
	"                       or an environment line as tune prints it, with the\n"
	"                       thresholds a program started here would have (the\n"
	"                       calibration file's, the variables'), from the replay of\n"
	"                       the dumps' windows of calls (memshim record --sequences),\n"
	"                       else from the histogram; the last line says which\n"
	"  --basis WHICH        with --impl: replay or histogram, whatever the dumps hold\n"
	"  --placement WHERE    with --impl, the replay's: L1, L2, L3 or cold for every\n"
	"                       size (default: each size class where the dumps' timed\n"
	"                       calls of glibc's functions put it, between two of those,\n"
	"                       fenced; classes without: L2 to 32 KiB, cold beyond)\n"
	"  --fenced             with --impl, the replay times each call alone between\n"
	"                       fences, as ab --timing's timed calls run\n"
	"  --calibration FILE   the calibration file (default: $MEMSHIM_CALIBRATION, else the\n"
	"                       newer of the measured file and the default file:\n"
	"                       $XDG_CACHE_HOME/memshim/calibration, else\n"
	"                       ~/.cache/memshim/calibration)\n"
	"The prediction covers the time inside these functions only.  Where the dumps\n"
	"hold windows of calls, the best setting is also replayed on them against the\n"
	"default, and no best setting is named unless that replay puts it below 1.\n"
	"A DUMP may be a directory (every dump and recording in it); a dump that cannot\n"
	"be read is named with the reason and left out, one cut short is read up to\n"
	"its last complete line and named as cut; the exit status is then 1.\n";

struct options {
	bool calibrate, quick, tiny, install;
	const char *calibration;
	const char *impl, *basis; /* --impl SETTING, --basis replay|histogram */
	struct tune_replay_how how; /* --placement, --fenced */
	char **files; /* histogram files and directories: argc entries at most */
	unsigned file_count;
};

enum { TUNE_CALIBRATE = 1, TUNE_QUICK, TUNE_TINY, TUNE_INSTALL, TUNE_CALIBRATION, TUNE_IMPL, TUNE_BASIS, TUNE_PLACEMENT, TUNE_FENCED };

/* --tiny, not in the help: a calibration of a few seconds of CPU, for the tests. */
static const struct option tune_options[] = {
	{ "calibrate", no_argument, NULL, TUNE_CALIBRATE },
	{ "quick", no_argument, NULL, TUNE_QUICK },
	{ "tiny", no_argument, NULL, TUNE_TINY },
	{ "install", no_argument, NULL, TUNE_INSTALL },
	{ "calibration", required_argument, NULL, TUNE_CALIBRATION },
	{ "impl", required_argument, NULL, TUNE_IMPL },
	{ "basis", required_argument, NULL, TUNE_BASIS },
	{ "placement", required_argument, NULL, TUNE_PLACEMENT },
	{ "fenced", no_argument, NULL, TUNE_FENCED },
	{ 0 },
};

static int placement_named(const char *value, int *place)
{
	for (int i = 0; i < PLACE_COUNT; i++)
		if (strcasecmp(value, placement_names[i]) == 0 || (i == PLACE_L1 && strcmp(value, "hot") == 0)) {
			*place = i;
			return 0;
		}
	return cli_usage_error("tune", "--placement \"%s\": give L1, L2, L3 or cold", value);
}

static int apply_option(void *context, int id, const char *name, const char *value)
{
	struct options *o = context;
	if (id == TUNE_CALIBRATE)
		o->calibrate = true;
	else if (id == TUNE_QUICK)
		o->quick = true;
	else if (id == TUNE_TINY)
		o->tiny = true;
	else if (id == TUNE_INSTALL)
		o->install = true;
	else if (id == TUNE_IMPL && !value[0])
		return cli_usage_error("tune", "--impl needs a setting (a variant, bands or a preset)");
	else if (id == TUNE_IMPL)
		o->impl = value;
	else if (id == TUNE_BASIS && strcmp(value, "replay") != 0 && strcmp(value, "histogram") != 0)
		return cli_usage_error("tune", "--basis \"%s\": give replay or histogram", value);
	else if (id == TUNE_BASIS)
		o->basis = value;
	else if (id == TUNE_PLACEMENT)
		return placement_named(value, &o->how.place);
	else if (id == TUNE_FENCED)
		o->how.fenced = true;
	else if (!value[0])
		return cli_usage_error("tune", "%s needs a file name", name);
	else
		o->calibration = value;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .how = { TUNE_PLACE_BY_TIMING, false } };
	const struct cli_syntax syntax = { "tune", tune_options, false };
	int first, rc = cli_parse_options(argc, argv, &syntax, apply_option, o, &first);
	if (rc)
		return rc;
	o->files = calloc((size_t)argc, sizeof *o->files);
	if (!o->files)
		return 1;
	for (int i = first; i < argc; i++) {
		o->files[o->file_count++] = argv[i];
	}
	if (!o->calibrate && !o->file_count)
		return cli_usage_error("tune", "no histogram files given (and no --calibrate)");
	if (o->quick && !o->calibrate)
		return cli_usage_error("tune", "--quick goes with --calibrate");
	if (o->install && (!o->calibrate || o->calibration))
		return cli_usage_error("tune", "--install goes with --calibrate, without --calibration (it writes the default file)");
	if (o->impl && (o->calibrate || !o->file_count))
		return cli_usage_error("tune", "--impl predicts from histogram files, without --calibrate");
	if ((o->basis || o->how.place != TUNE_PLACE_BY_TIMING || o->how.fenced) && !o->impl)
		return cli_usage_error("tune", "--basis, --placement and --fenced go with --impl");
	return 0;
}

/* ---- the default a preloaded program gets ---- */

/* The default in force now; read before a calibration changes the thresholds. */
static void default_in_force(struct tune_default *d)
{
	const struct config *config = config_get();
	const char *why;
	for (int t = 0; t < T_COUNT; t++) {
		d->t[t] = (double)threshold_value(&config->thresholds, (enum threshold_name)t);
		d->origin[t] = config->origin[t];
	}
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct band_list bands;
		config_default_bands((enum base_function)fn, &bands, &why);
		band_list_format(&bands, d->text[fn]);
		d->variant[fn] = d->text[fn];
	}
}

/* Whether the library reads its calibration from path, in this environment. */
static bool library_reads(const char *path)
{
	char read[4096];
	bool named;
	return calibration_path(read, sizeof read, &named) && strcmp(read, path) == 0;
}

/* The default once the calibration file at path is read, as the library
 * reads it; the environment's thresholds still win. */
static void default_after_calibration(struct tune_default *d, const char *path)
{
	struct thresholds t = config_get()->thresholds;
	struct calibration_choices choices;
	memset(&choices, 0, sizeof choices);
	if (!calibration_apply(path, false, &t, &choices))
		return;
	for (int th = 0; th < T_COUNT; th++)
		if (threshold_keys((enum threshold_name)th)->file_key && d->origin[th] != FROM_ENVIRONMENT) {
			d->t[th] = (double)threshold_value(&t, (enum threshold_name)th);
			d->origin[th] = FROM_FILE;
		}
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (choices.bands[fn].count) {
			band_list_format(&choices.bands[fn], d->text[fn]);
			d->variant[fn] = d->text[fn];
		}
}


/* ---- the command ---- */

static enum calibration_level level_of(const struct options *o)
{
	return o->tiny ? CALIBRATE_TINY : o->quick ? CALIBRATE_QUICK : CALIBRATE_FULL;
}

/* Where other work ran beside the calibration, its thresholds and choices
 * move between runs (D33): said, with what to do. */
#define BUSY_LOAD 0.5

/* Whether the calibration just written at path is now the default of
 * every preloaded program, or read only by those that ask for it. */
static void say_whose_default(const char *path)
{
	char source[4200];
	if (library_reads(path)) {
		printf("  installed: every program started with libmemshim.so preloaded from now on has\n"
		       "  these as its default (a MEMSHIM_* variable still overrides them); to undo: rm %s\n", path);
		return;
	}
	default_source(source, sizeof source);
	printf("  only tune and the programs that ask read it (MEMSHIM_CALIBRATION=FILE); the default of\n"
	       "  preloaded programs is unchanged: %s;\n"
	       "  memshim tune --calibrate --install makes this calibration the default\n", source);
}

static int calibrate(const char *path, enum calibration_level level, struct calibration *c)
{
	char why[600], movsb[32], stosb[32], nt[32];
	time_t start = time(NULL);
	struct machine_time before = machine_time_now();
	calibration_guard_signals(); /* Ctrl-C leaves the old file, and no temporary one */
	int rc = calibrate_measure(c, level);
	double others = others_busy(before, machine_time_now());
	if (rc)
		return rc;
	if (!calibration_write(path, c, why, sizeof why)) {
		fprintf(stderr, "memshim tune: %s\n", why);
		return 1;
	}
	printf("memshim tune: calibrated in %ld s, %u curves, costs in %s (%s)\n", (long)(time(NULL) - start),
	       c->count, c->unit, c->clock);
	printf("  wrote %s; the rep and non-temporal thresholds for this machine: rep movsb from %s,\n"
	       "  rep stosb from %s, non-temporal from %s (the library reads them at start-up)\n",
	       path, human_size(c->movsb, movsb, sizeof movsb), human_size(c->stosb, stosb, sizeof stosb),
	       human_size(c->nt, nt, sizeof nt));
	if (others >= BUSY_LOAD)
		printf("  the machine was busy: other work kept %.1f CPUs of %ld busy while it measured, so its\n"
		       "  thresholds and choices may differ from one run to the next; calibrate again when it is quiet\n",
		       others, sysconf(_SC_NPROCESSORS_ONLN));
	printf("  resolution: glibc against itself read within %.1f%% of 1 on the fleet distributions in\n"
	       "  every placement; a variant is the default only where it reads at most 1.03x glibc's time in\n"
	       "  every size class and on the fleet distribution, in every placement, and the least on the\n"
	       "  fleet distribution, below 1 beyond its interval; where none is, size bands: in each class\n"
	       "  the variant that loses in no placement, if it beats glibc by more than 5%%, else glibc\n",
	       100 * c->aa_deviation);
	printf("  the default's variants for this machine:\n");
	for (int fn = 0; fn < FN_COUNT; fn++)
		printf("  %-7s -> %s: %s\n", base_function_names[fn], c->choice[fn], c->choice_why[fn]);
	say_whose_default(path);
	return 0;
}

/* The calibration for a prediction: the file.  A calibration takes
 * seconds and loads the machine, so it runs only when asked
 * (--calibrate); without a file, one line says how to ask. */
static int load_calibration(const char *path, bool default_path, struct calibration *c)
{
	char why[600];
	if (calibration_read(path, c, why, sizeof why))
		return 0;
	if (!default_path || access(path, F_OK) == 0)
		fprintf(stderr, "memshim tune: %s; run memshim tune --calibrate first\n", why);
	else
		fprintf(stderr, "memshim tune: no calibration at %s; measure one with memshim tune --calibrate "
				"(10-45 s; --quick: about 10 s), then run this again\n", path);
	return 1;
}

#define MEASURED_SUFFIX ".measured"

/* Whether file a exists and b does not, or is older (a calibration
 * installed after the last measured one). */
static bool newer(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) != 0)
		return false;
	return stat(b, &sb) != 0 || sa.st_mtim.tv_sec > sb.st_mtim.tv_sec ||
	       (sa.st_mtim.tv_sec == sb.st_mtim.tv_sec && sa.st_mtim.tv_nsec > sb.st_mtim.tv_nsec);
}

/* The file tune reads and writes when no --calibration names one.  The
 * library's default file (calibration_path: MEMSHIM_CALIBRATION, else the
 * cache's memshim/calibration) sets the default of every preloaded
 * program, so a calibration goes there only with --install, or where
 * MEMSHIM_CALIBRATION names it; else to the measured file beside it, which a
 * prediction reads unless the default file is newer (installed since).  *named:
 * MEMSHIM_CALIBRATION or --install chose the file, so no quick calibration is
 * written there unasked.  False when there is no path. */
static bool tune_path(const struct options *o, char *path, size_t size, bool *named)
{
	if (!calibration_path(path, size, named))
		return false;
	if (*named || o->install)
		return *named = true;
	char measured[4096];
	if (snprintf(measured, sizeof measured, "%s" MEASURED_SUFFIX, path) >= (int)sizeof measured)
		return false;
	bool read_installed = !o->calibrate && newer(path, measured);
	if (!read_installed)
		snprintf(path, size, "%s", measured);
	return true;
}

/* Where no file was named and this machine has none: the calibration a
 * recording ran under, which the quickstart keeps beside it (DIR.calibration
 * beside DIR, for DIR or DIR/merged), so that tune does not measure again
 * what was measured a minute before.  False where there is none. */
static bool recording_calibration(const struct options *o, char *path, size_t size)
{
	for (unsigned i = 0; i < o->file_count; i++) {
		char dir[4096], beside[4200];
		snprintf(dir, sizeof dir, "%s", o->files[i]);
		size_t len = strlen(dir);
		while (len > 1 && dir[len - 1] == '/')
			dir[--len] = '\0';
		if (len > 7 && strcmp(dir + len - 7, "/merged") == 0)
			dir[len - 7] = '\0';
		snprintf(beside, sizeof beside, "%s.calibration", dir);
		if (strlen(beside) < size && access(beside, R_OK) == 0) {
			snprintf(path, size, "%s", beside);
			return true;
		}
	}
	return false;
}

/* Which calibration the prediction rests on, and what kind: a quick one
 * times fewer rounds a size on a coarser grid than a full one, while its
 * variant choices come from the same class cases; so where the two choose
 * differently, a cell lay near the choice rule's edge (the reasons in the
 * file's choice lines say which), not the quick one's grid. */
static void say_calibration(const char *path, const char *source, const struct calibration *c)
{
	const char *level = calibrate_level_name(c->rounds);
	printf("memshim tune: the calibration in %s (%s", path, source);
	if (level)
		printf("; a %s one, %u rounds a size", level, c->rounds);
	printf(")\n");
	if (level && strcmp(level, "full") != 0)
		printf("  (its curves are coarser than a full one's; its variant choices come from the same class\n"
		       "  cases, so a full one chooses otherwise only where a class lay near the choice rule's edge:\n"
		       "  the reasons in its choice lines say which; memshim tune --calibrate makes a full one)\n");
}

/* Bad dumps are named and left out, as report does; *left_out says so. */
static int read_dumps(const struct options *o, struct dump *d, bool *left_out)
{
	int bad = dump_load("tune", o->files, o->file_count, d);
	*left_out = bad != 0;
	return bad < 0 || (o->file_count && d->files == 0) ? 1 : 0; /* every bad one is named */
}

int cmd_tune(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, tune_help, false))
		return 0;
	struct options o;
	int rc = parse_options(argc, argv, &o);
	char path[4096];
	bool named = false;
	const char *source = "--calibration";
	if (!rc && o.calibration)
		snprintf(path, sizeof path, "%s", o.calibration);
	else if (!rc && !tune_path(&o, path, sizeof path, &named))
		rc = cli_usage_error("tune", "no calibration file: set HOME or XDG_CACHE_HOME, or give --calibration FILE");
	else if (!rc)
		source = named ? "MEMSHIM_CALIBRATION" : "this machine's";
	if (!rc && !o.calibration && !named && !o.calibrate && access(path, F_OK) != 0 &&
	    recording_calibration(&o, path, sizeof path)) {
		source = "the one the recording ran under, beside it";
		named = true;
	}
	if (rc) {
		free(o.files); /* parse_options may have listed them before it refused */
		return rc;
	}
	/* whenever tune calibrates, the file is its output */
	const char *output = path;
	if ((rc = output_check_names("tune", &output, 1, o.files, o.file_count)) != 0) {
		free(o.files);
		return rc;
	}
	static struct dump d;
	hist_dump_init(&d);
	bool left_out;
	rc = read_dumps(&o, &d, &left_out); /* before a minute of calibration, not after */
	struct calibration *c = malloc(sizeof *c);
	struct tune_default def;
	default_in_force(&def); /* before a calibration sets thresholds of its own */
	if (!rc && !c)
		rc = 1;
	bool replay_only = o.impl && (o.basis ? strcmp(o.basis, "replay") == 0 : d.window_count > 0);
	if (!rc && o.impl && replay_only)
		rc = tune_impl(NULL, &d, o.impl, o.basis, o.how);
	else if (!rc && o.impl && !(rc = load_calibration(path, !o.calibration && !named, c)))
		rc = tune_impl(c, &d, o.impl, o.basis, o.how);
	if (o.impl) {
		free(c);
		free(o.files);
		hist_dump_free(&d);
		return rc ? rc : left_out;
	}
	if (!rc && o.calibrate)
		rc = calibrate(path, level_of(&o), c);
	else if (!rc)
		rc = load_calibration(path, !o.calibration && !named, c);
	if (!rc && o.calibrate && library_reads(path))
		default_after_calibration(&def, path);
	if (!rc && o.file_count) {
		say_calibration(path, o.calibrate ? "measured just now" : source, c);
		rc = tune_predict(c, &d, &def);
	}
	free(c);
	free(o.files);
	hist_dump_free(&d);
	return rc ? rc : left_out;
}