/* memshim bench: times every usable variant, glibc's included as the
 * baseline, for memcpy, memmove and memset on this machine; so are a peer's
 * (--peer: another library, such as AOCL-LibMem).  What is timed is listed
 * in bench_help; which functions, in tools/bench/library.c; how, in
 * util/measure.c. */
#include "config.h"

#include "dispatch/config.h"
#include "tools/bench/bench.h"
#include "tools/measure/library.h"
#include "tools/commands.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"
#include "tools/util/output_file.h"
#include "tools/measure/progress.h"
#include "tools/calibrate/stub_probe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char bench_help[] =
	"usage: memshim bench [OPTIONS]\n"
	"Times every usable variant of memcpy, memmove and memset against glibc's:\n"
	"  sweep    fixed sizes 0 B .. 64 MiB (8 steps per power of two from 512 B\n"
	"           to 64 KiB), buffers in L1, and cold ones (flushed from the caches)\n"
	"  align    source/destination offsets mod 64\n"
	"  alias4k  (dst - src) mod 4096 small: loads that seem to hit earlier stores\n"
	"  class    random sizes within the size classes of the project's targets\n"
	"           (0-16 B .. 4-32 KiB in L1, 32-256 KiB .. 4-16 MiB cold), random offsets;\n"
	"           memmove with and without overlap\n"
	"  dist     random sizes and offsets from call-size distributions (google/fleetbench),\n"
	"           in L1 (one room), L2 (spread over half of it), L3 and cold\n"
	"  hazard   the hazard catalogue: the cases where a known implementation falls off a\n"
	"           cliff (4 KiB aliasing from 2 KiB, memmove onto its own source a few\n"
	"           bytes on, one side misaligned, memset where rep stosb begins, copies\n"
	"           larger than the L3), each variant against the best one there\n"
	"Each variant is paired with glibc on the same calls, batch against batch in a\n"
	"random order, and pairs are added until the median of their ratios is known\n"
	"within +-0.5% (95%) or the variant's time in the case is spent; glibc against\n"
	"itself (A/A) is timed the same way and says what the instrument reads where\n"
	"there is no difference.  The text (100 columns at most) gives glibc's median\n"
	"time per call and each variant's median ratio to it, then per function the\n"
	"fastest variant in each size class and where the best single variant loses to\n"
	"glibc; each variant's own times, pairs and intervals are in --csv.\n"
	"Options:\n"
	"  --quick               the main sizes and cases only, +-1% and 0.2 s a column\n"
	"  --functions LIST      of memcpy,memmove,memset (default: all)\n"
	"  --variants LIST       variants to time (default: every usable one); glibc always\n"
	"  --cases LIST          of sweep,align,alias4k,class,dist,hazard (default: all)\n"
	"  --sizes LIST          sweep sizes instead of the default ones (e.g. 64,4K,1M)\n"
	"  --distribution FILE   a call-size CSV (either format of data/distributions/README.md)\n"
	"                        or a dump (MEMSHIM_DUMP: each function its own\n"
	"                        sizes) instead of the built-in ones; may be repeated; a\n"
	"                        file named after a function (Memcpy_Fleet.csv) is for it\n"
	"  --seconds S           the most time one variant may take in one case (default\n"
	"                        3, --quick 0.2; from 0.01 to 60)\n"
	"  --processes N         measure every case in N processes, one after another,\n"
	"                        each with buffers of its own: each ratio the median of\n"
	"                        theirs, its interval from the least to the greatest end of\n"
	"                        theirs, and cells where they disagree named (1 to 9;\n"
	"                        default 3, --quick 1)\n"
	"  --rounds N            exactly N pairs a variant and case, whatever the interval\n"
	"                        (3 to 1001; --stub: its rounds, default 15)\n"
	"  --csv FILE            every result, one line per variant and case: function,\n"
	"                        variant, case, size (bytes, class or distribution),\n"
	"                        alignment, placement (L1, L2, L3, cold), median, p10, p90,\n"
	"                        unit, ratio to glibc, bytes per unit, the ratio's 95%\n"
	"                        interval (ratio_low, ratio_high), and the rep movsb and\n"
	"                        rep stosb thresholds it ran under (movsb, stosb),\n"
	"                        1 where each call's destination was read after it\n"
	"                        (read_back), where rep movsb stopped (movsb_stop,\n"
	"                        0: it did not), the pairs timed, the case's A/A ratio and\n"
	"                        interval (aa_ratio, aa_low, aa_high), and the processes\n"
	"                        measured in, 1 where they disagreed (disagree)\n"
	"  --svg FILE            time per call and bytes per unit time against size\n"
	"  --default             also time the library's exported memcpy, memmove and\n"
	"                        memset as the column `default`: what a program preloading\n"
	"                        it gets in this environment (the default's size bands, or\n"
	"                        MEMSHIM_IMPL/MEMSHIM_MEMCPY...), called as a program's PLT\n"
	"                        calls it: through the exported stub where there are bands\n"
	"                        or MEMSHIM_BIND=stub, else straight to the one variant\n"
	"  --stub-probe          also time glibc's functions behind a copy of the exported\n"
	"                        stub, as the column `stub`: what bands cost a call (memshim\n"
	"                        cpu-row --from-bench weighs it, as the calibration does)\n"
	"  --every-placement     the class case with each class's data in L1, L2, L3 and\n"
	"                        cold (default: L1 to 32K, cold beyond)\n"
	"  --read-back           each call of a case whose sizes start at 512 B or more\n"
	"                        followed by a read of its destination, in the timing, as\n"
	"                        the calibration times them: what a program that uses\n"
	"                        what it copied or set pays (the CSV's column read_back)\n"
	"  --in-use              each call of every case with its source written just\n"
	"                        before it and its destination read after it, in the\n"
	"                        timing: what a program that builds what it copies and\n"
	"                        uses the copy pays (the CSV's column in_use)\n"
	"  --peer NAME=PATH[:PREFIX]\n"
	"                        also time another library's PREFIXmemcpy, PREFIXmemmove\n"
	"                        and PREFIXmemset (no PREFIX: memcpy, ...) as the column\n"
	"                        NAME; a function it lacks is left out of that function's\n"
	"                        cases.  PATH as dlopen(3) takes it (one with a ':' in it\n"
	"                        needs a ':' at its end); may be repeated, up to 4 times\n"
	"  --draws N             instead: draw N sizes, alignments and overlaps from each\n"
	"                        distribution as the dist case does, and print how often\n"
	"                        each came up beside its probability (nothing is timed)\n"
	"  --path                instead: the instructions executed and branches taken by\n"
	"                        one call of every size from 0 to 1 KiB, single-stepped,\n"
	"                        per size class (with --csv: per call); the same on any\n"
	"                        CPU that runs the same code\n"
	"  --replay DUMP         instead: every variant on a dump's recorded windows of\n"
	"                        calls (memshim record --sequences), in their order, with\n"
	"                        their sizes, offsets mod 4096 and distances: in L1, spread\n"
	"                        over half the L2, and cold; per function and size class\n"
	"  --stub                instead: what the exported names' one jump adds to a\n"
	"                        call (memcpy against the variant its slot jumps to): the\n"
	"                        cost of bands, and of calls from libraries loaded later\n"
	"                        or through pointers (the rest bind directly)\n"
	"The library is $MEMSHIM_LIBRARY if set, else the one next to this program or\n"
	"installed; the distributions $MEMSHIM_DISTRIBUTIONS, else likewise.\n";

