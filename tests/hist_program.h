/* tests/hist_program's call sequence, and its modes for tests/test_signals.sh
 * (tests/hist_program_signals.c). */
#ifndef MEMSHIM_TESTS_HIST_PROGRAM_H
#define MEMSHIM_TESTS_HIST_PROGRAM_H

/* The known sequence of calls (tests/hist_program.c), `times` times. */
void sequence(long times);
/* The modes term-children and dispositions (usage in tests/hist_program.c). */
void run_term_children(long times);
void run_dispositions(void);

#endif
