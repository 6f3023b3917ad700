/* The settings' table and the order a setting's value is resolved in
 * (dispatch/settings.h). */
#include "dispatch/settings.h"

#include "dispatch/early_env.h"

#include <stddef.h>

/* THE SETTINGS' TABLE: each name of every setting, written here only.
 * The calibration file and a CPU row give a function's bands on a line
 * "choice KEY BANDS WHY".  One pair of variables serves every variant that
 * uses rep movsb and rep stosb: erms's thresholds and the *_erms variants'
 * read the same two (their built-in values differ: dispatch/auto_policy.c). */
static const struct setting_keys setting_table[S_ALL] = {
	[S_IMPL] = { "MEMSHIM_IMPL", "impl", NULL, NULL },
	[S_MEMCPY] = { "MEMSHIM_MEMCPY", "memcpy", "memcpy", "memcpy" },
	[S_MEMMOVE] = { "MEMSHIM_MEMMOVE", "memmove", "memmove", "memmove" },
	[S_MEMSET] = { "MEMSHIM_MEMSET", "memset", "memset", "memset" },
	[S_THRESHOLD + T_ERMS] = { "MEMSHIM_MOVSB_THRESHOLD", "erms", NULL, NULL },
	[S_THRESHOLD + T_STOSB] = { "MEMSHIM_STOSB_THRESHOLD", "stosb", NULL, NULL },
	[S_THRESHOLD + T_AUTO_MOVSB] = { "MEMSHIM_MOVSB_THRESHOLD", "auto_movsb", "auto_movsb", "auto_movsb" },
	[S_THRESHOLD + T_AUTO_STOSB] = { "MEMSHIM_STOSB_THRESHOLD", "auto_stosb", "auto_stosb", "auto_stosb" },
	[S_THRESHOLD + T_NT] = { "MEMSHIM_NT_THRESHOLD", "nt", "nt", NULL },
	[S_THRESHOLD + T_AUTO_MOVSB_STOP] = { "MEMSHIM_MOVSB_STOP_THRESHOLD", "auto_movsb_stop", NULL,
	                                      "auto_movsb_stop" },
};

const struct setting_keys *setting_keys(enum setting_id s)
{
	return &setting_table[s];
}

enum setting_id setting_of_variable(const char *variable)
{
	int s = 0;
	while (s < S_ALL && !same_string(setting_table[s].variable, variable))
		s++;
	return (enum setting_id)s;
}

const char *setting_origin_name(enum setting_origin o)
{
	static const char *const names[] = { [FROM_BUILTIN] = "built-in", [FROM_ROW] = "CPU row",
	                                     [FROM_FILE] = "calibration file", [FROM_ENVIRONMENT] = "environment" };
	return names[o];
}

enum setting_origin setting_fallback(bool in_file, bool in_row)
{
	return in_file ? FROM_FILE : in_row ? FROM_ROW : FROM_BUILTIN;
}
