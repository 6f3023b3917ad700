/* memshim report --fleetbench-csv: each function's sizes, overlaps and
 * alignments in fleetbench's size:probability format. */
#include "config.h"

#include "tools/report/report.h"

#include "dispatch/config.h"
#include "tools/report/symbolize.h"
#include "tools/util/output_file.h"
#include "tools/util/timing_stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fleetbench's three lines: size:probability, overlap, alignment:probability. */
int write_fleetbench(const struct dump *d, const char *prefix, bool replace)
{
	static const char *const names[FN_COUNT] = { "Memcpy", "Memmove", "Memset" };
	for (int fn = 0; fn < FN_COUNT; fn++) {
		const struct function_histogram *f = &d->hist.fn[fn];
		uint64_t calls = sum_buckets(f->calls);
		char path[4096];
		snprintf(path, sizeof path, "%s%s.csv", prefix, names[fn]);
		if (!calls) { /* no distribution: an empty first line is one fleetbench's reader refuses */
			fprintf(stderr, "memshim report: no %s calls recorded: %s not written\n", base_function_names[fn], path);
			continue;
		}
		struct output_file o;
		FILE *out = output_open(&o, "report", path);
		if (!out)
			return -1;
		/* each bucket's calls at the bucket's mean size, which is exact for sizes 0..16 */
		const char *sep = "";
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (f->calls[b]) {
				fprintf(out, "%s%" PRIu64 ":%.9g", sep, (f->bytes[b] + f->calls[b] / 2) / f->calls[b],
				        (double)f->calls[b] / (double)calls);
				sep = ",";
			}
		uint64_t overlapping = f->overlap_dst_before + f->overlap_dst_after;
		fprintf(out, "\n0:%.9g,1:%.9g\n", calls ? 1 - share(overlapping, calls) / 100 : 1,
		        share(overlapping, calls) / 100);
		/* alignment: the largest power of two (up to 64) dividing the
		   destination, of the calls sampled for it (preload/record.c) */
		uint64_t by_alignment[7] = { 0 }, sampled = sum_mod64(f->dst_mod64);
		for (unsigned m = 0; m < 64; m++)
			by_alignment[m ? __builtin_ctz(m) : 6] += f->dst_mod64[m];
		for (int a = 0; a < 7; a++)
			fprintf(out, "%s%d:%.9g", a ? "," : "", 1 << a, share(by_alignment[a], sampled) / 100);
		fprintf(out, "\n");
		if (!output_finish(&o, "report", replace))
			return -1;
	}
	return 0;
}
