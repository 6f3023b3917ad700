/* Size bands and the shipped CPU rows, in process: the band syntax and its
 * bad input (dispatch/bands.c), and which bands the default and auto
 * presets give CPUs described here rather than read from CPUID (the
 * presets take the features as a parameter; no environment reaches it). */
#include "dispatch/builtin.h"
#include "dispatch/bands.h"
#include "dispatch/cpu_rows.h"
#include "dispatch/default_bands.h"
#include "tests/unit_check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>


static void syntax(void)
{
	struct band_list b;
	char text[BAND_TEXT_MAX];
	check("glibc:256,sse2 parses into two bands",
	      !band_list_parse("glibc:256,sse2", &b) && b.count == 2 && b.upper[0] == 256 && b.upper[1] == SIZE_MAX &&
		      strcmp(b.variant[0]->name, "glibc") == 0 && strcmp(b.variant[1]->name, "sse2") == 0);
	check("bounds take K and M", !band_list_parse("scalar:4K,sse2:2M,glibc", &b) && b.count == 3 &&
					     b.upper[0] == 4096 && b.upper[1] == (2u << 20));
	band_list_format(&b, text);
	check("and are written back with them", strcmp(text, "scalar:4K,sse2:2M,glibc") == 0);
	check("a single variant is one band", !band_list_parse("sse2", &b) && b.count == 1 && b.upper[0] == SIZE_MAX);
	check("a band variant that does not exist", band_list_parse("glibc:64,nosuch", &b) != NULL);
	check("bounds that do not ascend", band_list_parse("glibc:256,sse2:64,scalar", &b) != NULL);
	check("a bound on the last band", band_list_parse("glibc:64,sse2:1M", &b) != NULL);
	check("a band without a bound", band_list_parse("glibc,sse2", &b) != NULL);
	check("an empty name", band_list_parse(":64,sse2", &b) != NULL);
	check("a bound that is not a number", band_list_parse("glibc:lots,sse2", &b) != NULL);
	check("eleven bands", band_list_parse("sse2:1,sse2:2,sse2:3,sse2:4,sse2:5,sse2:6,sse2:7,sse2:8,sse2:9,sse2:10,sse2", &b) != NULL);
	check("a bound is the largest size of its band: 64 B is glibc's, 65 sse2's",
	      !band_list_parse("glibc:64,sse2", &b) && b.upper[0] == 64 && strcmp(b.variant[0]->name, "glibc") == 0 &&
		      b.upper[1] == SIZE_MAX && strcmp(b.variant[1]->name, "sse2") == 0);
}

/* A described CPU: vendor, family, model and the features the rows test. */
static struct cpu_features cpu(const char *vendor, unsigned family, unsigned model, bool erms, bool fsrm,
			       bool avx2, bool avx512)
{
	struct cpu_features f = { .family = family, .model = model, .erms = erms, .fsrm = fsrm, .avx2 = avx2,
				  .avx512f = avx512, .avx512bw = avx512, .avx512vl = avx512, .bmi2 = avx2 };
	snprintf(f.vendor, sizeof f.vendor, "%s", vendor);
	return f;
}

/* "memcpy memmove memset" bands of a preset for f. */
static const char *preset_text(enum setting_origin (*pick)(const struct cpu_features *, const struct calibration_choices *,
					    enum base_function, struct band_list *, const char **),
			       const struct cpu_features *f)
{
	static char all[3 * BAND_TEXT_MAX];
	all[0] = '\0';
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct band_list b;
		const char *why;
		char text[BAND_TEXT_MAX];
		pick(f, NULL, (enum base_function)fn, &b, &why); /* no calibration file */
		band_list_format(&b, text);
		snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", fn ? " " : "", text);
	}
	return all;
}

/* The row's own text for f, as the default must give it. */
static const char *row_text(const struct cpu_features *f)
{
	static char all[3 * BAND_TEXT_MAX];
	const struct cpu_row *r = cpu_row_for(f);
	if (!r)
		return "no row";
	all[0] = '\0';
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct band_list b;
		char text[BAND_TEXT_MAX];
		if (!cpu_row_bands(r, f, (enum base_function)fn, &b))
			return "a row whose bands that CPU cannot run";
		band_list_format(&b, text);
		snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", fn ? " " : "", text);
	}
	return all;
}

