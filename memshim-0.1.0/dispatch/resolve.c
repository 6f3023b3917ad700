#include "dispatch/resolve.h"

#include "dispatch/config.h"
#include "shim/record.h"

const struct entry_set *resolve_entries(enum base_function fn)
{
	const struct config *c = config_get();
	const struct entry_set *chosen = c->choice[fn].variant->entries();
	return c->hist_path[0] ? record_entries(fn, chosen) : chosen;
}