/* ---- arguments ---- */

/* Sets a bit for each comma-separated item of `list` found in names[0..count). */
static int parse_names(const char *option, const char *list, const char *const *names, unsigned count,
		       unsigned *bits)
{
	*bits = 0;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		unsigned i = 0;
		while (i < count && !(strlen(names[i]) == len && strncmp(names[i], p, len) == 0))
			i++;
		if (i == count)
			return cli_usage_error("bench", "%s: \"%.*s\" is not one of its choices", option, (int)len, p);
		*bits |= 1u << i;
		p += len;
		if (*p == '\0')
			return 0;
	}
}

static int parse_sizes(const char *list, struct bench_options *o)
{
	o->size_count = 0;
	for (const char *p = list;; p++) {
		char item[32];
		size_t len = strcspn(p, ",");
		snprintf(item, sizeof item, "%.*s", (int)(len < 31 ? len : 31), p);
		unsigned long long n;
		const char *problem = len < 31 ? parse_byte_count(item, 64ull << 20, &n) : "is too long";
		if (problem)
			return cli_usage_error("bench", "--sizes: \"%s\" %s (sizes go up to 64M)", item, problem);
		if (o->size_count == MAX_SIZES)
			return cli_usage_error("bench", "--sizes: more than %d sizes", MAX_SIZES);
		o->sizes[o->size_count++] = (size_t)n;
		p += len;
		if (*p == '\0')
			return 0;
	}
}

