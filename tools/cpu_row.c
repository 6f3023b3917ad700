/* memshim cpu-row: writes the row file that gives a CPU class its default
 * size bands in every build (data/cpu-rows/, compiled in by
 * dispatch/cpu_rows.awk).  The bands come from measurements made on that
 * class, by one of two routes:
 *
 *   --calibrate        tune's calibration, run here (tools/calibrate/calibrate.c),
 *                      its band choice (tools/calibrate/choose_bands.c) per function;
 *   --from-bench CSV   a `memshim bench --cases class --csv` file made on a
 *                      machine of the class, with --cpu describing it: the
 *                      same band choice on bench's size classes, each in the
 *                      placements bench measured it in (one, unless bench
 *                      ran with --every-placement; the row then says so).
 *                      Several files, runs of bench in processes of their
 *                      own: each cell the median of their figures.
 *
 * From a bench file with alias4k cases it also writes, for memcpy and
 * memmove, what a destination 16 bytes past the source in the page costs
 * each variant from 2 KiB (tools/util/alias_hazard.h).  The rep movsb and
 * rep stosb thresholds the measurements ran under (the calibration's
 * choice, or those bench's CSV names) go into the row: the *_erms
 * variants' ratios hold at those.
 *
 * The row says which CPUs it serves (vendor, family, model, and the
 * features that matter: those the measured CPU has are required, the others
 * excluded), where and how it was measured, and the ratios behind each
 * choice.  Nothing of the user's is written: only the -o file. */
#include "config.h"

#include "tools/commands.h"
#include "tools/cpu_row/cpu_row.h"

#include "dispatch/builtin.h"
#include "dispatch/cpu_features.h"
#include "dispatch/cpu_rows.h"
#include "dispatch/settings.h"
#include "dump/counts.h"
#include "shim/thresholds.h"
#include "tools/calibrate/measure_classes.h"
#include "tools/calibrate/calibrate.h"
#include "tools/util/cli.h"
#include "tools/util/row_words.h"
#include "tools/util/cli_options.h"
#include "tools/util/glibc_info.h"
#include "tools/util/hazards.h"
#include "tools/util/parse_number.h"
#include "tools/util/quantile.h"
#include "tools/calibrate/path_ties.h"
#include "tools/measure/dist_file.h"
#include "tools/measure/library.h"
#include "tools/measure/path_trace.h"
#include "tools/calibrate/choose_bands.h"
#include "tools/bench/csv.h"
#include "tools/util/commit.h" /* MEMSHIM_COMMIT, written by the build */

#include <gnu/libc-version.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>


static const char cpu_row_help[] =
	"usage: memshim cpu-row --calibrate [--quick] -o FILE\n"
	"       memshim cpu-row --from-bench CSV [--from-bench CSV...] --cpu 'VENDOR FAMILY MODEL FEATURES' -o FILE\n"
	"Writes a CPU row: the size bands the default gives memcpy, memmove and\n"
	"memset on this CPU class, chosen from measurements made on it, with the rep\n"
	"movsb and rep stosb thresholds they were made under, the CPUs it serves and\n"
	"where it came from.  A row file in data/cpu-rows/ of the source\n"
	"tree is compiled into the library: every build then gives that class its bands.\n"
	"  --calibrate          measure here, as memshim tune --calibrate does (10-45\n"
	"                       s; nothing is written but FILE)\n"
	"  --quick              with --calibrate: fewer sizes and rounds\n"
	"  --from-bench CSV     instead: the class cases of a memshim bench --csv file\n"
	"                       made on a machine of the class; given up to 5 times\n"
	"                       (bench run again, each run a process of its own),\n"
	"                       each cell the median of the files' ratios\n"
	"  --cpu DESCRIPTION    with --from-bench: that machine's vendor, family, model\n"
	"                       (decimal) and features, as 'AuthenticAMD 25 1 erms,fsrm,avx2'\n"
	"                       (features: erms, fsrm, avx2, avx512)\n"
	"  --path-below-1k      with --from-bench: up to 1 KiB, count a variant as tying\n"
	"                       glibc where its path, traced here, is no longer than that\n"
	"                       of glibc's function here (memshim bench --path; set\n"
	"                       GLIBC_TUNABLES so that glibc picks the one the bench's\n"
	"                       CPU runs); the row names it\n"
	"  --alias-from CSV     with --from-bench: the alias4k cases from this bench file\n"
	"                       (made on the class too) instead\n"
	"  -o, --output FILE    the row file to write\n";

