/* Naming the 4 KiB-aliasing hazard (tools/util/alias_hazard.c): the row's list
 * read, and what report and tune print for a recording's copies from 2 KiB
 * at a near distance (1..63), on the shipped Zen 3 row (where rep movsb is measured slow
 * there) and on a row where it is not. */
#include "dispatch/bands.h"
#include "dispatch/cpu_rows.h"
#include "tests/unit_check.h"
#include "tools/util/alias_hazard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cpu_row *row_named(const char *file)
{
	for (unsigned i = 0; i < cpu_row_count; i++)
		if (strcmp(cpu_rows[i].file, file) == 0)
			return &cpu_rows[i];
	return NULL;
}

/* A Zen 3 described (AVX2, ERMS, FSRM), so that the bands parse on any CPU. */
static const struct cpu_features zen3_cpu = { .vendor = "AuthenticAMD", .family = 25, .model = 1, .erms = true,
					      .fsrm = true, .avx2 = true, .bmi2 = true };

/* What alias_hazard_print writes for f under row and bands (text). */
static const char *printed(const struct function_histogram *f, const struct cpu_row *row, const char *bands)
{
	static char *text;
	size_t size;
	struct band_list b;
	free(text);
	FILE *out = open_memstream(&text, &size);
	alias_hazard_print(out, "", f, FN_MEMCPY, row, bands && !band_list_parse_on(bands, &zen3_cpu, &b) ? &b : NULL);
	fclose(out);
	return text;
}

int main(void)
{
	const char *list = "glibc:0.334,avx2:0.000,sse2:0.005";
	check("a variant's extra is read from the list", alias_extra_ns(list, "sse2") == 0.005);
	check("a variant the list does not name", alias_extra_ns(list, "avx2_xmm") < 0);
	check("a name that is a prefix of another is not taken for it", alias_extra_ns("avx2_xmm:0.3", "avx2") < 0);
	check("glibc 0.334 against 0.000 is the hazard", alias_hazard_measured(list));
	check("glibc 0.005 against 0.000 is not (under 1.5x a copy's time)", !alias_hazard_measured("glibc:0.005,avx2:0.000"));
	check("glibc 0.3 against a best of 0.25 is not", !alias_hazard_measured("glibc:0.3,avx2:0.25"));

	const struct cpu_row *zen3 = row_named("amd-zen3.row");
	check("the Zen 3 row carries memcpy's and memmove's alias4k lists",
	      zen3 && zen3->alias4k[FN_MEMCPY] && zen3->alias4k[FN_MEMMOVE] && !zen3->alias4k[FN_MEMSET]);
	if (!zen3)
		return checks_finish();
	check("and shows the hazard for both", alias_hazard_measured(zen3->alias4k[FN_MEMCPY]) &&
						       alias_hazard_measured(zen3->alias4k[FN_MEMMOVE]));

	struct function_histogram f = { .alias_near_calls = 2000, .alias_near_bytes = 5u << 20,
					 .alias_near_large_calls = 1024, .alias_near_large_bytes = 4u << 20 };
	const char *text = printed(&f, zen3, "glibc:1K,avx2:32K,sse2");
	check("the copies from 2 KiB are counted", strstr(text, "mod 4096 in 1..63 from 2 KiB: 1024 calls, 4 MiB") != NULL);
	char cost[64]; /* 4 MiB at the row's extra for glibc */
	snprintf(cost, sizeof cost, "about %.1f ms more", alias_extra_ns(zen3->alias4k[FN_MEMCPY], "glibc") * (4 << 20) / 1e6);
	check("their cost under glibc: 4 MiB at the row's ns a byte", strstr(text, cost) != NULL);
	check("the variant that avoids it", strstr(text, "avx2 avoids it") || strstr(text, "avx2_xmm avoids it"));
	check("the row's default avoids it", strstr(text, "(avx2, sse2 from 2 KiB) avoids it") != NULL);
	text = printed(&f, zen3, "glibc:4K,avx2");
	check("a default with glibc from 2 KiB does not", strstr(text, "does not avoid it") != NULL);
	text = printed(&f, NULL, "glibc");
	check("without a row: how to measure it", strstr(text, ALIAS_HAZARD_MEASURE) != NULL &&
							  strstr(text, "slow for those on this CPU (") == NULL);
	f.alias_near_large_calls = f.alias_near_large_bytes = 0;
	check("nothing from 2 KiB at a near distance: nothing said", *printed(&f, zen3, "glibc") == '\0');
	return checks_finish();
}
