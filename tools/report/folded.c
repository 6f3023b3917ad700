/* memshim report --folded: the sampled call stacks, folded for
 * flamegraph.pl and speedscope (root;...;caller;function bytes). */
#include "config.h"

#include "tools/report/report.h"

#include "dispatch/config.h"
#include "tools/util/symbolize.h"
#include "tools/util/timing_stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Folded stacks for flamegraph.pl and speedscope: root;...;caller;function bytes.
 * Both split a line at its last space, so a frame keeps its spaces (C++'s
 * "f(unsigned long)"); only ';', their frame separator, is replaced. */
static void print_folded_name(const char *frame)
{
	struct frame_info f;
	symbolize_frame(frame, &f);
	const char *name = f.function[0] ? f.function : frame;
	for (const char *p = name; *p; p++)
		putchar(*p == ';' ? '_' : *p);
}

void print_folded(const struct dump *d)
{
	for (size_t i = 0; i < d->callsite_count; i++) {
		const struct dump_site *c = &d->callsites[i];
		char raw[8][1024];
		const char *frames = c->frames;
		int n = 0;
		while (n < 8 && next_frame(&frames, raw[n], sizeof raw[n]))
			n++;
		for (int k = n - 1; k >= 0; k--) {
			print_folded_name(raw[k]);
			putchar(';');
		}
		printf("%s %" PRIu64 "\n", base_function_names[c->fn], c->bytes);
	}
}
