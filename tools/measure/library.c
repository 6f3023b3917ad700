/* The variants timed as a program calls them (tools/measure/library.h).
 *
 * A program reaches the library's code in another object, far from its
 * own.  This program's copies of the same code, linked in beside the
 * timing loop, ran 10-20% faster at 0-16 B than glibc's function did from
 * the same loop, where the library's ran as fast as glibc's: the calibration
 * credited the variants with a gain no program gets (D27).  So every
 * variant is called in the library, glibc's too
 * (memshim_<fn>_glibc resolves to glibc's function itself). */
#include "config.h"

#include "tools/measure/library.h"

#include "tools/util/cli.h"

#include <dlfcn.h>
#include <stdio.h>

void *measure_library(void)
{
	static void *handle;
	static bool tried;
	if (!tried) {
		tried = true;
		const char *path = cli_library_path();
		handle = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
		if (path && !handle)
			fprintf(stderr, "memshim: cannot load %s: %s\n", path, dlerror());
	}
	return handle;
}

/* POSIX lets a data pointer from dlsym name a function. */
static bool find(void *lib, const char *fn, const char *variant, void **out)
{
	char symbol[96];
	snprintf(symbol, sizeof symbol, "memshim_%s_%s", fn, variant);
	*out = dlsym(lib, symbol);
	return *out != NULL;
}

bool measure_library_functions(void *lib, const char *name, struct measure_variant *v)
{
	v->name = name;
	return find(lib, "memcpy", name, (void **)&v->copy[FN_MEMCPY]) &&
	       find(lib, "memmove", name, (void **)&v->copy[FN_MEMMOVE]) && find(lib, "memset", name, (void **)&v->set);
}

static bool from_library(const char *name, struct measure_variant *v)
{
	void *lib = measure_library();
	if (!lib)
		return false;
	*(void **)&v->set_thresholds = dlsym(lib, "memshim_set_thresholds");
	return v->set_thresholds && measure_library_functions(lib, name, v);
}

struct measure_variant measure_variant_of(const struct variant *row)
{
	struct measure_variant v = { .name = row->name };
	if (from_library(row->name, &v))
		return v;
	const struct entry_set *e = row->entries();
	v = (struct measure_variant){ .name = row->name, .set = e->memset };
	v.copy[FN_MEMCPY] = (copy_fn *)e->memcpy;
	v.copy[FN_MEMMOVE] = (copy_fn *)e->memmove;
	return v;
}
