/* Starting the recording: the dumps, the signal watch, the call sites, the
 * profile, the timed calls, the windows of calls and the A/B, in that order (preload/record_start.h).
 * Here, not in the dump (preload/hist_dump.c), which the signal and exit
 * paths call: the dump reads what the parts counted, and starts none. */
#include "preload/record_start.h"

#include "dispatch/config.h"
#include "preload/ab.h"
#include "preload/hist_dump.h"
#include "preload/profile.h"
#include "preload/record.h"
#include "preload/signal_dump.h"

void record_start(void)
{
	const struct config *c = config_get();
	if (!c->hist_path[0])
		return;
	hist_dump_arm();
	signal_dump_start();
	if (c->callsite_every)
		record_start_callsites(c->callsite_every, c->stack_depth);
	if (c->profile_hz)
		profile_start(c->profile_hz, record_targets());
	if (c->timing_every)
		record_start_timing(c->timing_every);
	if (c->sequence_length)
		record_start_sequences(c->sequence_length);
	if (c->ab)
		ab_start();
	record_started();
}