/* One run of bench can be off in a cell by more than its interval says,
 * so a row may take several (D24). */
#define MAX_BENCH_FILES 5

struct options {
	bool calibrate, quick, path_below_1k;
	bool read_back; /* the bench files read each destination back (bench --read-back) */
	bool l3;        /* they measured the L3 placement (bench since it had one) */
	double aa_deviation; /* the widest A/A deviation of their cases (0: not timed) */
	char glibc_names[400]; /* --path-below-1k: glibc's functions the paths were held to */
	const char *bench_csv[MAX_BENCH_FILES], *alias_csv, *cpu, *output;
	unsigned bench_files;
};

enum { ROW_CALIBRATE = 1, ROW_QUICK, ROW_FROM_BENCH, ROW_CPU, ROW_PATH_BELOW_1K, ROW_ALIAS_FROM, ROW_OUTPUT = 'o' };

static const struct option row_options[] = {
	{ "calibrate", no_argument, NULL, ROW_CALIBRATE },
	{ "quick", no_argument, NULL, ROW_QUICK },
	{ "from-bench", required_argument, NULL, ROW_FROM_BENCH },
	{ "cpu", required_argument, NULL, ROW_CPU },
	{ "path-below-1k", no_argument, NULL, ROW_PATH_BELOW_1K },
	{ "alias-from", required_argument, NULL, ROW_ALIAS_FROM },
	{ "output", required_argument, NULL, ROW_OUTPUT },
	{ 0 },
};

static int apply_option(void *context, int id, const char *name, const char *value)
{
	struct options *o = context;
	if (value && !*value)
		return cli_usage_error("cpu-row", "%s needs a value", name);
	switch (id) {
	case ROW_CALIBRATE: o->calibrate = true; break;
	case ROW_QUICK: o->quick = true; break;
	case ROW_FROM_BENCH:
		if (o->bench_files == MAX_BENCH_FILES)
			return cli_usage_error("cpu-row", "--from-bench at most %d times", MAX_BENCH_FILES);
		o->bench_csv[o->bench_files++] = value;
		break;
	case ROW_ALIAS_FROM: o->alias_csv = value; break;
	case ROW_CPU: o->cpu = value; break;
	case ROW_PATH_BELOW_1K: o->path_below_1k = true; break;
	default: o->output = value; break;
	}
	return 0;
}

/* The CPU a row serves, and how it was measured. */
struct row_cpu {
	char vendor[16];
	unsigned family, model;
	char features[64]; /* "erms,fsrm,avx2" */
	char measured[1024];
};

static const char *const feature_names[] = { "erms", "fsrm", "avx2", "avx512" };

static bool listed_feature(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = list; (p = strstr(p, name)) != NULL; p += len)
		if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
			return true;
	return false;
}

/* "avx512,erms" required, "-" or the rest excluded. */
static void feature_lists(const char *features, char *required, char *excluded, size_t size)
{
	required[0] = excluded[0] = '\0';
	for (unsigned i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++) {
		char *list = listed_feature(features, feature_names[i]) ? required : excluded;
		snprintf(list + strlen(list), size - strlen(list), "%s%s", *list ? "," : "", feature_names[i]);
	}
	if (!*required)
		snprintf(required, size, "-");
	if (!*excluded)
		snprintf(excluded, size, "-");
}

/* Today's date, 2026-12-01, into out (16 bytes). */
static const char *today(char out[16])
{
	time_t now = time(NULL);
	strftime(out, 16, "%Y-%m-%d", gmtime(&now));
	return out;
}

static void this_cpu(struct row_cpu *cpu, const char *how)
{
	const struct cpu_features *f = cpu_features();
	snprintf(cpu->vendor, sizeof cpu->vendor, "%s", f->vendor);
	cpu->family = f->family;
	cpu->model = f->model;
	cpu->features[0] = '\0';
	for (unsigned i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++)
		if (cpu_has_feature(f, feature_names[i]))
			snprintf(cpu->features + strlen(cpu->features), sizeof cpu->features - strlen(cpu->features),
				 "%s%s", cpu->features[0] ? "," : "", feature_names[i]);
	char date[16];
	snprintf(cpu->measured, sizeof cpu->measured,
		 "%s family %u model %u, L1d %zu KiB, L2 %zu KiB, L3 %zu MiB, %ld CPUs, glibc %s; %s; "
		 "memshim %s at commit %s, %s",
		 f->vendor, f->family, f->model, f->l1d_bytes >> 10, f->l2_bytes >> 10, f->l3_bytes >> 20,
		 sysconf(_SC_NPROCESSORS_ONLN), gnu_get_libc_version(), how, PACKAGE_VERSION, MEMSHIM_COMMIT,
		 today(date));
}

