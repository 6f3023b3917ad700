/* The renamed variables (dispatch/renamed.h).  The rep thresholds were one
 * pair per family of variants (MEMSHIM_ERMS_THRESHOLD for erms,
 * MEMSHIM_AUTO_MOVSB_THRESHOLD for the *_erms ones, named after a preset
 * that governs neither); one pair now serves every variant that uses rep
 * movsb and rep stosb.  MEMSHIM_CONFIG named the calibration file.  The
 * recording's file was the histogram (MEMSHIM_HIST...); it is the dump, in
 * the variables as in the code and the docs. */
#include "dispatch/renamed.h"

#include "dispatch/early_env.h"
#include "dispatch/message.h"

static const struct {
	const char *old_name, *name;
} renamed[] = {
	{ "MEMSHIM_ERMS_THRESHOLD", "MEMSHIM_MOVSB_THRESHOLD" },
	{ "MEMSHIM_AUTO_MOVSB_THRESHOLD", "MEMSHIM_MOVSB_THRESHOLD" },
	{ "MEMSHIM_AUTO_STOSB_THRESHOLD", "MEMSHIM_STOSB_THRESHOLD" },
	{ "MEMSHIM_AUTO_MOVSB_STOP_THRESHOLD", "MEMSHIM_MOVSB_STOP_THRESHOLD" },
	{ "MEMSHIM_CONFIG", "MEMSHIM_CALIBRATION" },
	{ "MEMSHIM_HIST", "MEMSHIM_DUMP" },
	{ "MEMSHIM_HIST_INTERVAL", "MEMSHIM_DUMP_INTERVAL" },
	{ "MEMSHIM_HIST_SIGNAL", "MEMSHIM_DUMP_SIGNAL" },
};
#define RENAMED_COUNT (sizeof renamed / sizeof renamed[0])

const char *renamed_getenv(const char *name)
{
	const char *value = early_getenv(name);
	for (unsigned i = 0; i < RENAMED_COUNT; i++) {
		const char *old_value = same_string(renamed[i].name, name) ? early_getenv(renamed[i].old_name) : NULL;
		if (!old_value)
			continue;
		warn_old_name(renamed[i].old_name, name, value != NULL);
		if (!value)
			value = old_value;
	}
	return value;
}

bool renamed_old_name(const char *name)
{
	for (unsigned i = 0; i < RENAMED_COUNT; i++)
		if (same_string(renamed[i].old_name, name))
			return true;
	return false;
}

const char *renamed_old_of(const char *name)
{
	for (unsigned i = 0; i < RENAMED_COUNT; i++)
		if (same_string(renamed[i].name, name))
			return renamed[i].old_name;
	return NULL;
}
