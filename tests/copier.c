/* A library loaded with dlopen after start-up: its calls are bound then,
 * to memshim's stub (direct binding is done at start-up only). */
#include "tests/bound_symbol.h"

#include <stdio.h>
#include <string.h>

void copier_report(void);

void copier_report(void)
{
	static char a[64], b[64];
	size_t n = (size_t)(a[0] + 3);
	memcpy(a, b, n);
	memmove(a, b, n);
	memset(a, 2, n);
	printf("dlopen-memcpy %s\ndlopen-memmove %s\ndlopen-memset %s\n", bound_symbol("memcpy"),
	       bound_symbol("memmove"), bound_symbol("memset"));
	printf("dlopen-slot memcpy %s\n", slot_holds("memcpy"));
}