static int write_row(const char *path, const struct row_cpu *cpu, const struct calibration *c, const char *data,
		     bool one_placement, const struct alias_cases *alias)
{
	char required[64], excluded[64];
	feature_lists(cpu->features, required, excluded, sizeof required);
	FILE *f = fopen(path, "wx"); /* never over a row that is there */
	if (!f) {
		fprintf(stderr, "memshim cpu-row: cannot create %s (it must not exist yet)\n", path);
		return CLI_FAILED;
	}
	fprintf(f, "memshim-cpu-row 1\nmatch %s %u-%u %u-%u %s %s\nmeasured %s\n", cpu->vendor, cpu->family,
		cpu->family, cpu->model, cpu->model, required, excluded, cpu->measured);
	for (int fn = 0; fn < FN_COUNT; fn++)
		fprintf(f, "choice %s %s %s\n", setting_keys(function_setting((enum base_function)fn))->row_key,
			c->choice[fn], c->choice_why[fn]);
	if (c->movsb && c->stosb) {
		fprintf(f, "# Where the *_erms variants start rep movsb and rep stosb%s: the values the ratios below\n"
			   "# were measured under, given to every CPU this row serves.\n"
			   "thresholds %s=%zu %s=%zu", c->movsb_stop ? ", and where rep movsb stops" : "",
			threshold_keys(T_MOVSB)->row_key, c->movsb,
			threshold_keys(T_STOSB)->row_key, c->stosb);
		if (c->movsb_stop)
			fprintf(f, " %s=%zu", threshold_keys(T_MOVSB_STOP)->row_key, c->movsb_stop);
		fprintf(f, "\n");
	}
	if (alias && alias->count)
		fprintf(f, "# alias4k: the ns a byte that (dst - src) mod 4096 in 1..63 adds to each variant's copies\n"
			   "# from 2 KiB (bench's alias4k and hazard cases against 4k+2048, the mean over the sizes\n"
			   "# and distances).\n");
	for (int fn = FN_MEMCPY; alias && fn <= FN_MEMMOVE; fn++)
		write_alias(f, alias, fn);
	bool hazards = false;
	for (unsigned i = 0; i < c->ratio_count; i++)
		hazards |= c->ratios[i].hazard > 0;
	if (hazards)
		fprintf(f, "# hazards: each variant's time in its worst case of the hazard catalogue (bench's hazard\n"
		   "# cases, and alias4k ones from 2 KiB at a near distance) as a multiple of the best variant's\n"
		   "# there; over %.1f it is no default.\n", HAZARD_LOSS_RATIO);
	for (int fn = 0; fn < FN_COUNT; fn++)
		write_hazards(f, c, fn);
	fprintf(f, "# The ratios to glibc's time behind each choice (%s): per variant, per size class\n"
		   "# and then the fleet distribution, L1/L2/L3/cold placements (0: not measured)%s.\n", data,
		   one_placement ? " (one measured a class: written four times)" : "");
	for (unsigned i = 0; i < c->ratio_count; i++) {
		const struct band_ratios *r = &c->ratios[i];
		fprintf(f, "ratios %s %s", base_function_names[r->fn], r->variant);
		for (int k = 0; k < CHOICE_CELLS; k++)
			fprintf(f, " %.3f/%.3f/%.3f/%.3f", r->ratio[k][PLACE_L1], r->ratio[k][PLACE_L2], r->ratio[k][PLACE_L3],
				r->ratio[k][PLACE_COLD]);
		fputc('\n', f);
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "memshim cpu-row: cannot write %s\n", path);
		return CLI_FAILED;
	}
	printf("memshim cpu-row: wrote %s for %s family %u model %u (%s):\n", path, cpu->vendor, cpu->family,
	       cpu->model, cpu->features);
	for (int fn = 0; fn < FN_COUNT; fn++)
		printf("  %-7s %s\n", base_function_names[fn], c->choice[fn]);
	return CLI_OK;
}

/* ---- --from-bench ---- */

