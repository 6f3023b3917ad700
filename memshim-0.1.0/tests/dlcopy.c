/* A library that copies, loaded and unloaded in a loop by
 * tests/hist_program dlopen-loop: each dlcopy() is one 77-byte memcpy and
 * one 333-byte memset of 0x5a. */
#include <string.h>

void dlcopy(void);

static char a[512], b[512];

void dlcopy(void)
{
	memcpy(a, b, 77);
	memset(a, 0x5a, 333);
}