static int parse_seconds(const char *value, struct bench_options *o)
{
	char *end;
	errno = 0;
	double x = strtod(value, &end);
	if (errno || end == value || *end || !(x >= 0.01 && x <= 60))
		return cli_usage_error("bench", "--seconds \"%s\" is not a number from 0.01 to 60", value);
	o->seconds = x;
	return 0;
}

static int parse_processes(const char *value, struct bench_options *o)
{
	if (!cli_whole_number(value, 1, MAX_PROCESSES, &o->processes))
		return cli_usage_error("bench", "--processes \"%s\" is not a number from 1 to %d", value, MAX_PROCESSES);
	return 0;
}

static int parse_rounds(const char *value, struct bench_options *o)
{
	if (!cli_whole_number(value, 3, MEASURE_MAX_PAIRS, &o->rounds))
		return cli_usage_error("bench", "--rounds \"%s\" is not a number from 3 to %d", value, MEASURE_MAX_PAIRS);
	return 0;
}

/* NAME=PATH[:PREFIX]; the prefix follows the last ':', so that a path with a
 * ':' in it can be given with an empty prefix after it. */
static int parse_peer(const char *value, struct bench_options *o)
{
	if (o->peer_count == MEASURE_MAX_PEERS)
		return cli_usage_error("bench", "more than %d --peer libraries", MEASURE_MAX_PEERS);
	struct peer_spec *p = &o->peers[o->peer_count];
	size_t name_len = strcspn(value, "=");
	const char *path = value + name_len + (value[name_len] == '=');
	const char *colon = strrchr(path, ':');
	size_t path_len = colon ? (size_t)(colon - path) : strlen(path);
	const char *prefix = colon ? colon + 1 : "";
	if (value[name_len] != '=' || name_len == 0 || path_len == 0)
		return cli_usage_error("bench", "--peer \"%s\" is not NAME=PATH[:PREFIX]", value);
	if (name_len >= sizeof p->name || strspn(value, PEER_NAME_CHARS) < name_len)
		return cli_usage_error("bench", "--peer: the name \"%.*s\" is not up to %zu letters, digits, '_' or '-'",
				   (int)name_len, value, sizeof p->name - 1);
	if (path_len >= sizeof p->path)
		return cli_usage_error("bench", "--peer %.*s: the path is too long", (int)name_len, value);
	if (strlen(prefix) >= sizeof p->prefix || prefix[strspn(prefix, PEER_PREFIX_CHARS)] != '\0')
		return cli_usage_error("bench", "--peer %.*s: \"%s\" is not a symbol prefix (a path with a ':' in it "
				   "needs a ':' at its end)", (int)name_len, value, prefix);
	snprintf(p->name, sizeof p->name, "%.*s", (int)name_len, value);
	snprintf(p->path, sizeof p->path, "%.*s", (int)path_len, path);
	snprintf(p->prefix, sizeof p->prefix, "%s", prefix);
	o->peer_count++;
	return 0;
}

enum { BENCH_QUICK = 1, BENCH_STUB, BENCH_PATH, BENCH_DEFAULT, BENCH_STUB_PROBE, BENCH_EVERY_PLACEMENT, BENCH_READ_BACK, BENCH_IN_USE, BENCH_FUNCTIONS, BENCH_CASES, BENCH_SIZES, BENCH_ROUNDS, BENCH_SECONDS, BENCH_PROCESSES, BENCH_VARIANTS,
       BENCH_CSV, BENCH_SVG, BENCH_DISTRIBUTION, BENCH_PEER, BENCH_DRAWS, BENCH_REPLAY };

