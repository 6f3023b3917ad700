/* qsort for arrays that may be empty: an empty array's pointer may be
 * NULL, which qsort's contract does not allow even with no elements
 * (UBSan reports it). */
#ifndef MEMSHIM_TOOLS_UTIL_SORT_H
#define MEMSHIM_TOOLS_UTIL_SORT_H

#include <stdlib.h>

static inline void sort_items(void *base, size_t count, size_t size, int (*order)(const void *, const void *))
{
	if (count)
		qsort(base, count, size, order);
}

#endif
