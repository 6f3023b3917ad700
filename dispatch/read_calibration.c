/* Reading this machine's calibration file (dispatch/calibration.c): its
 * thresholds for the *_erms variants, over the built-in ones, and its choices
 * for the default (dispatch/config_internal.h). */
#include "dispatch/config_internal.h"

#include "dispatch/early_env.h"
#include "dispatch/renamed.h"

/* A file is named by a variable (or found through HOME), so a secure-mode
 * process reads none. */
bool read_calibration(bool secure, struct thresholds *t, char path[HIST_PATH_MAX],
                      struct calibration_choices *choices)
{
	bool named;
	bool found = calibration_path(path, HIST_PATH_MAX, &named);
	if (found && secure && named)
		warn_bad_value("MEMSHIM_CALIBRATION", path, "is ignored in a secure-mode (set-user-ID) process",
		               "the built-in thresholds", 0);
	else if (!found && named)
		warn_bad_value("MEMSHIM_CALIBRATION", renamed_getenv("MEMSHIM_CALIBRATION"), "is empty or too long a path",
		               "the built-in thresholds", 0);
	if (found && !secure && calibration_apply(path, named, t, choices))
		return true;
	path[0] = '\0';
	return false;
}
