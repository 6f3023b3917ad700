/* memshim info: what this machine and environment make of the library. */
#include "config.h"

#include "dispatch/calibration.h"
#include "dispatch/config.h"
#include "dispatch/cpu_features.h"
#include "dispatch/cpu_rows.h"
#include "dispatch/variants.h"
#include "tools/commands.h"
#include "tools/util/hazards.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"
#include "tools/util/default_source.h"
#include "tools/util/glibc_info.h"
#include "tools/util/row_words.h"

#include <stdio.h>
#include <string.h>

/* "yes", "no", or "hidden" where the CPU has it and MEMSHIM_HWCAPS hides it. */
static const char *has(bool detected, bool seen) { return seen ? "yes" : detected ? "hidden" : "no"; }
#define HAS(name) has(d->name, f->name)

/* The line after the features: what MEMSHIM_HWCAPS hides, if it is set. */
static void print_mask(const struct cpu_features *d, const struct cpu_features *f)
{
	const char *mask = cpu_features_mask();
	if (!mask)
		return;
	struct line l;
	line_start(&l);
	cpu_features_describe_hidden(d, f, &l);
	if (l.len)
		printf("  MEMSHIM_HWCAPS=%s hides %.*s from every choice below\n", mask, (int)l.len, l.text);
	else
		printf("  MEMSHIM_HWCAPS=%s hides nothing this CPU has\n", mask);
}

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
	"choice here and its thresholds (ld.so --list-diagnostics).  Features that\n"
	"MEMSHIM_HWCAPS hides (MEMSHIM_HWCAPS=-avx512f,-erms: as on a CPU without\n"
	"them) show as hidden, and nothing below uses them.\n";

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

/* The hazards the row measured on this CPU class, per function: glibc's
 * worst, the variants that fall off a cliff, and whether the default
 * avoids them all. */
static void print_hazards(const struct cpu_features *f, const struct config *c)
{
	const struct cpu_row *r = cpu_row_for(f);
	unsigned said = 0;
	for (int fn = 0; r && fn < FN_COUNT; fn++) {
		const char *list = r->hazards[fn];
		char where[64], names[400] = "";
		if (!list)
			continue;
		if (!said++)
			printf("Hazards the row measured (memshim bench --cases hazard; a variant over %.1fx the best\n"
			       "variant's time in any case is no default):\n", HAZARD_LOSS_RATIO);
		double glibc = hazard_multiple(list, "glibc", where, sizeof where);
		for (unsigned i = 0; i < variant_count; i++) {
			if (hazard_multiple(list, variant_table[i].name, NULL, 0) > HAZARD_LOSS_RATIO)
				snprintf(names + strlen(names), sizeof names - strlen(names), " %s", variant_table[i].name);
		}
		bool avoids = true;
		for (unsigned b = 0; b < c->choice[fn].bands.count; b++)
			avoids &= hazard_multiple(list, c->choice[fn].bands.variant[b]->name, NULL, 0) <= HAZARD_LOSS_RATIO;
		printf("  %-7s glibc %.1fx the best variant's time at its worst (%s); over %.1fx:%s; the default %s\n",
		       base_function_names[fn], glibc, where, HAZARD_LOSS_RATIO, names[0] ? names : " none",
		       avoids ? "avoids them" : "does NOT avoid them");
	}
}

/* Which source the default came from, always: a calibration file that
 * changed it must not go unseen. */
static void print_default_source(void)
{
	char source[4200], path[4096];
	bool named, has_path = calibration_path(path, sizeof path, &named);
	default_source(source, sizeof source);
	printf("Default source: %s", source);
	const char *file = config_get()->calibration_path;
	if (file[0] && strncmp(source, "the calibration file", 20) == 0)
		printf(" (%s)\n", named ? "MEMSHIM_CALIBRATION names it" : "installed by memshim tune --calibrate --install");
	else if (file[0])
		printf(" (the calibration file %s sets thresholds only)\n", file);
	else if (has_path)
		printf(" (no calibration file %s %s)\n", named ? "at MEMSHIM_CALIBRATION's" : "installed at", path);
	else
		printf("\n");
}

/* Prints ", "-separated, after `before`, the functions with one band
 * (bands false) or more; whether there were any. */
static bool print_functions(const struct config *c, bool bands, const char *before)
{
	bool any = false;
	for (int fn = 0; fn < FN_COUNT; fn++)
		if ((c->choice[fn].bands.count > 1) == bands) {
			printf("%s%s", any ? ", " : before, base_function_names[fn]);
			any = true;
		}
	return any;
}

/* Where each function's choice came from (variant_resolve's source):
 * "  sources: memcpy environment (MEMSHIM_MEMCPY), memmove CPU row ...". */
static void print_sources(const struct config *c)
{
	struct line l;
	line_start(&l);
	line_add(&l, "sources:");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		line_add(&l, fn ? ", " : " ");
		line_add(&l, base_function_names[fn]);
		line_add(&l, " ");
		config_describe_source(c, (enum base_function)fn, &l);
	}
	printf("  %.*s\n", (int)l.len, l.text);
}