/* The ratios row of fn and variant in c, or NULL. */
static struct band_ratios *find_ratios(struct calibration *c, enum base_function fn, const char *variant)
{
	for (unsigned i = 0; i < c->ratio_count; i++)
		if (c->ratios[i].fn == fn && strcmp(c->ratios[i].variant, variant) == 0)
			return &c->ratios[i];
	return NULL;
}

/* The ratios row of fn and variant in c, added if new. */
static struct band_ratios *ratios_of(struct calibration *c, enum base_function fn, const char *variant)
{
	struct band_ratios *found = find_ratios(c, fn, variant);
	if (found || c->ratio_count == CALIBRATE_MAX_RATIOS)
		return found;
	struct band_ratios *r = &c->ratios[c->ratio_count++];
	*r = (struct band_ratios){ .fn = fn };
	snprintf(r->variant, sizeof r->variant, "%s", variant);
	return r;
}

/* The class names of bench files made before bench took the calibration's
 * (their top class, 4-32 MiB, stands for 4-16 MiB), so that the files rows
 * were made from still read. */
static const char *const earlier_bench_classes[CHOICE_CLASS_COUNT] = { "0-16", "17-64", "65-256", "257-1K", "1K-4K",
								       "4K-32K", "32K-256K", "256K-4M", "4M-32M" };

/* The placement of a bench CSV's placement column that the row's cells
 * hold, -1 for one they do not (L3): the engine's names, and the "hot"
 * and "l2" of bench files made before it had them. */
static int choice_place_named(const char *place)
{
	for (int i = 0; i < PLACE_COUNT; i++)
		if (strcasecmp(place, placement_names[i]) == 0)
			return i;
	return strcmp(place, "hot") == 0 ? PLACE_L1 : -1;
}

/* A bench file's thresholds where its lines disagree (no bench writes such a file). */
#define THRESHOLDS_MIXED SIZE_MAX

/* The rep thresholds of one CSV line into c: the first line's, or
 * THRESHOLDS_MIXED once two lines differ. */
static void take_thresholds(struct calibration *c, size_t movsb, size_t stosb, size_t movsb_stop)
{
	if (!c->movsb && !c->stosb) {
		c->movsb = movsb;
		c->stosb = stosb;
		c->movsb_stop = movsb_stop;
	} else if (c->movsb != movsb || c->stosb != stosb || c->movsb_stop != movsb_stop)
		c->movsb = c->stosb = THRESHOLDS_MIXED;
}

/* What a bench file's lines say of it as a whole. */
struct bench_lines {
	struct hazard_lines *hazards; /* where its hazard cases go (NULL: nowhere) */
	unsigned number;              /* which of the files it is */
	unsigned cells;
	bool read_back; /* some case read its destination back */
	bool l3;        /* some case had its data in the L3 */
	double aa_deviation; /* how far glibc against itself read from 1 at worst (0: not timed) */
};

/* The small classes, to 256 B, are judged in use as well (bench --in-use:
 * each source written just before its call, each destination read after
 * it, as programs use them): a cell takes the worse of the two. */
#define IN_USE_CLASSES 3

/* An alias4k case's size column; 0, a size take_alias passes over, if
 * it is not a whole number. */
static size_t alias_size(const char *size)
{
	uint64_t n;
	return parse_u64_all(size, SIZE_MAX, &n) ? (size_t)n : 0;
}

