/* memshim report --folded: the sampled call stacks, whole, folded for
 * flamegraph.pl and speedscope (root;...;caller;function bytes). */
#include "config.h"

#include "tools/report/report.h"

#include "dispatch/config.h"
#include "tools/report/symbolize.h"
#include "tools/util/escape.h"
#include "tools/util/timing_stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Folded stacks for flamegraph.pl and speedscope: root;...;caller;function bytes.
 * Both split a line at its last space, so a frame keeps its spaces (C++'s
 * "f(unsigned long)"); only ';', their frame separator, is replaced, and
 * bytes that are not UTF-8. */
static void print_folded_name(const char *frame)
{
	struct frame_info f;
	symbolize_frame(frame, &f);
	write_escaped(stdout, f.function[0] ? f.function : frame, ESCAPE_FOLDED);
}

/* A site's frames, the caller first in the dump, root first: read from
 * the end, so that a stack of any depth needs no more than one frame's room. */
static void print_stack(const char *frames)
{
	size_t end = strlen(frames);
	while (end > 0) {
		size_t start = end;
		while (start > 0 && frames[start - 1] != ' ')
			start--;
		char raw[1024];
		size_t len = end - start;
		snprintf(raw, sizeof raw, "%.*s", (int)(len < sizeof raw ? len : sizeof raw - 1), frames + start);
		print_folded_name(raw);
		putchar(';');
		end = start ? start - 1 : 0;
	}
}

void print_folded(const struct dump *d)
{
	for (size_t i = 0; i < d->callsite_count; i++) {
		const struct dump_site *c = &d->callsites[i];
		print_stack(c->frames);
		printf("%s %" PRIu64 "\n", base_function_names[c->fn], c->bytes);
	}
}
