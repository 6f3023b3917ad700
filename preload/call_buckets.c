/* The table of preload/call_buckets.h. */
#include "preload/call_buckets.h"

uint16_t bucket_offset_table[CALL_BUCKETS_LOOKED_UP];

void call_buckets_fill(void)
{
	if (bucket_offset_table[CALL_BUCKETS_LOOKED_UP - 1])
		return; /* filled by an earlier resolver */
	for (unsigned n = 0; n < CALL_BUCKETS_LOOKED_UP; n++)
		bucket_offset_table[n] = (uint16_t)(hist_bucket(n) * sizeof(uint64_t));
}