static void take_line(struct calibration *c, struct alias_cases *alias, char *line, struct bench_lines *file)
{
	static struct hazard_lines no_hazards;
	struct hazard_lines *hazards = file->hazards ? file->hazards : &no_hazards;
	char *text[COL_READ];
	double real[COL_READ];
	uint64_t whole[COL_READ];
	unsigned got = bench_csv_fields(line, text, real, whole);
	if (got <= COL_RATIO)
		return;
	const char *fn_name = text[COL_FN], *variant = text[COL_VARIANT], *kind = text[COL_KIND],
		   *size = text[COL_SIZE], *where = text[COL_WHERE], *place = text[COL_PLACE];
	double median = real[COL_MEDIAN], ratio = real[COL_RATIO], low = ratio, high = ratio;
	for (int i = 0; got > COL_AA + 2 && i < 3; i++) /* the engine's A/A arm: its resolution there */
		file->aa_deviation = fmax(file->aa_deviation, fabs(1 - real[COL_AA + i]));
	if (got > COL_STOSB)
		take_thresholds(c, whole[COL_MOVSB], whole[COL_STOSB], got > COL_STOP ? whole[COL_STOP] : 0);
	if (got > COL_READ_BACK && whole[COL_READ_BACK])
		file->read_back = true;
	if (got > COL_HIGH) { /* without an interval any median beyond the tie counts as a loss */
		low = real[COL_LOW];
		high = real[COL_HIGH];
	}
	int p = choice_place_named(place);
	int fn = -1, k = -1;
	for (int i = 0; i < FN_COUNT; i++)
		fn = strcmp(fn_name, base_function_names[i]) == 0 ? i : fn;
	bool in_use = got > COL_IN_USE && real[COL_IN_USE] == 1;
	if (in_use && strcmp(kind, "class") != 0 && strcmp(kind, "class-overlap") != 0)
		return; /* hazards and distributions are judged as bench times them plain */
	if (fn >= 0 && strcmp(kind, "alias4k") == 0)
		take_alias(alias, fn, variant, alias_size(size), where, median);
	if (fn >= 0 && strcmp(kind, "hazard") == 0 && strncmp(where, "alias4k:", 8) == 0)
		take_alias(alias, fn, variant, alias_size(size), where + 8, median);
	take_hazard(hazards, file->number, fn, kind, variant, size, where, ratio);
	/* memmove's overlapping copies (bench's class-overlap cases) count in
	 * the same cells: a variant must not lose in either */
	bool class_case = strcmp(kind, "class") == 0 || strcmp(kind, "class-overlap") == 0;
	bool fleet_case = fn >= 0 && strcmp(kind, "dist") == 0 && strcmp(size, fleet_distribution_names[fn]) == 0;
	if (!(class_case || fleet_case) || !(calibrate_is_candidate(variant) || strcmp(variant, STUB_PROBE_NAME) == 0))
		return;
	for (int i = 0; class_case && i < CHOICE_CLASS_COUNT; i++)
		k = strcmp(size, choice_classes[i].name) == 0 || strcmp(size, earlier_bench_classes[i]) == 0 ? i : k;
	k = fleet_case ? CHOICE_FLEET : k;
	if (in_use && k >= IN_USE_CLASSES)
		return;
	struct band_ratios *r = fn >= 0 && k >= 0 && p >= 0 ? ratios_of(c, (enum base_function)fn, variant) : NULL;
	if (!r)
		return;
	if (r->ratio[k][p] > 0 && r->ratio[k][p] >= ratio)
		return; /* the other of class and class-overlap, or of plain and in use, was worse */
	r->ratio[k][p] = ratio;
	r->low[k][p] = low;
	r->high[k][p] = high;
	file->cells += class_case;
	file->l3 |= p == PLACE_L3;
}

/* A class measured in fewer placements than all: each missing one takes
 * the worst measured (a loss anywhere stays one).  True if a class was
 * measured in one placement only (bench without --every-placement). */
static bool fill_placements(struct calibration *c)
{
	bool one = false;
	for (unsigned i = 0; i < c->ratio_count; i++)
		for (int k = 0; k < CHOICE_CLASS_COUNT; k++) {
			struct band_ratios *r = &c->ratios[i];
			double worst = 0;
			int measured = 0;
			for (int p = 0; p < PLACE_COUNT; p++) {
				worst = r->ratio[k][p] > worst ? r->ratio[k][p] : worst;
				measured += r->ratio[k][p] > 0;
			}
			for (int p = 0; p < PLACE_COUNT; p++)
				if (!(r->ratio[k][p] > 0) && worst > 0)
					r->ratio[k][p] = r->low[k][p] = r->high[k][p] = worst;
			one |= measured == 1;
		}
	return one;
}

/* Every line of a bench file into c and alias; false, said, if it cannot be read. */
static bool read_lines(const char *path, struct calibration *c, struct alias_cases *alias, struct bench_lines *file)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "memshim cpu-row: cannot read %s\n", path);
		return false;
	}
	char line[1024];
	while (fgets(line, sizeof line, f))
		take_line(c, alias, line, file);
	fclose(f);
	return true;
}

/* --alias-from: only the alias4k cases of another bench file. */
static int read_alias(const char *path, struct alias_cases *alias)
{
	struct calibration *unused = calloc(1, sizeof *unused);
	struct bench_lines file = { 0 };
	*alias = (struct alias_cases){ 0 };
	bool read = unused && read_lines(path, unused, alias, &file);
	free(unused);
	return read ? CLI_OK : CLI_FAILED;
}