static const struct option bench_options[] = {
	{ "quick", no_argument, NULL, BENCH_QUICK },
	{ "stub", no_argument, NULL, BENCH_STUB },
	{ "path", no_argument, NULL, BENCH_PATH },
	{ "default", no_argument, NULL, BENCH_DEFAULT },
	{ "stub-probe", no_argument, NULL, BENCH_STUB_PROBE },
	{ "every-placement", no_argument, NULL, BENCH_EVERY_PLACEMENT },
	{ "read-back", no_argument, NULL, BENCH_READ_BACK },
	{ "in-use", no_argument, NULL, BENCH_IN_USE },
	{ "functions", required_argument, NULL, BENCH_FUNCTIONS },
	{ "cases", required_argument, NULL, BENCH_CASES },
	{ "sizes", required_argument, NULL, BENCH_SIZES },
	{ "rounds", required_argument, NULL, BENCH_ROUNDS },
	{ "seconds", required_argument, NULL, BENCH_SECONDS },
	{ "processes", required_argument, NULL, BENCH_PROCESSES },
	{ "variants", required_argument, NULL, BENCH_VARIANTS },
	{ "csv", required_argument, NULL, BENCH_CSV },
	{ "svg", required_argument, NULL, BENCH_SVG },
	{ "distribution", required_argument, NULL, BENCH_DISTRIBUTION },
	{ "peer", required_argument, NULL, BENCH_PEER },
	{ "draws", required_argument, NULL, BENCH_DRAWS },
	{ "replay", required_argument, NULL, BENCH_REPLAY },
	{ 0 },
};

static int apply_option(void *context, int id, const char *name, const char *value)
{
	struct bench_options *o = context;
	if (id != BENCH_QUICK && id != BENCH_STUB && id != BENCH_PATH && id != BENCH_DEFAULT && id != BENCH_STUB_PROBE &&
	    id != BENCH_EVERY_PLACEMENT && id != BENCH_READ_BACK && id != BENCH_IN_USE && *value == '\0')
		return cli_usage_error("bench", "%s needs a value", name);
	switch (id) {
	case BENCH_QUICK:
		o->quick = true;
		return 0;
	case BENCH_STUB:
		o->stub = true;
		return 0;
	case BENCH_PATH:
		o->path = true;
		return 0;
	case BENCH_DEFAULT:
		o->with_default = true;
		return 0;
	case BENCH_STUB_PROBE:
		o->stub_probe = true;
		return 0;
	case BENCH_EVERY_PLACEMENT:
		o->every_placement = true;
		return 0;
	case BENCH_READ_BACK:
		o->read_back = true;
		return 0;
	case BENCH_IN_USE:
		o->in_use = true;
		return 0;
	case BENCH_FUNCTIONS:
		return parse_names(name, value, base_function_names, FN_COUNT, &o->functions);
	case BENCH_CASES:
		return parse_names(name, value, case_kind_names, CASE_REPLAY, &o->cases);
	case BENCH_SIZES:
		return parse_sizes(value, o);
	case BENCH_ROUNDS:
		return parse_rounds(value, o);
	case BENCH_SECONDS:
		return parse_seconds(value, o);
	case BENCH_PROCESSES:
		return parse_processes(value, o);
	case BENCH_PEER:
		return parse_peer(value, o);
	case BENCH_VARIANTS:
		o->variants = value;
		return 0;
	case BENCH_CSV:
		o->csv = value;
		return 0;
	case BENCH_SVG:
		o->svg = value;
		return 0;
	case BENCH_REPLAY:
		o->replay = value;
		return 0;
	case BENCH_DRAWS:
		if (!cli_whole_number(value, 1, BENCH_MAX_DRAWS, &o->draws))
			return cli_usage_error("bench", "--draws \"%s\" is not a whole number from 1 to %d", value, BENCH_MAX_DRAWS);
		return 0;
	default: /* BENCH_DISTRIBUTION */
		if (o->distribution_count == MAX_DISTRIBUTIONS)
			return cli_usage_error("bench", "more than %d --distribution files", MAX_DISTRIBUTIONS);
		o->distributions[o->distribution_count++] = value;
		return 0;
	}
}

