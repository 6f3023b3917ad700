/* The table of preload/call_buckets.h. */
#include "preload/call_buckets.h"

uint8_t size_bucket_table[CALL_BUCKETS_LOOKED_UP];

_Static_assert(CALL_BUCKETS_LOOKED_UP <= 8192, "a byte holds every bucket below 8 KiB");

void call_buckets_fill(void)
{
	if (size_bucket_table[CALL_BUCKETS_LOOKED_UP - 1])
		return; /* filled by an earlier resolver */
	for (unsigned n = 0; n < CALL_BUCKETS_LOOKED_UP; n++)
		size_bucket_table[n] = (uint8_t)hist_bucket(n);
}