static int read_bench(const char *path, struct calibration *c, struct alias_cases *alias, bool *one_placement,
		      struct bench_lines *lines)
{
	struct bench_lines file = { .hazards = lines->hazards, .number = lines->number };
	if (!read_lines(path, c, alias, &file))
		return CLI_FAILED;
	*lines = file;
	*one_placement = fill_placements(c);
	for (unsigned i = 0; i < c->ratio_count; i++)
		for (int k = 0; k < CHOICE_CLASS_COUNT; k++)
			if (!(c->ratios[i].ratio[k][0] > 0)) {
				fprintf(stderr, "memshim cpu-row: %s has no class %s for %s %s\n", path, choice_classes[k].name,
					base_function_names[c->ratios[i].fn], c->ratios[i].variant);
				return CLI_FAILED;
			}
	if (!file.cells) {
		fprintf(stderr, "memshim cpu-row: %s has no class cases (memshim bench --cases class --csv)\n", path);
		return CLI_FAILED;
	}
	if (c->movsb == THRESHOLDS_MIXED) {
		fprintf(stderr, "memshim cpu-row: %s: its lines ran under different rep thresholds\n", path);
		return CLI_FAILED;
	}
	return CLI_OK;
}

/* c's cells: in each, the median over the files of its ratio, and of the
 * lower end of its interval.  Every file must have every row. */
static int merge_benches(struct calibration *each, const struct options *o, struct calibration *c)
{
	for (unsigned f = 1; f < o->bench_files; f++)
		if (each[f].movsb != each[0].movsb || each[f].stosb != each[0].stosb ||
		    each[f].movsb_stop != each[0].movsb_stop) {
			fprintf(stderr, "memshim cpu-row: %s and %s ran under different rep thresholds\n", o->bench_csv[0],
				o->bench_csv[f]);
			return CLI_FAILED;
		}
	c->movsb = each[0].movsb;
	c->stosb = each[0].stosb;
	c->movsb_stop = each[0].movsb_stop;
	for (unsigned i = 0; i < each[0].ratio_count; i++) {
		const struct band_ratios *first = &each[0].ratios[i];
		struct band_ratios *in[MAX_BENCH_FILES], *r = ratios_of(c, first->fn, first->variant);
		for (unsigned f = 0; f < o->bench_files; f++)
			if (!(in[f] = find_ratios(&each[f], first->fn, first->variant))) {
				fprintf(stderr, "memshim cpu-row: %s has no class cases for %s %s\n", o->bench_csv[f],
					base_function_names[first->fn], first->variant);
				return CLI_FAILED;
			}
		for (int k = 0; r && k < CHOICE_CELLS; k++)
			for (int p = 0; p < PLACE_COUNT; p++) {
				double ratio[MAX_BENCH_FILES], low[MAX_BENCH_FILES], high[MAX_BENCH_FILES];
				for (unsigned f = 0; f < o->bench_files; f++) {
					ratio[f] = in[f]->ratio[k][p];
					low[f] = in[f]->low[k][p];
					high[f] = in[f]->high[k][p];
				}
				r->ratio[k][p] = quantile(ratio, o->bench_files, 0.5);
				r->low[k][p] = quantile(low, o->bench_files, 0.5);
				r->high[k][p] = quantile(high, o->bench_files, 0.5);
			}
	}
	return CLI_OK;
}

/* The bench files into c (the alias4k cases from the first), merged where
 * there are several: all read back, or none, for a loss with the read and
 * one without are not of one measure (D26). */
static int read_each(struct options *o, struct calibration *c, struct alias_cases *alias, bool *one_placement,
		     struct hazard_lines *hazards)
{
	struct bench_lines lines = { .hazards = hazards };
	if (o->bench_files == 1) {
		int rc = read_bench(o->bench_csv[0], c, alias, one_placement, &lines);
		o->read_back = lines.read_back;
		o->l3 = lines.l3;
		o->aa_deviation = lines.aa_deviation;
		return rc;
	}
	struct calibration *each = calloc(o->bench_files, sizeof *each);
	struct alias_cases *unused = calloc(1, sizeof *unused);
	int rc = each && unused ? CLI_OK : CLI_FAILED;
	for (unsigned f = 0; !rc && f < o->bench_files; f++) {
		bool one = false;
		lines = (struct bench_lines){ .hazards = hazards, .number = f };
		rc = read_bench(o->bench_csv[f], &each[f], f ? unused : alias, &one, &lines);
		bool read_back = lines.read_back;
		*one_placement = *one_placement || one;
		o->l3 = o->l3 || lines.l3;
		o->aa_deviation = fmax(o->aa_deviation, lines.aa_deviation);
		if (f == 0)
			o->read_back = read_back;
		else if (!rc && read_back != o->read_back) {
			fprintf(stderr, "memshim cpu-row: %s ran with --read-back and %s without; make every file one way\n",
				read_back ? o->bench_csv[f] : o->bench_csv[0], read_back ? o->bench_csv[0] : o->bench_csv[f]);
			rc = CLI_FAILED;
		}
	}
	if (!rc)
		rc = merge_benches(each, o, c);
	free(each);
	free(unused);
	return rc;
}