static int parse_options(int argc, char **argv, struct bench_options *o)
{
	*o = (struct bench_options){ .functions = (1u << FN_COUNT) - 1, .cases = (1u << CASE_REPLAY) - 1 };
	const struct cli_syntax syntax = { "bench", bench_options, false };
	int first, rc = cli_parse_options(argc, argv, &syntax, apply_option, o, &first);
	if (rc)
		return rc;
	if (first < argc)
		return cli_usage_error("bench", "unexpected argument \"%s\"", argv[first]);
	if (o->path && o->stub)
		return cli_usage_error("bench", "--path and --stub each replace the timing: give one");
	if (o->replay && (o->path || o->stub || o->draws || o->distribution_count || o->svg))
		return cli_usage_error("bench", "--replay times the dump's calls: not with --path, --stub, --draws, "
				   "--distribution or --svg");
	const char *outputs[] = { o->csv, o->svg }, *inputs[MAX_DISTRIBUTIONS + 1];
	size_t input_count = 0;
	if (o->replay)
		inputs[input_count++] = o->replay;
	for (unsigned i = 0; i < o->distribution_count; i++)
		inputs[input_count++] = o->distributions[i];
	if ((rc = output_check_names("bench", outputs, 2, (char *const *)inputs, input_count)) != 0)
		return rc;
	if (o->stub && o->peer_count)
		return cli_usage_error("bench", "--stub times the library's own entry points, not a --peer's");
	return 0;
}


/* ---- running ---- */

/* --csv's or --svg's file under its temporary name; NULL without the
 * option, or after one line if it cannot be made (*failed set: a usage
 * error, status 2, as a bad value of the option is). */
static FILE *open_output(struct output_file *out, const char *path, bool *failed)
{
	*out = (struct output_file){ 0 };
	if (!path)
		return NULL;
	FILE *f = output_open(out, "bench", path);
	*failed |= !f;
	return f;
}

static size_t largest_size(const struct plan *p)
{
	size_t largest = 0;
	for (size_t i = 0; i < p->count; i++) {
		size_t n = p->cases[i].dist ? p->cases[i].dist->max : p->cases[i].hi;
		largest = n > largest ? n : largest;
	}
	return largest;
}

/* A hazard case decides at HAZARD_LOSS_RATIO, not within 1%: it stops at
 * +-2.5% or a quarter second a column, so that the whole catalogue runs in
 * minutes (unless --rounds fixes the pairs). */
static struct measure_settings settings_for(const struct measure_settings *s, const struct measure_case *c)
{
	struct measure_settings out = *s;
	if (c->kind == CASE_HAZARD && s->stop.min_pairs != s->stop.max_pairs) {
		out.stop.width = s->stop.width > 0.05 ? s->stop.width : 0.05;
		out.stop.seconds = s->stop.seconds < 0.25 ? s->stop.seconds : 0.25;
	}
	return out;
}

/* Every case of the plan into results[0..p->count), each measured in
 * `processes` processes (measure_run_processes); false if the buffers cannot
 * be had (said). */
static bool measure_plan(const struct plan *p, struct measure_settings *s, unsigned processes,
			 struct measure_result *results)
{
	if (!measure_buffers_init(largest_size(p), s->cold_bytes))
		return false;
	struct progress bar;
	progress_start(&bar, "memshim bench", (unsigned)p->count);
	for (size_t i = 0; i < p->count; i++) {
		char detail[160];
		snprintf(detail, sizeof detail, "%s %s %s %s", base_function_names[p->cases[i].fn],
			 case_kind_names[p->cases[i].kind], p->cases[i].label, placement_names[p->cases[i].place]);
		progress_step(&bar, detail);
		struct measure_settings for_case = settings_for(s, &p->cases[i]);
		measure_run_processes(&for_case, &p->cases[i], processes, &results[i]);
	}
	progress_end(&bar);
	return true;
}

static int run_plan(const struct plan *p, struct measure_settings *s, unsigned processes, FILE *csv, FILE *svg)
{
	struct measure_result *results = calloc(p->count ? p->count : 1, sizeof *results);
	report_header(stdout, s);
	bool ok = results && measure_plan(p, s, processes, results);
	if (ok) {
		report_table(stdout, s, results, p->count);
		if (csv)
			report_csv(csv, s, results, p->count);
		if (svg)
			report_svg(svg, s, results, p->count);
	}
	free(results);
	return ok ? 0 : 1;
}

