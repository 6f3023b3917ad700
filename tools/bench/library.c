/* The functions memshim bench times: the library's variants, called as
 * memshim_<fn>_<variant> through pointers into the dlopen'ed library (so
 * each, glibc's too, costs one indirect call), its exported functions
 * (--default), and another library's (--peer). */
#include "config.h"

#include "tools/bench/bench.h"

#include "tools/measure/library.h"

#include "dispatch/config.h"
#include "dispatch/export_stub.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

/* ---- the variants ---- */

static void *must_find(void *library, const char *symbol)
{
	void *p = dlsym(library, symbol);
	if (!p)
		fprintf(stderr, "memshim bench: the library has no %s\n", symbol);
	return p;
}

static bool load_variant(void *library, const char *name, struct measure_variant *v)
{
	if (measure_library_functions(library, name, v))
		return true;
	fprintf(stderr, "memshim bench: the library lacks a function of variant %s\n", name);
	return false;
}

bool bench_library_thresholds(size_t *movsb, size_t *stosb, size_t *movsb_stop)
{
	void *library = measure_library();
	void (*get)(struct memshim_threshold_values *) = NULL;
	if (library)
		*(void **)&get = dlsym(library, "memshim_get_threshold_values");
	if (!get)
		return false;
	struct memshim_threshold_values now;
	get(&now);
	*movsb = now.movsb;
	*stosb = now.stosb;
	*movsb_stop = now.movsb_stop;
	return true;
}

/* Whether `name` is in the comma-separated `list`. */
static bool listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = list; *p; p += *p == ',') {
		size_t item = strcspn(p, ",");
		if (item == len && strncmp(p, name, len) == 0)
			return true;
		p += item;
	}
	return false;
}

/* Every name in the list is a usable variant of the library; 2 if not. */
static int check_variant_list(const char *list, const char *(*name_of)(unsigned), int (*usable)(unsigned))
{
	for (const char *p = list; *p; p += *p == ',') {
		size_t len = strcspn(p, ",");
		unsigned i = 0;
		const char *name;
		while ((name = name_of(i)) && !(strlen(name) == len && strncmp(name, p, len) == 0))
			i++;
		if (!name)
			return cli_usage_error("bench", "--variants: \"%.*s\" is not a variant of the library", (int)len, p);
		if (!usable(i))
			return cli_usage_error("bench", "--variants: %s cannot run on this machine", name);
		p += len;
	}
	return 0;
}

/* Fills variants[] from the library: the listed ones (all if none) that can
 * run here, and glibc's, the baseline, in any case.  Exit status on failure. */
int bench_load_variants(const char *list, struct measure_variant *variants, unsigned *count, unsigned *glibc)
{
	void *library = measure_library();
	if (!library)
		return 1;
	const char *(*name_of)(unsigned) = (const char *(*)(unsigned))must_find(library, "memshim_variant_name");
	int (*usable)(unsigned) = (int (*)(unsigned))must_find(library, "memshim_variant_usable");
	if (!name_of || !usable)
		return 1;
	if (list && check_variant_list(list, name_of, usable))
		return 2;
	*count = 0;
	*glibc = MEASURE_MAX_VARIANTS;
	const char *name;
	for (unsigned i = 0; (name = name_of(i)); i++) {
		bool is_glibc = strcmp(name, "glibc") == 0;
		if (!usable(i) || (list && !is_glibc && !listed(list, name)))
			continue;
		if (*count == MEASURE_MAX_VARIANTS) {
			fprintf(stderr, "memshim bench: the library has more than the %d variants this bench can time; "
					"name some with --variants\n",
				MEASURE_MAX_VARIANTS);
			return 1;
		}
		if (!load_variant(library, name, &variants[*count]))
			return 1;
		if (is_glibc)
			*glibc = *count;
		(*count)++;
	}
	if (*glibc == MEASURE_MAX_VARIANTS) {
		fprintf(stderr, "memshim bench: the library's glibc variant, the baseline, cannot run here\n");
		return 1;
	}
	return 0; /* the library stays loaded: its functions are called until exit */
}

/* What the PLT slot of a program loaded with the library holds for the
 * exported `symbol`: the function itself where the stub has one band
 * (direct binding, preload/direct_bind.c, checked by
 * tests/test_direct_bind.sh), else the stub. */
static void *as_a_program_calls(void *library, const char *symbol)
{
	void *stub = must_find(library, symbol), *rest;
	struct export_bands bands;
	void *direct = stub && export_stub_decode(stub, &bands, &rest) ? export_bands_single_target(&bands) : NULL;
	return direct && config_get()->direct_binding ? direct : stub;
}

/* The library's exported functions as one more column: the bands or
 * variant its resolvers chose in this environment, reached as a preloaded
 * program reaches them. */
int bench_load_default(struct measure_variant *variants, unsigned *count)
{
	void *library = measure_library();
	if (!library)
		return 1;
	struct measure_variant *v = &variants[(*count)++];
	*v = (struct measure_variant){ .name = "default" };
	*(void **)&v->copy[FN_MEMCPY] = as_a_program_calls(library, "memcpy");
	*(void **)&v->copy[FN_MEMMOVE] = as_a_program_calls(library, "memmove");
	*(void **)&v->set = as_a_program_calls(library, "memset");
	return v->copy[FN_MEMCPY] && v->copy[FN_MEMMOVE] && v->set ? 0 : 1;
}

/* ---- the peers: other libraries' functions ---- */

/* dlsym searches a library's dependencies too: a peer without memset would
 * give the C library's.  Only a definition in the peer's own file counts. */
static void *own_symbol(void *library, const char *symbol)
{
	struct link_map *own, *found;
	Dl_info info;
	void *p = dlsym(library, symbol);
	if (!p || dlinfo(library, RTLD_DI_LINKMAP, &own) != 0 ||
	    !dladdr1(p, &info, (void **)&found, RTLD_DL_LINKMAP))
		return NULL;
	return found == own ? p : NULL;
}

/* RTLD_LOCAL: the peer's memcpy is only called through its pointer, never
 * bound in place of the one this program calls. */
static int load_peer(const struct peer_spec *p, struct measure_variant *v)
{
	void *library = dlopen(p->path, RTLD_NOW | RTLD_LOCAL);
	if (!library)
		return cli_usage_error("bench", "--peer %s: %s", p->name, dlerror());
	*v = (struct measure_variant){ .name = p->name, .peer_file = p->path };
	char symbol[96];
	bool any = false;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		snprintf(symbol, sizeof symbol, "%s%s", p->prefix, base_function_names[fn]);
		void *f = own_symbol(library, symbol);
		any |= f != NULL;
		if (fn == FN_MEMSET)
			*(void **)&v->set = f;
		else
			*(void **)&v->copy[fn] = f;
	}
	if (!any) {
		dlclose(library);
		return cli_usage_error("bench", "--peer %s: %s defines none of %smemcpy, %smemmove, %smemset", p->name, p->path,
				   p->prefix, p->prefix, p->prefix);
	}
	return 0; /* it stays loaded, like the library */
}

/* Appends the peers to variants[], after the library's. */
int bench_load_peers(const struct bench_options *o, struct measure_variant *variants, unsigned *count)
{
	for (unsigned i = 0; i < o->peer_count; i++) {
		for (unsigned k = 0; k < *count; k++)
			if (strcmp(variants[k].name, o->peers[i].name) == 0)
				return cli_usage_error("bench", "--peer %s: a variant or another peer has that name", o->peers[i].name);
		int rc = load_peer(&o->peers[i], &variants[*count]);
		if (rc)
			return rc;
		(*count)++;
	}
	return 0;
}

