/* Reading the configuration once per process: the steps in their order,
 * each given what it reads and filling in what it produces (their files:
 * dispatch/config_internal.h); and the presets as this process sees them. */
#include "dispatch/config_internal.h"

#include "dispatch/builtin.h"
#include "dispatch/cpu_rows.h"
#include "dispatch/early_env.h"
#include "dispatch/presets.h"
#include "shim/thresholds.h"

/* Defined (true) by the memshim tool: its own process never records (it
 * sets the recording variables for the programs it runs), so they are not
 * its to read, nor to warn about. */
extern const bool memshim_tool_process __attribute__((weak));
/* Weak: defined with the variants (shim/thresholds.c), which the memshim
 * tool does not link (it times the library's). */
extern struct thresholds memshim_thresholds __attribute__((weak));

/* Every threshold, each from where threshold_resolve finds it. */
static void resolve_thresholds(struct config *c, const struct thresholds *file)
{
	struct thresholds builtin;
	builtin_thresholds(cpu_features(), &builtin);
	const struct threshold_sources from = { file, cpu_row_for(cpu_features()), &builtin };
	c->thresholds = builtin; /* set_stosb_beyond_nt, which no variable sets */
	for (int t = 0; t < T_ALL; t++)
		*threshold_member(&c->thresholds, (enum threshold_name)t) =
			threshold_resolve((enum threshold_name)t, &from, &c->origin[t]);
}

static void read_config(struct config *c)
{
	c->secure = early_secure_mode();
	report_unknown_variables();
	struct thresholds file;
	bool have_file = read_calibration(c->secure, &file, c->calibration_path, &c->calibrated);
	choose_variants(cpu_features(), &c->calibrated, c->choice);
	resolve_thresholds(c, have_file ? &file : NULL);
	if (&memshim_thresholds) /* the one write at start-up, before any resolver returns */
		memshim_thresholds = c->thresholds;
	c->verbose = read_verbose();
	c->direct_binding = read_binding();
	if (!&memshim_tool_process) {
		read_recording(c);
		read_ab(c, cpu_features());
	} else
		c->problems_fd = -1;
	if (c->verbose) {
		config_print_choices(c);
		struct line l;
		line_start(&l);
		config_describe_thresholds(c, &l);
		line_emit(&l);
	}
}

const struct config *config_get(void)
{
	/* 0: unread, 1: being read, 2: ready.  Resolvers of lazily bound calls
	 * can run in several threads at once: one reads, the others wait, so
	 * the problems are reported once and everyone sees the same choice. */
	static struct config config;
	static int state;
	int expected = 0;
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 2)
		return &config;
	if (__atomic_compare_exchange_n(&state, &expected, 1, false, __ATOMIC_ACQUIRE,
	                                __ATOMIC_ACQUIRE)) {
		read_config(&config);
		__atomic_store_n(&state, 2, __ATOMIC_RELEASE);
	}
	while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2)
		__builtin_ia32_pause();
	return &config;
}

void config_default_bands(enum base_function fn, struct band_list *out, const char **why)
{
	const struct config *c = config_get(); /* before cpu_features: the problems in their order */
	preset_default()->pick(cpu_features(), &c->calibrated, fn, out, why);
}

const char *config_preset(unsigned i, enum base_function fn, struct band_list *picks, const char **why)
{
	const struct preset *p = preset_number(i);
	if (!p)
		return NULL;
	const struct config *c = config_get();
	p->pick(cpu_features(), &c->calibrated, fn, picks, why);
	return p->name;
}

const char *config_setting_bands(const char *value, enum base_function fn, struct band_list *out)
{
	const struct config *c = config_get();
	return choose_setting(cpu_features(), &c->calibrated, value, fn, out);
}
