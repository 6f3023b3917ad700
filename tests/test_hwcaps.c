/* MEMSHIM_HWCAPS's syntax and what each name hides, on described CPUs
 * (dispatch/hwcaps.c: cpu_features_hide, which takes the features as a
 * parameter; no environment reaches it).
 *
 * With arguments, for tests/test_hwcaps.sh: test_hwcaps PRESET WITHOUT...
 * prints the bands ("memcpy memmove memset") that PRESET (kernel, auto,
 * default) gives this CPU described without the features WITHOUT (avx512,
 * avx2, erms, fsrm, bmi2), each cleared here as tests/test_bands.c describes a
 * CPU, not with the mask: what the resolver under the mask must match. */
#include "dispatch/presets.h"
#include "dispatch/config.h"
#include "dispatch/cpu_features.h"
#include "tests/unit_check.h"

#include <stdio.h>
#include <string.h>

/* A CPU with every feature (ERMS, FSRM, FZRM, FSRS, FSRC, AVX2, AVX-512, BMI2). */
static struct cpu_features everything(void)
{
	struct cpu_features f = { .vendor = "GenuineIntel", .family = 6, .model = 0x8f, .erms = true, .fsrm = true,
				  .fzrm = true, .fsrs = true, .fsrc = true, .avx2 = true, .avx512f = true,
				  .avx512bw = true, .avx512vl = true, .bmi2 = true, .l3_bytes = 1 << 25 };
	return f;
}

/* "erms fsrm ... bmi2": the features f has, in the order of the struct. */
static const char *features_of(const struct cpu_features *f)
{
	static char text[128];
	snprintf(text, sizeof text, "%s%s%s%s%s%s%s%s%s%s", f->erms ? "erms " : "", f->fsrm ? "fsrm " : "",
		 f->fzrm ? "fzrm " : "", f->fsrs ? "fsrs " : "", f->fsrc ? "fsrc " : "", f->avx2 ? "avx2 " : "",
		 f->avx512f ? "avx512f " : "", f->avx512bw ? "avx512bw " : "", f->avx512vl ? "avx512vl " : "",
		 f->bmi2 ? "bmi2 " : "");
	return text;
}

/* What `list` leaves of a CPU with every feature, or "refused". */
static const char *left_by(const char *list)
{
	struct cpu_features f = everything();
	struct line why;
	return cpu_features_hide(list, &f, &why) ? "refused" : features_of(&f);
}

static void what_each_name_hides(void)
{
	static const struct {
		const char *list, *left;
	} cases[] = {
		{ "", "erms fsrm fzrm fsrs fsrc avx2 avx512f avx512bw avx512vl bmi2 " },
		{ "-fsrm", "erms fzrm fsrs fsrc avx2 avx512f avx512bw avx512vl bmi2 " },
		{ "-erms", "avx2 avx512f avx512bw avx512vl bmi2 " },
		{ "-fzrm,-fsrs,-fsrc", "erms fsrm avx2 avx512f avx512bw avx512vl bmi2 " },
		{ "-avx512vl", "erms fsrm fzrm fsrs fsrc avx2 avx512f avx512bw bmi2 " },
		{ "-avx512bw", "erms fsrm fzrm fsrs fsrc avx2 avx512f avx512vl bmi2 " },
		{ "-avx512f", "erms fsrm fzrm fsrs fsrc avx2 bmi2 " },
		{ "-avx512", "erms fsrm fzrm fsrs fsrc avx2 bmi2 " },
		{ "-avx2", "erms fsrm fzrm fsrs fsrc bmi2 " },
		{ "-bmi2", "erms fsrm fzrm fsrs fsrc avx2 avx512f avx512bw avx512vl " },
		{ "-AVX512F,-Fsrm,-ERMS", "avx2 bmi2 " },
		{ "-avx512f,-fsrm,-erms", "avx2 bmi2 " },
		{ "-erms,-erms", "avx2 avx512f avx512bw avx512vl bmi2 " },
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char what[160];
		const char *left = left_by(cases[i].list);
		snprintf(what, sizeof what, "\"%s\" leaves [%s] (got [%s])", cases[i].list, cases[i].left, left);
		check(what, strcmp(left, cases[i].left) == 0);
	}
}

