/* Finding the shipped row for a CPU (dispatch/cpu_rows.h).  No C library:
 * the default runs in the resolvers. */
#include "dispatch/cpu_rows.h"

#include "dispatch/early_env.h"

bool cpu_has_feature(const struct cpu_features *f, const char *name)
{
	if (same_string(name, "erms"))
		return f->erms;
	if (same_string(name, "fsrm"))
		return f->fsrm;
	/* avx2, avx512: what the variants of that name need (dispatch/variants.c) */
	if (same_string(name, "avx2"))
		return VARIANT(avx2)->usable(f);
	if (same_string(name, "avx512"))
		return VARIANT(avx512)->usable(f);
	return false;
}

/* Whether every space-separated name in `names` is (wanted) or is not a feature of f. */
static bool features_are(const struct cpu_features *f, const char *names, bool wanted)
{
	char name[16];
	while (*names) {
		unsigned len = 0;
		for (; *names && *names != ' '; names++)
			if (len + 1 < sizeof name)
				name[len++] = *names;
		name[len] = '\0';
		if (*names == ' ')
			names++;
		if (cpu_has_feature(f, name) != wanted)
			return false;
	}
	return true;
}

static bool serves(const struct cpu_row *r, const struct cpu_features *f)
{
	return same_string(r->vendor, f->vendor) && f->family >= r->family_lo && f->family <= r->family_hi &&
	       f->model >= r->model_lo && f->model <= r->model_hi && features_are(f, r->requires, true) &&
	       features_are(f, r->excludes, false);
}

const struct cpu_row *cpu_row_for(const struct cpu_features *f)
{
	for (unsigned i = 0; i < cpu_row_count; i++)
		if (serves(&cpu_rows[i], f))
			return &cpu_rows[i];
	return NULL;
}

bool cpu_row_bands(const struct cpu_row *r, const struct cpu_features *f, enum base_function fn,
                   struct band_list *out)
{
	const struct band_list *b = &r->bands[fn];
	for (unsigned i = 0; i < b->count; i++)
		if (!variant_usable_on(b->variant[i], f))
			return false;
	*out = *b;
	return true;
}

bool cpu_row_choice(const struct cpu_features *f, enum base_function fn, struct band_list *out, const char **why)
{
	const struct cpu_row *r = cpu_row_for(f);
	if (!r || !cpu_row_bands(r, f, fn, out))
		return false;
	*why = r->why[fn];
	return true;
}