/* The bench files into c (the alias4k cases from the first), merged where
 * there are several: all read back, or none, for a loss with the read and
 * one without are not of one measure (D26); then each variant's worst
 * hazard case, from every file's. */
static int read_benches(struct options *o, struct calibration *c, struct alias_cases *alias, bool *one_placement)
{
	struct hazard_lines *hazards = calloc(1, sizeof *hazards);
	int rc = hazards ? read_each(o, c, alias, one_placement, hazards) : CLI_FAILED;
	if (!rc)
		apply_hazards(hazards, c);
	free(hazards);
	return rc;
}

/* "A", or "A, B and C (each cell the median of theirs)". */
static void name_benches(const struct options *o, char *out, size_t size)
{
	out[0] = '\0';
	for (unsigned f = 0; f < o->bench_files; f++) {
		size_t len = strlen(out);
		const char *sep = f == 0 ? "" : f + 1 == o->bench_files ? " and " : ", ";
		snprintf(out + len, size - len, "%s%s", sep, o->bench_csv[f]);
	}
	if (o->bench_files > 1) {
		size_t len = strlen(out);
		snprintf(out + len, size - len, " (each cell the median of theirs)");
	}
}

static int parse_cpu(const char *text, struct row_cpu *cpu)
{
	char family[24], model[24];
	uint64_t f, m;
	if (sscanf(text, "%15s %23s %23s %63s", cpu->vendor, family, model, cpu->features) != 4 ||
	    !parse_u64_all(family, UINT_MAX, &f) || !parse_u64_all(model, UINT_MAX, &m))
		return cli_usage_error("cpu-row", "--cpu \"%s\" is not 'VENDOR FAMILY MODEL FEATURES'", text);
	cpu->family = (unsigned)f;
	cpu->model = (unsigned)m;
	return CLI_OK;
}

/* The measured line of a row from bench's CSV. */
static void bench_provenance(struct row_cpu *cpu, const struct options *o, bool one_placement)
{
	char date[16], alias[320] = "", files[640];
	name_benches(o, files, sizeof files);
	if (o->read_back) {
		size_t len = strlen(files);
		snprintf(files + len, sizeof files - len, ", each destination read back from 512 B (bench --read-back)");
	}
	if (o->alias_csv)
		snprintf(alias, sizeof alias, ", its alias4k cases from %s", o->alias_csv);
	if (o->aa_deviation > 0) {
		size_t len = strlen(files);
		snprintf(files + len, sizeof files - len, ", glibc against itself (A/A) within %.1f%% of 1 in every case",
			 100 * o->aa_deviation);
	}
	snprintf(cpu->measured, sizeof cpu->measured,
		 "%s family %u model %u (%s); memshim bench's class, fleet distribution, alias4k and hazard cases (those the files have) from %s, "
		 "made on that machine, "
		 "%s%s%s%s%s; " ROW_TEXT_FROM_BENCH ", memshim %s at commit %s, %s",
		 cpu->vendor, cpu->family, cpu->model, cpu->features, files,
		 one_placement ? "each class in one placement" : o->l3 ? ROW_TEXT_FOUR_PLACEMENTS : ROW_TEXT_EVERY_PLACEMENT,
		 o->path_below_1k ? ", from 1 KiB up; up to 1 KiB a variant counted as tying glibc where its path is "
				    "no longer than that of, and takes no branch fewer than, " : "",
		 o->path_below_1k ? o->glibc_names : "",
		 o->path_below_1k ? " (memshim bench --path, cpu-row --path-below-1k)" : "",
		 alias, PACKAGE_VERSION, MEMSHIM_COMMIT, today(date));
}

