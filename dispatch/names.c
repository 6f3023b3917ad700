/* The names MEMSHIM_IMPL and the per-function variables take: a variant
 * or a preset (dispatch/config.h). */
#include "dispatch/config.h"

#include "dispatch/early_env.h"
#include "dispatch/presets.h"

bool config_name_known(const char *name)
{
	return variant_setting_named(name) || preset_named(name);
}

/* A misspelling is taken for a name at most this many edits away
 * (insertions, deletions, substitutions, swaps of neighbours; case
 * ignored): "avx22", "sse", "ermss" and "AVX2" find theirs, while
 * "frobnicate" is near nothing. */
#define MOST_EDITS 1
/* Longer values are no misspelling of a name (and the rows below are this long). */
#define LONGEST_NAME 40

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* The edits from a to b, case ignored (the optimal string alignment
 * distance: three rows of the table, on the stack; no allocation, as the
 * library reads its variables before malloc may be called). */
static unsigned edits(const char *a, const char *b)
{
	unsigned la = 0, lb = 0, rows[3][LONGEST_NAME + 1];
	while (a[la])
		la++;
	while (b[lb])
		lb++;
	if (la > LONGEST_NAME || lb > LONGEST_NAME)
		return MOST_EDITS + 1;
	unsigned *back = rows[0], *prev = rows[1], *cur = rows[2];
	for (unsigned j = 0; j <= lb; j++)
		prev[j] = j;
	for (unsigned i = 1; i <= la; i++) {
		cur[0] = i;
		for (unsigned j = 1; j <= lb; j++) {
			unsigned cost = lower(a[i - 1]) != lower(b[j - 1]);
			unsigned best = prev[j - 1] + cost;
			best = prev[j] + 1 < best ? prev[j] + 1 : best;
			best = cur[j - 1] + 1 < best ? cur[j - 1] + 1 : best;
			if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]) &&
			    back[j - 2] + 1 < best)
				best = back[j - 2] + 1;
			cur[j] = best;
		}
		unsigned *t = back;
		back = prev, prev = cur, cur = t;
	}
	return prev[lb];
}

/* name, the one it is nearest of those seen (*best, *ties) */
static void weigh(const char *value, const char *name, const char **best, unsigned *fewest, unsigned *ties)
{
	unsigned e = edits(value, name);
	if (e < *fewest)
		*best = name, *fewest = e, *ties = 1;
	else if (e == *fewest)
		(*ties)++;
}

const char *config_name_meant(const char *name)
{
	const char *best = NULL;
	unsigned fewest = MOST_EDITS + 1, ties = 0;
	for (unsigned i = 0; i < variant_count; i++)
		weigh(name, variant_table[i].name, &best, &fewest, &ties);
	const struct preset *p;
	for (unsigned i = 0; (p = preset_number(i)) != NULL; i++)
		weigh(name, p->name, &best, &fewest, &ties);
	/* one nearest name, else the message would guess between them */
	return best && ties == 1 ? best : NULL;
}
