/* The names MEMSHIM_IMPL and the per-function variables take: a variant
 * or a preset (dispatch/config.h). */
#include "dispatch/config.h"

#include "dispatch/early_env.h"
#include "dispatch/presets.h"

bool config_name_known(const char *name)
{
	return variant_setting_named(name) || preset_named(name);
}

/* Whether a and b are the same text but for the case of ASCII letters. */
static bool same_but_case(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
		char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
		if (x != y)
			return false;
	}
	return *a == *b;
}

const char *config_name_in_other_case(const char *name)
{
	for (unsigned i = 0; i < variant_count; i++)
		if (same_but_case(variant_table[i].name, name))
			return variant_table[i].name;
	const struct preset *p;
	for (unsigned i = 0; (p = preset_number(i)) != NULL; i++)
		if (same_but_case(p->name, name))
			return p->name;
	return NULL;
}