static int print_draws(const struct bench_options *o, struct distributions *d)
{
	if (!o->distribution_count)
		bench_load_builtin_distributions(o->quick, d);
	int rc = d->count ? 0 : 1;
	for (unsigned i = 0; i < d->count && !rc; i++)
		rc = size_dist_print_draws(stdout, d->list[i], o->draws);
	bench_free_distributions(d);
	return rc;
}

static int print_paths(const struct bench_options *o, const struct measure_variant *variants, unsigned count)
{
	struct output_file out;
	bool failed = false;
	FILE *csv = open_output(&out, o->csv, &failed);
	if (failed)
		return CLI_USAGE;
	return output_close(&out, "bench", bench_path(variants, count, o->functions, csv));
}

static int replay_with(const struct bench_options *o, struct measure_settings *s)
{
	struct output_file out;
	bool failed = false;
	FILE *csv = open_output(&out, o->csv, &failed);
	if (failed)
		return CLI_USAGE;
	return output_close(&out, "bench", bench_replay(o->replay, s, o->functions, csv));
}

static int bench_with(const struct bench_options *o, struct measure_settings *s, struct distributions *d)
{
	if (o->replay)
		return replay_with(o, s);
	static struct measure_case cases[MAX_RESULTS];
	struct plan p = { cases, 0 };
	bench_plan_cases(&p, o, d);
	struct output_file csv_out, svg_out;
	bool failed = false;
	FILE *csv = open_output(&csv_out, o->csv, &failed);
	FILE *svg = open_output(&svg_out, o->svg, &failed);
	int rc = failed ? CLI_USAGE : run_plan(&p, s, o->processes ? o->processes : o->quick ? 1 : DEFAULT_PROCESSES, csv, svg);
	rc = output_close(&csv_out, "bench", rc);
	return output_close(&svg_out, "bench", rc);
}

/* When each column stops adding pairs (struct measure_stop). */
static struct measure_stop stop_of(const struct bench_options *o)
{
	struct measure_stop stop = MEASURE_STOP_DEFAULT;
	if (o->quick)
		stop = (struct measure_stop){ .width = 0.02, .seconds = 0.2, .min_pairs = 20, .max_pairs = 401 };
	if (o->seconds > 0)
		stop.seconds = o->seconds;
	if (o->rounds)
		stop.min_pairs = stop.max_pairs = o->rounds;
	return stop;
}

int cmd_bench(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, bench_help, false))
		return 0;
	struct bench_options o;
	int rc = parse_options(argc, argv, &o);
	if (!rc && o.stub) {
		void *library = measure_library();
		return library ? bench_stub(library, o.rounds ? o.rounds : 15) : 1;
	}
	struct distributions d = { .count = 0 };
	if (!rc && o.distribution_count)
		rc = bench_load_distributions(&o, &d);
	if (!rc && o.draws)
		return print_draws(&o, &d);
	static struct measure_variant variants[MEASURE_MAX_COLUMNS];
	struct measure_settings s = { .variants = variants, .stop = stop_of(&o), .aa = true,
				    .cold_bytes = measure_cold_span() };
	if (!rc)
		rc = bench_load_variants(o.variants, variants, &s.variant_count, &s.glibc);
	if (!rc && o.with_default)
		rc = bench_load_default(variants, &s.variant_count);
	if (!rc && o.path)
		return print_paths(&o, variants, s.variant_count);
	if (!rc && o.stub_probe)
		variants[s.variant_count++] = stub_probe_over(&variants[s.glibc]);
	if (!rc)
		rc = bench_load_peers(&o, variants, &s.variant_count);
	if (!rc && !o.replay && !o.distribution_count && (o.cases & (1u << CASE_DIST)))
		bench_load_builtin_distributions(o.quick, &d);
	if (!rc) {
		measure_clock_open(&s.clock);
		measure_pin(s.pinning, sizeof s.pinning);
		rc = bench_with(&o, &s, &d);
	}
	bench_free_distributions(&d);
	return rc;
}
