#include "tools/util/quantile.h"
#include "tools/util/sort.h"

#include <stdlib.h>

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double quantile(double *v, unsigned n, double q)
{
	sort_items(v, n, sizeof *v, by_value);
	double rank = q * (n - 1);
	unsigned lo = (unsigned)rank;
	return lo + 1 < n ? v[lo] + (rank - lo) * (v[lo + 1] - v[lo]) : v[lo];
}
