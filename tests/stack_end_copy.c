/* A program linked without PIE that reads __libc_stack_end, so that the
 * link gives it a copy relocation of it (as Debian's node has): until the
 * program itself is relocated, its copy, which a preloaded library's
 * reference binds to, is 0.  Prints the variable's value set by then, and
 * copies through memcpy so that the resolver of a lazily bound call runs too. */
#include <stdio.h>
#include <string.h>

extern void *__libc_stack_end;

int main(int argc, char **argv)
{
	char buf[64];
	const char *text = argc > 1 ? argv[1] : "copied";
	memcpy(buf, text, strlen(text) + 1);
	printf("%s %d\n", buf, __libc_stack_end != NULL);
	return 0;
}