static void classes(void)
{
	struct cpu_features zen3 = cpu("AuthenticAMD", 0x19, 0x01, true, true, true, false);
	struct cpu_features zen4 = cpu("AuthenticAMD", 0x19, 0x11, true, true, true, true);
	struct cpu_features spr = cpu("GenuineIntel", 6, 0x8f, true, true, true, true);
	struct cpu_features intel_avx2 = cpu("GenuineIntel", 6, 0x55, true, false, true, false);
	struct cpu_features no_erms = cpu("AuthenticAMD", 0x17, 0x01, false, false, true, false);
	const char *zen4_row = row_text(&zen4);
	printf("Zen 4: row %s; default %s;", zen4_row, preset_text(default_bands, &zen4));
	check("Zen 4 has a row, and the default gives its bands", cpu_row_for(&zen4) &&
	      strcmp(preset_text(default_bands, &zen4), zen4_row) == 0);
	const struct cpu_row *z3 = cpu_row_for(&zen3);
	printf("Zen 3: row %s; default %s\n", z3 ? z3->file : "none", preset_text(default_bands, &zen3));
	check("Zen 3 (no AVX-512) does not get the Zen 4 row", !z3 || strcmp(z3->file, cpu_row_for(&zen4)->file) != 0);
	check("its default is its row, or glibc's own without one",
	      strcmp(preset_text(default_bands, &zen3), z3 ? row_text(&zen3) : "glibc glibc glibc") == 0);
	for (const struct cpu_features *f = &spr; f; f = f == &spr ? &intel_avx2 : f == &intel_avx2 ? &no_erms : NULL) {
		const struct cpu_row *r = cpu_row_for(f);
		printf("%s family %u model %#x: row %s; default %s;", f->vendor, f->family, f->model,
		       r ? r->file : "none", preset_text(default_bands, f));
		check("without a row the default is glibc's own, with one its bands",
		      strcmp(preset_text(default_bands, f), r ? row_text(f) : "glibc glibc glibc") == 0);
	}
	const char *why;
	check("the widest vectors with ERMS (Intel AVX-512)", widest_vector_variant(&spr, &why) == VARIANT(avx512_erms));
	check("AVX2 only: avx2_erms", widest_vector_variant(&intel_avx2, &why) == VARIANT(avx2_erms));
	check("without ERMS: avx2, no rep range", widest_vector_variant(&no_erms, &why) == VARIANT(avx2));
	struct cpu_features old = cpu("GenuineIntel", 6, 0x1a, false, false, false, false);
	check("a CPU with neither: sse2", widest_vector_variant(&old, &why) == VARIANT(sse2));
}

static void shipped_rows(void)
{
	for (unsigned i = 0; i < cpu_row_count; i++) {
		const struct cpu_row *r = &cpu_rows[i];
		/* a CPU with every feature the row requires and none it excludes */
		struct cpu_features f = cpu(r->vendor, r->family_lo, r->model_lo, strstr(r->requires, "erms") != NULL,
					    strstr(r->requires, "fsrm") != NULL, true, strstr(r->requires, "avx512") != NULL);
		struct band_list b;
		char what[200];
		snprintf(what, sizeof what, "%s: a CPU it describes gets it, and its bands parse", r->file);
		check(what, cpu_row_for(&f) == r && cpu_row_bands(r, &f, FN_MEMCPY, &b) &&
			      cpu_row_bands(r, &f, FN_MEMMOVE, &b) && cpu_row_bands(r, &f, FN_MEMSET, &b));
		/* the same CPU of a model no row serves has the built-in thresholds */
		struct cpu_features unserved = f;
		unserved.model = 0xfff;
		struct thresholds t, builtin;
		builtin_thresholds(&f, &t);
		builtin_thresholds(&unserved, &builtin);
		snprintf(what, sizeof what, "%s: its rep thresholds where it gives them (%zu, %zu), else the built-in ones",
			 r->file, r->movsb, r->stosb);
		check(what, !cpu_row_for(&unserved) &&
			      t.movsb == (r->movsb ? r->movsb : builtin.movsb) &&
			      t.stosb == (r->stosb ? r->stosb : builtin.stosb) && t.nt == builtin.nt);
	}
}

/* The default takes the calibration file's choices it is given
 * where they name bands, and the row's (or glibc's) elsewhere. */
static void file_choices(void)
{
	struct cpu_features zen4 = cpu("AuthenticAMD", 0x19, 0x11, true, true, true, true);
	struct calibration_choices file;
	memset(&file, 0, sizeof file);
	file.bands[FN_MEMCPY] = band_list_single(VARIANT(scalar));
	snprintf(file.why[FN_MEMCPY], sizeof file.why[FN_MEMCPY], "chosen by hand");
	struct band_list b, without;
	const char *why, *why_without;
	default_bands(&zen4, &file, FN_MEMCPY, &b, &why);
	check("default with a file's choice for memcpy: that choice, and its reason",
	      b.count == 1 && b.variant[0] == VARIANT(scalar) && strcmp(why, "chosen by hand") == 0);
	default_bands(&zen4, &file, FN_MEMMOVE, &b, &why);
	default_bands(&zen4, NULL, FN_MEMMOVE, &without, &why_without);
	char text[BAND_TEXT_MAX], text_without[BAND_TEXT_MAX];
	band_list_format(&b, text);
	band_list_format(&without, text_without);
	check("and for memmove, which the file left out, what it gets without a file",
	      strcmp(text, text_without) == 0 && strcmp(why, why_without) == 0);
}

int main(void)
{
	syntax();
	classes();
	file_choices();
	shipped_rows();
	return checks_finish();
}
