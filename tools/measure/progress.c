#include "tools/measure/progress.h"

#include <stdio.h>
#include <unistd.h>

static volatile bool showing;

void progress_start(struct progress *p, const char *what, unsigned total)
{
	*p = (struct progress){ .on = isatty(STDERR_FILENO) == 1, .what = what, .total = total ? total : 1 };
}

void progress_step(struct progress *p, const char *detail)
{
	if (p->done < p->total)
		p->done++;
	if (!p->on)
		return;
	/* \r and clear to the end of the line: a shorter detail leaves no tail. */
	fprintf(stderr, "\r\033[K%s: %3u%% %s", p->what, 100 * p->done / p->total, detail);
	fflush(stderr);
	showing = true;
}

void progress_end(struct progress *p)
{
	if (p->on && showing) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	showing = false;
}

bool progress_showing(void) { return showing; }
