/* MEMSHIM_HWCAPS: CPU features hidden from every choice (dispatch/cpu_features.h).
 *
 * The idea and the syntax are glibc's tunable glibc.cpu.hwcaps
 * ("-AVX512F,-ERMS"), which its own tests use to run as on a lesser CPU;
 * unlike glibc's, this list can only hide, never add.  Parsed without the
 * C library: the resolvers read it while the dynamic linker relocates. */
#include "dispatch/cpu_features.h"

#include <stddef.h>

enum {
	H_ERMS = 1u << 0,
	H_FSRM = 1u << 1,
	H_FZRM = 1u << 2,
	H_FSRS = 1u << 3,
	H_FSRC = 1u << 4,
	H_AVX2 = 1u << 5,
	H_AVX512F = 1u << 6,
	H_AVX512BW = 1u << 7,
	H_AVX512VL = 1u << 8,
	H_BMI2 = 1u << 9,
};
#define H_AVX512 (H_AVX512F | H_AVX512BW | H_AVX512VL)
/* The fast short/zero-length rep string features refine ERMS's microcode
 * and came after it on the same CPUs: a CPU without ERMS has none of them. */
#define H_REP_STRINGS (H_ERMS | H_FSRM | H_FZRM | H_FSRS | H_FSRC)

/* Each name: its own bit, what hiding it hides (itself and what needs
 * it), and the field of struct cpu_features that holds it. */
static const struct hwcap {
	const char *name;
	unsigned bit, hides;
	size_t field;
} hwcaps[] = {
	{ "erms", H_ERMS, H_REP_STRINGS, offsetof(struct cpu_features, erms) },
	{ "fsrm", H_FSRM, H_FSRM, offsetof(struct cpu_features, fsrm) },
	{ "fzrm", H_FZRM, H_FZRM, offsetof(struct cpu_features, fzrm) },
	{ "fsrs", H_FSRS, H_FSRS, offsetof(struct cpu_features, fsrs) },
	{ "fsrc", H_FSRC, H_FSRC, offsetof(struct cpu_features, fsrc) },
	/* every AVX-512 CPU has AVX2: one without it is older than AVX-512 */
	{ "avx2", H_AVX2, H_AVX2 | H_AVX512, offsetof(struct cpu_features, avx2) },
	/* BW and VL extend the foundation's instructions */
	{ "avx512f", H_AVX512F, H_AVX512, offsetof(struct cpu_features, avx512f) },
	{ "avx512bw", H_AVX512BW, H_AVX512BW, offsetof(struct cpu_features, avx512bw) },
	{ "avx512vl", H_AVX512VL, H_AVX512VL, offsetof(struct cpu_features, avx512vl) },
	{ "bmi2", H_BMI2, H_BMI2, offsetof(struct cpu_features, bmi2) },
};
#define HWCAP_COUNT (sizeof hwcaps / sizeof hwcaps[0])
/* The same as avx512f, by the name the CPU rows and the variants use. */
static const char group_avx512[] = "avx512";

static bool *field_of(struct cpu_features *f, const struct hwcap *h) { return (bool *)((char *)f + h->field); }
static bool has(const struct cpu_features *f, const struct hwcap *h)
{
	return *(const bool *)((const char *)f + h->field);
}

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* Whether the len bytes at s spell name, in any case (glibc's are upper case). */
static bool spells(const char *s, size_t len, const char *name)
{
	size_t i = 0;
	for (; i < len && name[i]; i++)
		if (lower(s[i]) != name[i])
			return false;
	return i == len && name[i] == '\0';
}

/* What hiding the len bytes at s hides; 0 when they name no feature. */
static unsigned hides(const char *s, size_t len)
{
	if (spells(s, len, group_avx512))
		return H_AVX512;
	for (unsigned i = 0; i < HWCAP_COUNT; i++)
		if (spells(s, len, hwcaps[i].name))
			return hwcaps[i].hides;
	return 0;
}

/* "is not a list of features to hide: \"+fsrm\" is not -NAME (NAME: erms, ...)" */
static const char *problem(struct line *why, const char *item, size_t len)
{
	char text[32];
	size_t n = 0;
	for (; n < len && n + 1 < sizeof text; n++)
		text[n] = item[n];
	text[n] = '\0';
	line_start(why);
	line_add(why, "is not a list of features to hide: ");
	if (len)
		line_add_quoted(why, text, 24);
	else
		line_add(why, "an empty item");
	line_add(why, " is not -NAME (NAME: ");
	for (unsigned i = 0; i < HWCAP_COUNT; i++) {
		line_add(why, i ? ", " : "");
		line_add(why, hwcaps[i].name);
		if (hwcaps[i].bit == H_AVX512F) {
			line_add(why, ", ");
			line_add(why, group_avx512);
		}
	}
	line_add(why, "; the mask can only hide)");
	why->text[why->len < sizeof why->text ? why->len : sizeof why->text - 1] = '\0';
	return why->text;
}

const char *cpu_features_hide(const char *list, struct cpu_features *f, struct line *why)
{
	unsigned hidden = 0;
	for (const char *item = list; *list; item = list) {
		while (*list && *list != ',')
			list++;
		size_t len = (size_t)(list - item);
		unsigned h = len > 1 && item[0] == '-' ? hides(item + 1, len - 1) : 0;
		if (!h)
			return problem(why, item, len);
		hidden |= h;
		if (*list == ',' && *++list == '\0')
			return problem(why, list, 0);
	}
	for (unsigned i = 0; i < HWCAP_COUNT; i++)
		if (hidden & hwcaps[i].bit)
			*field_of(f, &hwcaps[i]) = false;
	return NULL;
}

void cpu_features_describe_hidden(const struct cpu_features *before, const struct cpu_features *after,
                                  struct line *l)
{
	const char *space = "";
	for (unsigned i = 0; i < HWCAP_COUNT; i++)
		if (has(before, &hwcaps[i]) && !has(after, &hwcaps[i])) {
			line_add(l, space);
			line_add(l, hwcaps[i].name);
			space = " ";
		}
}
