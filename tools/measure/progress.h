/* A progress line for the long commands (memshim tune --calibrate, memshim
 * bench): on a terminal, one line on stderr rewritten in place; elsewhere
 * (a pipe, a file, a test) nothing at all. */
#ifndef MEMSHIM_TOOLS_PROGRESS_H
#define MEMSHIM_TOOLS_PROGRESS_H

#include <stdbool.h>

struct progress {
	bool on; /* stderr is a terminal */
	const char *what;
	unsigned done, total;
};

void progress_start(struct progress *p, const char *what, unsigned total);
/* One more step done; `detail` says what comes next ("memcpy 4096 B"). */
void progress_step(struct progress *p, const char *detail);
/* Clears the line. */
void progress_end(struct progress *p);

/* Whether a progress line is on the screen now (a signal handler ends it). */
bool progress_showing(void);

#endif
