/* What the C unit tests share: one "ok: WHAT" or "FAIL: WHAT" line per
 * check, and the closing count. */
#ifndef MEMSHIM_TESTS_UNIT_CHECK_H
#define MEMSHIM_TESTS_UNIT_CHECK_H

#include <stdio.h>

static int checks_passed, checks_failed;

static void check(const char *what, int ok)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	checks_failed += !ok;
	checks_passed += ok;
}

/* Prints "N passed, N failed"; the test's exit status. */
static int checks_finish(void)
{
	printf("%d passed, %d failed\n", checks_passed, checks_failed);
	return checks_failed != 0;
}

#endif
