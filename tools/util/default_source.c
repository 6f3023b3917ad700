/* The default's source in words (default_source.h), for info and tune. */
#include "tools/util/default_source.h"

#include "dispatch/config.h"
#include "dispatch/cpu_features.h"
#include "dispatch/cpu_rows.h"

#include <stdio.h>

/* Whether the calibration file the library read chose any function's
 * variants (a version 1 file sets thresholds only, the row the rest). */
static bool file_chose(const struct config *c)
{
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (c->calibrated.bands[fn].count)
			return true;
	return false;
}

void default_source(char *text, size_t size)
{
	const struct config *c = config_get();
	const struct cpu_row *r = cpu_row_for(cpu_features());
	if (c->calibration_path[0] && file_chose(c))
		snprintf(text, size, "the calibration file %s", c->calibration_path);
	else if (r)
		snprintf(text, size, "the shipped CPU row %s", r->file);
	else
		snprintf(text, size, "glibc's own functions (no calibration file, no row for this CPU class)");
}
