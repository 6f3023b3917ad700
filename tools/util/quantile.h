/* Quantiles of measured values: the medians and p10..p90 every command
 * that measures reports. */
#ifndef MEMSHIM_QUANTILE_H
#define MEMSHIM_QUANTILE_H

/* The q-quantile of v[0..n) (sorted in place), interpolated between ranks. */
double quantile(double *v, unsigned n, double q);

#endif