/* --path-below-1k: up to 1 KiB, the variants whose path, traced here, is
 * no longer than that of glibc's function here tie with it (the stub probe
 * keeps its measured cost: it is what bands add).  The row says which
 * function of glibc's that was, so that it is the one the row's CPU runs
 * (GLIBC_TUNABLES makes glibc pick it here). */
static int path_ties_below_1k(struct calibration *c, char *glibc_names, size_t size)
{
	static bool tied[CALIBRATE_MAX_RATIOS];
	char why[PATH_WHY_MAX];
	/* above 8 vectors the ladders read the thresholds: this CPU's own */
	struct thresholds builtin;
	builtin_thresholds(cpu_features(), &builtin);
	measure_library_thresholds(&builtin);
	if (!path_ties(c->ratios, c->ratio_count, tied, why, sizeof why)) {
		fprintf(stderr, "memshim cpu-row --path-below-1k: %s\n", why);
		return CLI_FAILED;
	}
	glibc_names[0] = '\0';
	for (int fn = 0; fn < FN_COUNT; fn++) {
		char name[128];
		size_t len = strlen(glibc_names);
		glibc_function_name(base_function_names[fn], name, sizeof name);
		snprintf(glibc_names + len, size - len, "%s%s", fn ? ", " : "", name);
	}
	return 0;
}

/* Each function's bands from the ratios in c, their reasons saying when
 * those hold one placement a class. */
static void choose(struct calibration *c, bool one_placement)
{
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct band_ratios rows[CALIBRATE_MAX_RATIOS];
		unsigned n = 0;
		for (unsigned i = 0; i < c->ratio_count; i++)
			if (c->ratios[i].fn == (enum base_function)fn)
				rows[n++] = c->ratios[i];
		calibrate_choose_bands(rows, n, NULL, c->choice[fn], sizeof c->choice[fn], c->choice_why[fn], CALIBRATION_WHY_MAX);
		if (one_placement)
			row_words_one_placement(c->choice_why[fn], CALIBRATION_WHY_MAX);
		struct band_list bands; /* bounds in K and M where this machine can parse them */
		if (!band_list_parse(c->choice[fn], &bands))
			band_list_format(&bands, c->choice[fn]);
	}
}

int cmd_cpu_row(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, cpu_row_help, false))
		return CLI_OK;
	struct options o = { 0 };
	const struct cli_syntax syntax = { "cpu-row", row_options, false };
	int first, rc = cli_parse_options(argc, argv, &syntax, apply_option, &o, &first);
	if (rc)
		return rc;
	if (first < argc)
		return cli_usage_error("cpu-row", "unexpected argument \"%s\"", argv[first]);
	if (!o.output || o.calibrate == (o.bench_files > 0) || (o.bench_files && !o.cpu) || (o.quick && !o.calibrate) ||
	    ((o.path_below_1k || o.alias_csv) && !o.bench_files))
		return cli_usage_error("cpu-row", "give -o FILE and either --calibrate or --from-bench CSV --cpu ... "
				       "[--path-below-1k] [--alias-from CSV]");
	struct calibration *c = calloc(1, sizeof *c);
	struct alias_cases *alias = calloc(1, sizeof *alias);
	struct row_cpu cpu;
	bool one_placement = false;
	if (!c || !alias) {
		free(c);
		free(alias);
		return CLI_FAILED;
	}
	if (o.calibrate) {
		this_cpu(&cpu, o.quick ? "memshim cpu-row --calibrate --quick" : "memshim cpu-row --calibrate");
		rc = calibrate_measure(c, o.quick ? CALIBRATE_QUICK : CALIBRATE_FULL);
	} else {
		rc = parse_cpu(o.cpu, &cpu);
		if (!rc)
			rc = read_benches(&o, c, alias, &one_placement);
		if (!rc && o.alias_csv)
			rc = read_alias(o.alias_csv, alias);
		if (!rc && o.path_below_1k)
			rc = path_ties_below_1k(c, o.glibc_names, sizeof o.glibc_names);
		if (!rc) {
			bench_provenance(&cpu, &o, one_placement);
			choose(c, one_placement);
		}
	}
	if (!rc)
		rc = write_row(o.output, &cpu, c, o.calibrate ? "tune's calibration here" : "bench's class cases", one_placement,
			       alias);
	free(c);
	free(alias);
	return rc;
}
