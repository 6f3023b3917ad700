/* The one-line descriptions of the choice: for MEMSHIM_VERBOSE and
 * `memshim info`. */
#include "dispatch/config_internal.h"

#include "dispatch/cpu_rows.h"
#include "dispatch/settings.h"
#include "dispatch/early_env.h" /* same_string */
#include "shim/memshim.h"
#include "shim/thresholds.h"

/* "avx2 (non-temporal from 24 MiB)" for one band; with more, each band as
 * "up to 256 B: glibc; ...; above 4 MiB: avx2 (...)". */
void config_describe_bands(const struct band_list *b, enum base_function fn, const struct thresholds *t,
                           struct line *l)
{
	for (unsigned i = 0; i < b->count; i++) {
		const struct variant *v = b->variant[i];
		if (b->count > 1) {
			line_add(l, i ? "; " : "");
			line_add(l, i + 1 < b->count ? "up to " : "above ");
			line_add_bytes(l, i + 1 < b->count ? b->upper[i] : b->upper[i - 1]);
			line_add(l, ": ");
		}
		line_add(l, v->name);
		if (v->describe_thresholds)
			v->describe_thresholds(fn, t, l);
	}
}

void config_describe(const struct config *c, enum base_function fn, struct line *l)
{
	line_add(l, base_function_names[fn]);
	line_add(l, " -> ");
	config_describe_bands(&c->choice[fn].bands, fn, &c->thresholds, l);
	line_add(l, " [");
	if (c->choice[fn].preset) {
		line_add(l, c->choice[fn].variable);
		line_add(l, "=");
		line_add(l, c->choice[fn].preset);
		line_add(l, ": ");
	}
	line_add(l, c->choice[fn].why);
	line_add(l, "]");
}

void config_describe_source(const struct config *c, enum base_function fn, struct line *l)
{
	const struct function_choice *choice = &c->choice[fn];
	const struct cpu_row *r = cpu_row_for(cpu_features());
	line_add(l, setting_origin_name(choice->origin));
	if (choice->origin == FROM_ENVIRONMENT) {
		line_add(l, " (");
		line_add(l, setting_keys(choice->setting)->variable);
		line_add(l, ")");
	} else if (choice->origin == FROM_FILE) {
		line_add(l, " ");
		line_add(l, c->calibration_path);
	} else if (choice->origin == FROM_ROW && r) {
		line_add(l, " ");
		line_add(l, r->file);
	}
}

/* One entry point's name, after a comma unless it is the first, if it
 * follows fn without being fn itself. */
#define ADD_FOLLOWER(v, entry, symbol, base, ...)                                                  \
	if (base == fn && !same_string(#symbol, base_function_names[fn])) {                            \
		if (l->len > start)                                                                        \
			line_add(l, ", ");                                                                     \
		line_add(l, #symbol);                                                                      \
	}

void config_describe_followers(enum base_function fn, struct line *l)
{
	size_t start = l->len;
	MEMSHIM_ENTRY_POINTS(ADD_FOLLOWER, )
}

void config_print_choices(const struct config *c)
{
	for (int fn = 0; fn < FN_COUNT; fn++) {
		struct line l;
		line_start(&l);
		config_describe(c, (enum base_function)fn, &l);
		line_add(&l, "; ");
		config_describe_followers((enum base_function)fn, &l);
		line_add(&l, " follow");
		line_emit(&l);
	}
}

void config_describe_thresholds(const struct config *c, struct line *l)
{
	line_add(l, "thresholds:");
	for (int t = 0; t < T_ALL; t++) {
		size_t value = threshold_value(&c->thresholds, (enum threshold_name)t);
		if (t == T_MOVSB_STOP && value == 0)
			continue; /* no stop: nothing to say */
		line_add(l, t ? ", " : " ");
		line_add(l, threshold_keys((enum threshold_name)t)->name);
		line_add(l, " ");
		line_add_number(l, value);
		line_add(l, " B [");
		line_add(l, setting_origin_name(c->origin[t]));
		line_add(l, "]");
	}
	if (c->calibration_path[0]) {
		line_add(l, "; calibration file ");
		line_add(l, c->calibration_path);
	}
	if (c->thresholds.set_stosb_beyond_nt) /* after the path, which tests match as above */
		line_add(l, "; vector memset from nt on: rep stosb (CPU row)");
}
