/* memshim record's command: run in a child with the signals record gets
 * passed on (tools/record/child.c). */
#ifndef MEMSHIM_TOOLS_RECORD_H
#define MEMSHIM_TOOLS_RECORD_H
#include <stdbool.h>

/* Runs argv (argv[0] the program) as memshim run does, in a child, and
 * waits for it, passing on the signals record gets; its exit status as a
 * shell gives it. */
int record_run_child(char **argv);
/* Whether record got one of the signals it passes on. */
bool record_signal_seen(void);
/* What became of the command, when record passed a signal on to it or
 * SIGKILL left it no chance to dump. */
void record_say_how_it_ended(int status, bool dumped);
#endif