/* How the program's calls reach the choice (preload/direct_bind.c). */
static void print_binding(const struct config *c)
{
	if (!c->direct_binding) {
		printf("  binding: stub [MEMSHIM_BIND]: every call goes through memshim's exported stub\n");
		return;
	}
	printf("  binding:");
	const char *through_stub = "; through the stub, which picks the band, for ";
	bool direct = print_functions(c, false, " direct for ");
	print_functions(c, true, direct ? through_stub : through_stub + 1);
	printf("\n   (direct: the program's calls, and its start-up libraries', skip memshim's stub;\n"
	       "   libraries loaded later with dlopen, and calls through pointers, always take it)\n");
}

/* Preset i's reasons: one at the end of its line when the functions share
 * it, else a line under it for each function (or run of functions) with
 * its own. */
static void print_preset_reasons(unsigned i, const struct cpu_features *f)
{
	const char *why[FN_COUNT];
	char text[FN_COUNT][640]; /* a line of the library's (512) with a reason's words changed */
	struct band_list picks;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		config_preset(i, (enum base_function)fn, &picks, &why[fn]);
		why[fn] = row_words_truth(cpu_row_for(f), why[fn], text[fn], sizeof text[fn]);
	}
	bool shared = true;
	for (int fn = 1; fn < FN_COUNT; fn++)
		shared &= strcmp(why[fn], why[0]) == 0;
	if (shared) {
		printf(" (%s)\n", why[0]);
		return;
	}
	printf("\n");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		bool starts = fn == 0 || strcmp(why[fn], why[fn - 1]) != 0;
		bool ends = fn + 1 == FN_COUNT || strcmp(why[fn], why[fn + 1]) != 0;
		printf("%s%s%s", starts ? "           " : ", ", base_function_names[fn], ends ? ": " : "");
		if (ends)
			printf("%s\n", why[fn]);
	}
}

static void print_presets(const struct cpu_features *f)
{
	printf("Presets, and the default (MEMSHIM_IMPL=NAME picks a variant or size bands per function for this CPU):\n");
	struct band_list picks;
	const char *why, *preset;
	for (unsigned i = 0; (preset = config_preset(i, FN_MEMCPY, &picks, &why)) != NULL; i++) {
		printf("  %-8s", preset);
		for (int fn = 0; fn < FN_COUNT; fn++) {
			char text[BAND_TEXT_MAX];
			config_preset(i, (enum base_function)fn, &picks, &why);
			band_list_format(&picks, text);
			printf("%s %s %s", fn ? "," : "", base_function_names[fn], text);
		}
		print_preset_reasons(i, f);
	}
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
	const struct cpu_features *f = cpu_features(), *d = cpu_features_detected();
	printf("CPU: %s, family %u (0x%x), model %u (0x%x)\n", f->vendor, f->family, f->family,
	       f->model, f->model);
	printf("  ERMS %s  FSRM %s  FZRM %s  FSRS %s  FSRC %s\n", HAS(erms), HAS(fsrm), HAS(fzrm), HAS(fsrs),
	       HAS(fsrc));
	printf("  AVX2 %s  AVX-512 F %s  BW %s  VL %s  BMI2 %s  (vector features count only if the OS saves their state)\n",
	       HAS(avx2), HAS(avx512f), HAS(avx512bw), HAS(avx512vl), HAS(bmi2));
	print_mask(d, f);
	printf("Caches:\n");
	print_size("L1d", f->l1d_bytes);
	print_size("L2", f->l2_bytes);
	print_size("L3", f->l3_bytes);

	printf("Variants:\n");
	for (unsigned i = 0; i < variant_count; i++) {
		const struct variant *v = &variant_table[i];
		printf("  %-16s %-10s %s\n", v->name, variant_usable(v) ? "usable" : "NOT usable", v->summary);
	}
	print_presets(f);
	print_cpu_row(f);
	const struct config *c = config_get();
	print_hazards(f, c);
	print_default_source();

	printf("A program started now with this environment gets:\n");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct line l;
		line_start(&l);
		config_describe(c, (enum base_function)fn, &l);
		char described[sizeof l.text + 1], text[640]; /* a line of the library's with a reason's words changed */
		snprintf(described, sizeof described, "%.*s", (int)l.len, l.text);
		printf("  %s\n", row_words_truth(cpu_row_for(f), described, text, sizeof text));
	}
	print_sources(c);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct line l;
		line_start(&l);
		config_describe_followers((enum base_function)fn, &l);
		printf("  %s%.*s follow %s%s\n", fn ? " " : "(", (int)l.len, l.text, base_function_names[fn],
		       fn + 1 < FN_COUNT ? ";" : ")");
	}
	print_binding(c);
	struct line l;
	line_start(&l);
	config_describe_thresholds(c, &l);
	printf("  %.*s\n", (int)l.len, l.text);
	glibc_info_print();
	return 0;
}
