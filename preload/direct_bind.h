/* Direct binding: after start-up, the calls that other objects make through
 * their PLT go straight to the chosen function instead of through our
 * exported stub, where the stub has nothing to decide (one band). */
#ifndef MEMSHIM_DIRECT_BIND_H
#define MEMSHIM_DIRECT_BIND_H

/* One exported name: the stub that other objects' slots resolved to, and
 * the function to put there instead (NULL: keep the stub). */
struct direct_binding {
	const char *name;
	const void *stub;
	void *target;
};

/* The most names one walk takes (the exported string functions). */
#define BIND_NAMES_MAX 16

/* Rewrites, in every object loaded now except this library, each PLT slot
 * of one of the n names that holds (or would be bound to) its stub, so that
 * it holds the target. */
void direct_bind_loaded_objects(const struct direct_binding *names, unsigned n); /* n <= BIND_NAMES_MAX */

#endif
