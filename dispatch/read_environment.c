/* Reading the environment's plain settings: MEMSHIM_VERBOSE, MEMSHIM_BIND,
 * and the MEMSHIM_* names the library does not know
 * (dispatch/config_internal.h). */
#include "dispatch/config_internal.h"

#include "dispatch/settings.h"
#include "dispatch/early_env.h"
#include "dispatch/renamed.h"

/* Every variable the library reads but the settings' (their table,
 * dispatch/settings.c) and the old names dispatch/renamed.c still reads;
 * any other MEMSHIM_* name is reported as unknown. */
static const char *const known_variables[] = {
	"MEMSHIM_VERBOSE",
	"MEMSHIM_DUMP",           "MEMSHIM_DUMP_INTERVAL",   "MEMSHIM_DUMP_SIGNAL", "MEMSHIM_CALLSITES",
	"MEMSHIM_STACK_DEPTH",
	"MEMSHIM_PROFILE", "MEMSHIM_TIMING", "MEMSHIM_SEQUENCES", "MEMSHIM_PROBLEMS_FD",
	"MEMSHIM_AB", "MEMSHIM_AB_BLOCK",
	"MEMSHIM_CALIBRATION", "MEMSHIM_BIND", "MEMSHIM_HWCAPS",
	"MEMSHIM_LIBRARY", /* read by the memshim tool */
	"MEMSHIM_WARNED", /* set by memshim record and run (message.h) */
	"MEMSHIM_DISTRIBUTIONS", /* read by memshim bench */
	"MEMSHIM_CACHE_SIZES", /* read by memshim bench and tune */
	"MEMSHIM_CPU_ROW", /* read by memshim report and tune */
	NULL,
};

bool read_verbose(void)
{
	const char *value = early_getenv("MEMSHIM_VERBOSE");
	if (!value)
		return false;
	if (same_string(value, "0") || same_string(value, "1"))
		return value[0] == '1';
	warn_bad_value("MEMSHIM_VERBOSE", value, "is not 0 or 1", "0", 0);
	return false;
}

/* MEMSHIM_BIND=stub keeps every call going through the exported stub, as
 * calls through pointers and from libraries loaded later always do. */
bool read_binding(void)
{
	const char *value = early_getenv("MEMSHIM_BIND");
	if (!value || same_string(value, "direct"))
		return true;
	if (same_string(value, "stub"))
		return false;
	warn_bad_value("MEMSHIM_BIND", value, "is not direct or stub", "direct", 0);
	return true;
}

/* Whether "NAME=value" entry begins with known + "=". */
static bool names(const char *entry, const char *known)
{
	for (; *known && *known == *entry; known++, entry++)
		;
	return *known == '\0' && *entry == '=';
}

static bool is_known_variable(const char *entry)
{
	for (const char *const *known = known_variables; *known; known++)
		if (names(entry, *known))
			return true;
	char name[64];
	unsigned i = 0;
	for (; entry[i] && entry[i] != '=' && i + 1 < sizeof name; i++)
		name[i] = entry[i];
	name[i] = '\0';
	return setting_of_variable(name) != S_ALL || renamed_old_name(name);
}

void report_unknown_variables(void)
{
	for (char *const *env = early_environ(); *env; env++) {
		const char *e = *env, *prefix = "MEMSHIM_";
		for (; *prefix && *prefix == *e; prefix++, e++)
			;
		if (*prefix || is_known_variable(*env))
			continue;
		struct line l;
		line_start(&l);
		line_add(&l, "unknown variable ");
		for (e = *env; *e && *e != '=' && l.len < 100; e++)
			line_add_char(&l, *e);
		if (*e && *e != '=')
			line_add(&l, "..."); /* the name was cut */
		line_add(&l, " ignored (see `memshim info`)");
		line_emit(&l);
	}
}
