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

#include "shim/memshim.h"
#include "shim/thresholds.h"
#include "tools/util/cli.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

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

void measure_library_thresholds(const struct thresholds *t)
{
	static void (*install)(const struct memshim_threshold_values *);
	void *lib = measure_library();
	if (!install && lib)
		*(void **)&install = dlsym(lib, "memshim_measure_thresholds");
	if (!install)
		return;
	if (!t) {
		install(NULL);
		return;
	}
	struct memshim_threshold_values v = {
		.movsb = t->movsb, .stosb = t->stosb, .nt = t->nt, .movsb_stop = t->movsb_stop, .set_stosb_beyond_nt = t->set_stosb_beyond_nt,
	};
	install(&v);
}

/* No copy of the variants of its own to fall back on: without the library
 * (cli_library_path said why) nothing can be timed. */
struct measure_variant measure_variant_of(const struct variant *entry)
{
	struct measure_variant v = { .name = entry->name, .install_thresholds = measure_library_thresholds };
	void *lib = measure_library();
	if (lib && dlsym(lib, "memshim_measure_thresholds") && measure_library_functions(lib, entry->name, &v))
		return v;
	if (lib)
		fprintf(stderr, "memshim: %s lacks variant %s: an older library?\n", cli_library_path(), entry->name);
	else
		fprintf(stderr, "memshim: nothing to time variant %s in without the library\n", entry->name);
	exit(1);
}
