/* Calls the string functions through the PLT and prints what each call was
 * bound to, one "NAME SYMBOL" line each, and whether its PLT slot holds
 * memshim's stub or that function itself ("slot NAME stub|direct"); with the argument "dlopen", also
 * loads tests/libcopier.so and prints what its calls were bound to.  Built
 * twice: with -z now (resolvers run before the C library is set up) and
 * with lazy binding. */
#include "tests/bound_symbol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__memcpy_chk(void *, const void *, size_t, size_t);

int main(int argc, char **argv)
{
	char a[64] = { 0 }, b[64] = { 0 };
	size_t n = (size_t)argc; /* not a constant: keeps the calls real */
	memcpy(a, b, n);
	mempcpy(a, b, n);
	__memcpy_chk(a, b, n, sizeof a);
	memmove(a, b, n);
	memset(a, 1, n);
	bzero(a, n);
	printf("memcpy %s\nmempcpy %s\n__memcpy_chk %s\nmemmove %s\nmemset %s\nbzero %s\n",
	       bound_symbol("memcpy"), bound_symbol("mempcpy"), bound_symbol("__memcpy_chk"),
	       bound_symbol("memmove"), bound_symbol("memset"), bound_symbol("bzero"));
	printf("slot memcpy %s\nslot mempcpy %s\nslot __memcpy_chk %s\nslot memmove %s\nslot memset %s\n"
	       "slot bzero %s\n",
	       slot_holds("memcpy"), slot_holds("mempcpy"), slot_holds("__memcpy_chk"), slot_holds("memmove"),
	       slot_holds("memset"), slot_holds("bzero"));
	if (argc > 1 && strcmp(argv[1], "dlopen") == 0) {
		void *lib = dlopen(argv[2], RTLD_NOW);
		void (*report)(void) = lib ? (void (*)(void))dlsym(lib, "copier_report") : NULL;
		if (!report) {
			fprintf(stderr, "cannot load %s: %s\n", argv[2], dlerror());
			return 1;
		}
		report();
	}
	if (argc > 1 && strcmp(argv[1], "preload") == 0)
		printf("LD_PRELOAD %s\n", getenv("LD_PRELOAD") ? getenv("LD_PRELOAD") : "");
	return a[0] == 7; /* uses the result, so nothing above is dead */
}
