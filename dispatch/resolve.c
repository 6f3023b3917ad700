#include "dispatch/resolve.h"

#include "dispatch/config.h"

const struct entry_set *resolve_entries(enum base_function fn)
{
	return config_get()->choice[fn].variant->entries();
}