/* Hiding never adds: a CPU without AVX-512 or ERMS stays without them,
 * whatever the list names, and what it has and the list does not name stays. */
static void only_hides(void)
{
	struct cpu_features f = { .vendor = "AuthenticAMD", .family = 0x17, .avx2 = true, .bmi2 = true };
	struct line why;
	check("hiding what a CPU lacks is no error", cpu_features_hide("-avx512f,-erms,-fsrm", &f, &why) == NULL);
	check("and leaves it as it was", strcmp(features_of(&f), "avx2 bmi2 ") == 0);
	struct cpu_features before = everything(), after = everything();
	cpu_features_hide("-avx512f,-fsrm", &after, &why);
	struct line l;
	line_start(&l);
	cpu_features_describe_hidden(&before, &after, &l);
	check("what was hidden, named", l.len == strlen("fsrm avx512f avx512bw avx512vl") &&
					   memcmp(l.text, "fsrm avx512f avx512bw avx512vl", l.len) == 0);
}

static void bad_lists(void)
{
	static const char *const bad[] = { "avx2", "+avx2", "-avx2,", ",-avx2", "-avx2,,-erms", "-", "--avx2",
		                           "-sse2", "-avx", "-avx2 ", " -avx2", "-avx2;-erms", "-avx512x",
		                           "-erms,avx2", "-avx2\t", "-\xff" };
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct cpu_features f = everything();
		struct line why;
		const char *problem = cpu_features_hide(bad[i], &f, &why);
		char what[120];
		snprintf(what, sizeof what, "\"%s\" is refused, and hides nothing", bad[i]);
		check(what, problem && strcmp(features_of(&f), left_by("")) == 0);
		static const char *const names[] = { "erms", "fsrm", "fzrm", "fsrs", "fsrc", "avx2", "avx512f",
			                             "avx512", "avx512bw", "avx512vl", "bmi2" };
		bool all = problem != NULL;
		for (unsigned n = 0; all && n < sizeof names / sizeof names[0]; n++) {
			char word[16];
			snprintf(word, sizeof word, " %s%s", names[n], n + 1 < sizeof names / sizeof names[0] ? "," : ";");
			all = strstr(problem, word) != NULL;
		}
		snprintf(what, sizeof what, "the problem with \"%s\" names every valid feature", bad[i]);
		check(what, all);
	}
}

/* This CPU as detected, described without the named features. */
static struct cpu_features described_without(char **names, int count)
{
	struct cpu_features f = *cpu_features_detected();
	for (int i = 0; i < count; i++) {
		if (strcmp(names[i], "avx2") == 0)
			f.avx2 = false;
		if (strcmp(names[i], "avx2") == 0 || strcmp(names[i], "avx512") == 0)
			f.avx512f = f.avx512bw = f.avx512vl = false;
		if (strcmp(names[i], "erms") == 0)
			f.erms = f.fzrm = f.fsrs = f.fsrc = false;
		if (strcmp(names[i], "erms") == 0 || strcmp(names[i], "fsrm") == 0)
			f.fsrm = false;
		if (strcmp(names[i], "bmi2") == 0)
			f.bmi2 = false;
	}
	return f;
}

static int print_preset(const char *preset, char **without, int count)
{
	const struct preset *p = preset_named(preset);
	if (!p) {
		fprintf(stderr, "test_hwcaps: no preset %s\n", preset);
		return 2;
	}
	struct cpu_features f = described_without(without, count);
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct band_list b;
		const char *why;
		char text[BAND_TEXT_MAX];
		p->pick(&f, NULL, (enum base_function)fn, &b, &why); /* no calibration file */
		band_list_format(&b, text);
		printf("%s%s", fn ? " " : "", text);
	}
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return print_preset(argv[1], argv + 2, argc - 2);
	what_each_name_hides();
	only_hides();
	bad_lists();
	return checks_finish();
}
