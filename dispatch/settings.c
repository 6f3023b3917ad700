/* The settings' table and the order a setting's value is resolved in
 * (dispatch/settings.h). */
#include "dispatch/settings.h"

#include "dispatch/cpu_rows.h"
#include "dispatch/early_env.h"
#include "shim/thresholds.h"

#include <stddef.h>

/* What a call gets from a size on where its threshold is 0. */
static const char copies_movsb[] = "is 0: copies of every size, the smallest too, take rep movsb";
static const char sets_stosb[] = "is 0: sets of every size, the smallest too, take rep stosb";
static const char all_nt[] = "is 0: the vector variants store every size past 8 vectors non-temporally, past the caches";
#define AT(member) offsetof(struct thresholds, member)
#define ROW_AT(member) offsetof(struct cpu_row, member)
/* Every field written out, which clang's -Wextra asks of initialisers. */
#define NOT_A_THRESHOLD NULL, 0, 0, NULL, 0, NULL
#define NO_LEAST 0, NULL

/* THE SETTINGS' TABLE: each name of every setting, written here only, and
 * where each threshold lives.  A new threshold is a line here, its member
 * in struct thresholds and its built-in value (dispatch/builtin.c);
 * a row key adds its struct cpu_row member and dispatch/cpu_rows.awk's key,
 * a file key the calibration file's reader (dispatch/calibration.c) and
 * writer (tools/tune/file.c), as the file's lines are positional.
 * The calibration file and a CPU row give a function's bands on a line
 * "choice KEY BANDS WHY".  One variable, one threshold: every variant that
 * uses rep movsb (erms and the *_erms vector variants) reads movsb, every
 * one that uses rep stosb reads stosb.  A calibration file's old keys
 * ("auto_movsb", of when the *_erms variants had thresholds of their own)
 * are still read; the shipped rows were written again with the new. */
static const struct setting_keys setting_table[S_ALL] = {
	[S_IMPL] = { "MEMSHIM_IMPL", "impl", NULL, NULL, NOT_A_THRESHOLD },
	[S_MEMCPY] = { "MEMSHIM_MEMCPY", "memcpy", "memcpy", "memcpy", NOT_A_THRESHOLD },
	[S_MEMMOVE] = { "MEMSHIM_MEMMOVE", "memmove", "memmove", "memmove", NOT_A_THRESHOLD },
	[S_MEMSET] = { "MEMSHIM_MEMSET", "memset", "memset", "memset", NOT_A_THRESHOLD },
	[S_THRESHOLD + T_MOVSB] = { "MEMSHIM_MOVSB_THRESHOLD", "movsb", "movsb", "movsb", "auto_movsb", AT(movsb),
	                            ROW_AT(movsb), copies_movsb, NO_LEAST },
	[S_THRESHOLD + T_STOSB] = { "MEMSHIM_STOSB_THRESHOLD", "stosb", "stosb", "stosb", "auto_stosb", AT(stosb),
	                            ROW_AT(stosb), sets_stosb, NO_LEAST },
	[S_THRESHOLD + T_NT] = { "MEMSHIM_NT_THRESHOLD", "nt", "nt", NULL, NULL, AT(nt), 0, all_nt, NT_THRESHOLD_LEAST,
	                         "is below 16448 B, glibc's least: copies that small would bypass the caches" },
	/* 0 is no slip here: it is the built-in "no stop" */
	[S_THRESHOLD + T_MOVSB_STOP] = { "MEMSHIM_MOVSB_STOP_THRESHOLD", "movsb_stop", NULL, "movsb_stop",
	                                 NULL, AT(movsb_stop), ROW_AT(movsb_stop), NULL, NO_LEAST },
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
