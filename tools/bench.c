/* memshim bench: times every usable variant, glibc's included as the
 * baseline, for memcpy, memmove and memset on this machine.
 *
 * The variants are called as memshim_<fn>_<variant> through pointers into
 * the dlopen'ed library, so each, glibc's too, costs one indirect call; so
 * are a peer's (--peer: another library, such as AOCL-LibMem).  What is timed
 * is listed in bench_help; how, in bench_measure.c. */
#include "config.h"

#include "dispatch/config.h"
#include "dispatch/cpu_features.h"
#include "tools/util/measure.h"
#include "tools/util/caches.h"
#include "tools/util/progress.h"
#include "tools/util/cli.h"
#include "tools/util/cli_options.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const case_kind_names[CASE_KIND_COUNT] = { "sweep", "align", "alias4k", "class", "dist" };

static const char bench_help[] =
	"usage: memshim bench [OPTIONS]\n"
	"Times every usable variant of memcpy, memmove and memset against glibc's:\n"
	"  sweep    fixed sizes 0 B .. 64 MiB (8 steps per power of two from 512 B\n"
	"           to 64 KiB), hot buffers, and cold ones (flushed from the caches)\n"
	"  align    source/destination offsets mod 64\n"
	"  alias4k  (dst - src) mod 4096 small: loads that seem to hit earlier stores\n"
	"  class    random sizes within the size classes of the project's targets\n"
	"           (0-16 .. 4K-32K hot, 32K-256K .. 4M-32M cold), random offsets;\n"
	"           memmove with and without overlap\n"
	"  dist     random sizes and offsets from call-size distributions (google/fleetbench),\n"
	"           hot (one room), spread over half the L2 (l2), and cold\n"
	"Variants run interleaved over several rounds.  The text (100 columns at most)\n"
	"gives glibc's median time per call and each variant's median per-round ratio\n"
	"to it, then per function the fastest variant in each size class and where the\n"
	"best single variant loses to glibc; each variant's own times are in --csv.\n"
	"Options:\n"
	"  --quick               the main sizes and cases only, fewer rounds (< 30 s)\n"
	"  --functions LIST      of memcpy,memmove,memset (default: all)\n"
	"  --variants LIST       variants to time (default: every usable one); glibc always\n"
	"  --cases LIST          of sweep,align,alias4k,class,dist (default: all)\n"
	"  --sizes LIST          sweep sizes instead of the default ones (e.g. 64,4K,1M)\n"
	"  --distribution FILE   a call-size CSV (either format of data/distributions/README.md)\n"
	"                        or a histogram dump (MEMSHIM_HIST: each function its own\n"
	"                        sizes) instead of the built-in ones; may be repeated\n"
	"  --rounds N            rounds per case (default 15, --quick 7; at least 3)\n"
	"  --csv FILE            every result, one row per variant and case: function,\n"
	"                        variant, case, size (bytes, class or distribution),\n"
	"                        alignment, placement (hot, l2, cold), median, p10, p90,\n"
	"                        unit, ratio to glibc, bytes per unit\n"
	"  --svg FILE            time per call and bytes per unit time against size\n"
	"  --default             also time the library's exported memcpy, memmove and\n"
	"                        memset as the column `default`: what a program preloading\n"
	"                        it gets in this environment (the default's size bands, or\n"
	"                        MEMSHIM_IMPL/MEMSHIM_MEMCPY..., with the exported stub)\n"
	"  --every-placement     the class case with each class's data in L1, spread over\n"
	"                        half the L2, and cold (default: hot to 32K, cold beyond)\n"
	"  --peer NAME=PATH[:PREFIX]\n"
	"                        also time another library's PREFIXmemcpy, PREFIXmemmove\n"
	"                        and PREFIXmemset (no PREFIX: memcpy, ...) as the column\n"
	"                        NAME; a function it lacks is left out of that function's\n"
	"                        cases.  PATH as dlopen(3) takes it (one with a ':' in it\n"
	"                        needs a ':' at its end); may be repeated, up to 4 times\n"
	"  --draws N             instead: draw N sizes, alignments and overlaps from each\n"
	"                        distribution as the dist case does, and print how often\n"
	"                        each came up beside its probability (nothing is timed)\n"
	"  --stub                instead: what the exported names' one jump adds to a\n"
	"                        call (memcpy against the variant its slot jumps to)\n"
	"The library is $MEMSHIM_LIBRARY if set, else the one next to this program or\n"
	"installed; the distributions $MEMSHIM_DISTRIBUTIONS, else likewise.\n";

#define MAX_DISTRIBUTIONS 16
#define BENCH_MAX_DRAWS 100000000
#define MAX_SIZES 128
#define MAX_RESULTS 4096

/* --peer NAME=PATH[:PREFIX] */
#define PEER_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
#define PEER_PREFIX_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

struct peer_spec {
	char name[16];
	char path[4096];
	char prefix[64]; /* of the symbols: "__folly_" for __folly_memcpy */
};

struct options {
	bool quick, stub, with_default, every_placement;
	unsigned functions; /* bit per enum base_function */
	unsigned cases;     /* bit per enum case_kind */
	const char *variants;
	const char *csv, *svg;
	const char *distributions[MAX_DISTRIBUTIONS];
	unsigned distribution_count;
	size_t sizes[MAX_SIZES];
	unsigned size_count;
	unsigned rounds, draws;
	struct peer_spec peers[BENCH_MAX_PEERS];
	unsigned peer_count;
};

/* ---- arguments ---- */

static int usage_error(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	fputs("memshim bench: ", stderr);
	vfprintf(stderr, format, args);
	fputs(" (see memshim bench --help)\n", stderr);
	va_end(args);
	return 2;
}

/* Sets a bit for each comma-separated item of `list` found in names[0..count). */
static int parse_names(const char *option, const char *list, const char *const *names, unsigned count,
		       unsigned *bits)
{
	*bits = 0;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		unsigned i = 0;
		while (i < count && !(strlen(names[i]) == len && strncmp(names[i], p, len) == 0))
			i++;
		if (i == count)
			return usage_error("%s: \"%.*s\" is not one of its choices", option, (int)len, p);
		*bits |= 1u << i;
		p += len;
		if (*p == '\0')
			return 0;
	}
}

static int parse_sizes(const char *list, struct options *o)
{
	o->size_count = 0;
	for (const char *p = list;; p++) {
		char item[32];
		size_t len = strcspn(p, ",");
		snprintf(item, sizeof item, "%.*s", (int)(len < 31 ? len : 31), p);
		unsigned long long n;
		const char *problem = len < 31 ? parse_byte_count(item, 64ull << 20, &n) : "is too long";
		if (problem)
			return usage_error("--sizes: \"%s\" %s (sizes go up to 64M)", item, problem);
		if (o->size_count == MAX_SIZES)
			return usage_error("--sizes: more than %d sizes", MAX_SIZES);
		o->sizes[o->size_count++] = (size_t)n;
		p += len;
		if (*p == '\0')
			return 0;
	}
}

static int parse_rounds(const char *value, struct options *o)
{
	if (!cli_whole_number(value, 3, BENCH_MAX_ROUNDS, &o->rounds))
		return usage_error("--rounds \"%s\" is not a number from 3 to %d", value, BENCH_MAX_ROUNDS);
	return 0;
}

/* NAME=PATH[:PREFIX]; the prefix follows the last ':', so that a path with a
 * ':' in it can be given with an empty prefix after it. */
static int parse_peer(const char *value, struct options *o)
{
	if (o->peer_count == BENCH_MAX_PEERS)
		return usage_error("more than %d --peer libraries", BENCH_MAX_PEERS);
	struct peer_spec *p = &o->peers[o->peer_count];
	size_t name_len = strcspn(value, "=");
	const char *path = value + name_len + (value[name_len] == '=');
	const char *colon = strrchr(path, ':');
	size_t path_len = colon ? (size_t)(colon - path) : strlen(path);
	const char *prefix = colon ? colon + 1 : "";
	if (value[name_len] != '=' || name_len == 0 || path_len == 0)
		return usage_error("--peer \"%s\" is not NAME=PATH[:PREFIX]", value);
	if (name_len >= sizeof p->name || strspn(value, PEER_NAME_CHARS) < name_len)
		return usage_error("--peer: the name \"%.*s\" is not up to %zu letters, digits, '_' or '-'",
				   (int)name_len, value, sizeof p->name - 1);
	if (path_len >= sizeof p->path)
		return usage_error("--peer %.*s: the path is too long", (int)name_len, value);
	if (strlen(prefix) >= sizeof p->prefix || prefix[strspn(prefix, PEER_PREFIX_CHARS)] != '\0')
		return usage_error("--peer %.*s: \"%s\" is not a symbol prefix (a path with a ':' in it "
				   "needs a ':' at its end)", (int)name_len, value, prefix);
	snprintf(p->name, sizeof p->name, "%.*s", (int)name_len, value);
	snprintf(p->path, sizeof p->path, "%.*s", (int)path_len, path);
	snprintf(p->prefix, sizeof p->prefix, "%s", prefix);
	o->peer_count++;
	return 0;
}

enum { BENCH_QUICK = 1, BENCH_STUB, BENCH_DEFAULT, BENCH_EVERY_PLACEMENT, BENCH_FUNCTIONS, BENCH_CASES, BENCH_SIZES, BENCH_ROUNDS, BENCH_VARIANTS,
       BENCH_CSV, BENCH_SVG, BENCH_DISTRIBUTION, BENCH_PEER, BENCH_DRAWS };

static const struct option bench_options[] = {
	{ "quick", no_argument, NULL, BENCH_QUICK },
	{ "stub", no_argument, NULL, BENCH_STUB },
	{ "default", no_argument, NULL, BENCH_DEFAULT },
	{ "every-placement", no_argument, NULL, BENCH_EVERY_PLACEMENT },
	{ "functions", required_argument, NULL, BENCH_FUNCTIONS },
	{ "cases", required_argument, NULL, BENCH_CASES },
	{ "sizes", required_argument, NULL, BENCH_SIZES },
	{ "rounds", required_argument, NULL, BENCH_ROUNDS },
	{ "variants", required_argument, NULL, BENCH_VARIANTS },
	{ "csv", required_argument, NULL, BENCH_CSV },
	{ "svg", required_argument, NULL, BENCH_SVG },
	{ "distribution", required_argument, NULL, BENCH_DISTRIBUTION },
	{ "peer", required_argument, NULL, BENCH_PEER },
	{ "draws", required_argument, NULL, BENCH_DRAWS },
	{ 0 },
};

static int apply_option(void *context, int id, const char *name, const char *value)
{
	struct options *o = context;
	if (id != BENCH_QUICK && id != BENCH_STUB && id != BENCH_DEFAULT && id != BENCH_EVERY_PLACEMENT &&
	    *value == '\0')
		return usage_error("%s needs a value", name);
	switch (id) {
	case BENCH_QUICK:
		o->quick = true;
		return 0;
	case BENCH_STUB:
		o->stub = true;
		return 0;
	case BENCH_DEFAULT:
		o->with_default = true;
		return 0;
	case BENCH_EVERY_PLACEMENT:
		o->every_placement = true;
		return 0;
	case BENCH_FUNCTIONS:
		return parse_names(name, value, base_function_names, FN_COUNT, &o->functions);
	case BENCH_CASES:
		return parse_names(name, value, case_kind_names, CASE_KIND_COUNT, &o->cases);
	case BENCH_SIZES:
		return parse_sizes(value, o);
	case BENCH_ROUNDS:
		return parse_rounds(value, o);
	case BENCH_PEER:
		return parse_peer(value, o);
	case BENCH_VARIANTS:
		o->variants = value;
		return 0;
	case BENCH_CSV:
		o->csv = value;
		return 0;
	case BENCH_SVG:
		o->svg = value;
		return 0;
	case BENCH_DRAWS:
		if (!cli_whole_number(value, 1, BENCH_MAX_DRAWS, &o->draws))
			return usage_error("--draws \"%s\" is not a whole number from 1 to %d", value, BENCH_MAX_DRAWS);
		return 0;
	default: /* BENCH_DISTRIBUTION */
		if (o->distribution_count == MAX_DISTRIBUTIONS)
			return usage_error("more than %d --distribution files", MAX_DISTRIBUTIONS);
		o->distributions[o->distribution_count++] = value;
		return 0;
	}
}

static int parse_options(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .functions = (1u << FN_COUNT) - 1, .cases = (1u << CASE_KIND_COUNT) - 1 };
	const struct cli_syntax syntax = { "bench", bench_options, false };
	int first, rc = cli_parse_options(argc, argv, &syntax, apply_option, o, &first);
	if (rc)
		return rc;
	if (first < argc)
		return usage_error("unexpected argument \"%s\"", argv[first]);
	if (o->stub && o->peer_count)
		return usage_error("--stub times the library's own entry points, not a --peer's");
	if (!o->rounds)
		o->rounds = o->quick ? 7 : 15;
	return 0;
}

/* ---- the variants, from the library ---- */

static void *must_find(void *library, const char *symbol)
{
	void *p = dlsym(library, symbol);
	if (!p)
		fprintf(stderr, "memshim bench: the library has no %s\n", symbol);
	return p;
}

static bool load_variant(void *library, const char *name, struct bench_variant *v)
{
	char symbol[96];
	v->name = name;
	for (int fn = 0; fn < FN_COUNT; fn++) {
		snprintf(symbol, sizeof symbol, "memshim_%s_%s", base_function_names[fn], name);
		void *p = must_find(library, symbol);
		if (!p)
			return false;
		/* POSIX lets a data pointer from dlsym name a function. */
		if (fn == FN_MEMSET)
			*(void **)&v->set = p;
		else
			*(void **)&v->copy[fn] = p;
	}
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
			return usage_error("--variants: \"%.*s\" is not a variant of the library", (int)len, p);
		if (!usable(i))
			return usage_error("--variants: %s cannot run on this machine", name);
		p += len;
	}
	return 0;
}

/* Fills variants[] from the library: the listed ones (all if none) that can
 * run here, and glibc's, the baseline, in any case.  Exit status on failure. */
static void *open_library(void)
{
	const char *path = cli_library_path();
	void *library = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
	if (!library && path)
		fprintf(stderr, "memshim bench: cannot load %s: %s\n", path, dlerror());
	return library;
}

static int load_variants(const char *list, struct bench_variant *variants, unsigned *count, unsigned *glibc)
{
	void *library = open_library();
	if (!library)
		return 1;
	const char *(*name_of)(unsigned) = (const char *(*)(unsigned))must_find(library, "memshim_variant_name");
	int (*usable)(unsigned) = (int (*)(unsigned))must_find(library, "memshim_variant_usable");
	if (!name_of || !usable)
		return 1;
	if (list && check_variant_list(list, name_of, usable))
		return 2;
	*count = 0;
	*glibc = BENCH_MAX_VARIANTS;
	const char *name;
	for (unsigned i = 0; (name = name_of(i)) && *count < BENCH_MAX_VARIANTS; i++) {
		bool is_glibc = strcmp(name, "glibc") == 0;
		if (!usable(i) || (list && !is_glibc && !listed(list, name)))
			continue;
		if (!load_variant(library, name, &variants[*count]))
			return 1;
		if (is_glibc)
			*glibc = *count;
		(*count)++;
	}
	if (*glibc == BENCH_MAX_VARIANTS) {
		fprintf(stderr, "memshim bench: the library's glibc variant, the baseline, cannot run here\n");
		return 1;
	}
	return 0; /* the library stays loaded: its functions are called until exit */
}

/* The library's exported functions as one more column: the bands or
 * variant its resolvers chose in this environment, reached through the
 * exported stub as a preloaded program reaches them. */
static int load_default(struct bench_variant *variants, unsigned *count)
{
	void *library = open_library();
	if (!library)
		return 1;
	struct bench_variant *v = &variants[(*count)++];
	*v = (struct bench_variant){ .name = "default" };
	*(void **)&v->copy[FN_MEMCPY] = must_find(library, "memcpy");
	*(void **)&v->copy[FN_MEMMOVE] = must_find(library, "memmove");
	*(void **)&v->set = must_find(library, "memset");
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
static int load_peer(const struct peer_spec *p, struct bench_variant *v)
{
	void *library = dlopen(p->path, RTLD_NOW | RTLD_LOCAL);
	if (!library)
		return usage_error("--peer %s: %s", p->name, dlerror());
	*v = (struct bench_variant){ .name = p->name, .peer_file = p->path };
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
		return usage_error("--peer %s: %s defines none of %smemcpy, %smemmove, %smemset", p->name, p->path,
				   p->prefix, p->prefix, p->prefix);
	}
	return 0; /* it stays loaded, like the library */
}

/* Appends the peers to variants[], after the library's. */
static int load_peers(const struct options *o, struct bench_variant *variants, unsigned *count)
{
	for (unsigned i = 0; i < o->peer_count; i++) {
		for (unsigned k = 0; k < *count; k++)
			if (strcmp(variants[k].name, o->peers[i].name) == 0)
				return usage_error("--peer %s: a variant or another peer has that name", o->peers[i].name);
		int rc = load_peer(&o->peers[i], &variants[*count]);
		if (rc)
			return rc;
		(*count)++;
	}
	return 0;
}

/* ---- the cases ---- */

struct plan {
	struct bench_case *cases;
	size_t count;
};

static void add(struct plan *p, struct bench_case c)
{
	if (p->count < MAX_RESULTS)
		p->cases[p->count++] = c;
}

static struct bench_case fixed(enum base_function fn, enum case_kind kind, size_t size, bool cold, int so,
			       int dof)
{
	struct bench_case c = { .fn = fn, .kind = kind, .cold = cold, .lo = size, .hi = size,
				.src_offset = so, .dst_offset = dof };
	snprintf(c.label, sizeof c.label, "%zu", size);
	if (fn == FN_MEMSET) /* no source */
		snprintf(c.align, sizeof c.align, "d%d", dof);
	else
		snprintf(c.align, sizeof c.align, "s%d/d%d", so, dof);
	return c;
}

/* Sweep sizes: coarse (two per power of two) outside 512 B .. 64 KiB, where
 * the variants' thresholds lie, eight per power of two inside. */
static unsigned default_sweep(bool quick, size_t *sizes)
{
	static const size_t quick_sizes[] = { 0, 8, 16, 32, 64, 128, 256, 512, 768, 1024, 1536, 2048,
					      3072, 4096, 8192, 16384, 32768, 65536, 262144, 1u << 20,
					      4u << 20, 16u << 20, 64u << 20 };
	unsigned n = 0;
	if (quick) {
		for (; n < sizeof quick_sizes / sizeof quick_sizes[0]; n++)
			sizes[n] = quick_sizes[n];
		return n;
	}
	static const size_t small[] = { 0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384 };
	for (; n < sizeof small / sizeof small[0]; n++)
		sizes[n] = small[n];
	for (size_t base = 512; base < 65536; base *= 2)
		for (size_t step = 0; step < 8; step++)
			sizes[n++] = base + step * base / 8;
	for (size_t base = 65536; base <= (64u << 20); base *= 2) {
		sizes[n++] = base;
		if (base < (64u << 20))
			sizes[n++] = base + base / 2;
	}
	return n;
}

static bool power_of_4_from_64(size_t n) { return n >= 64 && (n & (n - 1)) == 0 && __builtin_ctzl(n) % 2 == 0; }

static void plan_sweep(struct plan *p, enum base_function fn, const struct options *o)
{
	size_t sizes[MAX_SIZES];
	unsigned n = o->size_count ? o->size_count : default_sweep(o->quick, sizes);
	const size_t *list = o->size_count ? o->sizes : sizes;
	for (unsigned i = 0; i < n; i++)
		add(p, fixed(fn, CASE_SWEEP, list[i], false, 0, 0));
	/* Cold: every size given, else every fourth power of two (--quick: fewer). */
	for (unsigned i = 0; i < n; i++)
		if (o->size_count || (power_of_4_from_64(list[i]) && (!o->quick || __builtin_ctzl(list[i]) % 4 == 2)))
			add(p, fixed(fn, CASE_SWEEP, list[i], true, 0, 0));
}

static void plan_align(struct plan *p, enum base_function fn, bool quick)
{
	static const int copy_pairs[][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 0, 8 }, { 0, 32 }, { 7, 33 }, { 63, 63 } };
	static const int set_pairs[][2] = { { 0, 0 }, { 0, 1 }, { 0, 8 }, { 0, 32 }, { 0, 63 } };
	static const size_t quick_sizes[] = { 64, 4096 }, sizes[] = { 16, 64, 256, 1024, 4096, 65536 };
	const int(*pairs)[2] = fn == FN_MEMSET ? set_pairs : copy_pairs;
	unsigned pair_count = fn == FN_MEMSET ? 5 : 7, size_count = quick ? 2 : 6;
	for (unsigned s = 0; s < size_count; s++)
		for (unsigned i = 0; i < pair_count; i++)
			add(p, fixed(fn, CASE_ALIGN, quick ? quick_sizes[s] : sizes[s], false, pairs[i][0],
				     pairs[i][1]));
}

/* (dst - src) mod 4096 just above 0 makes a copy's loads look as if they
 * depend on its stores of a moment ago; 2048 is the unaffected reference. */
static void plan_alias(struct plan *p, enum base_function fn, bool quick)
{
	static const int deltas[] = { 0, 16, 64, 4080, 2048 };
	static const size_t quick_sizes[] = { 4096 }, sizes[] = { 1024, 4096, 65536 };
	if (fn == FN_MEMSET)
		return; /* one buffer: nothing to alias */
	for (unsigned s = 0; s < (quick ? 1u : 3u); s++)
		for (unsigned i = 0; i < sizeof deltas / sizeof deltas[0]; i++) {
			struct bench_case c = fixed(fn, CASE_ALIAS, quick ? quick_sizes[s] : sizes[s], false, 0, deltas[i]);
			snprintf(c.align, sizeof c.align, deltas[i] > 2048 ? "4k-%d" : "4k+%d",
				 deltas[i] > 2048 ? 4096 - deltas[i] : deltas[i]);
			add(p, c);
		}
}

/* Each size class with its data where the built-in plan puts it (hot to
 * 32 KiB, cold beyond), or with every_placement in L1, spread over half the
 * L2, and cold. */
static void plan_classes(struct plan *p, enum base_function fn, bool every_placement)
{
	static const struct {
		size_t lo, hi;
		const char *label;
	} classes[] = { { 0, 16, "0-16" },	  { 17, 64, "17-64" },	       { 65, 256, "65-256" },
			{ 257, 1024, "257-1K" },  { 1025, 4096, "1K-4K" },     { 4097, 32768, "4K-32K" },
			{ 32769, 262144, "32K-256K" }, { 262145, 4u << 20, "256K-4M" }, { (4u << 20) + 1, 32u << 20, "4M-32M" } };
	for (int overlap = 0; overlap <= (fn == FN_MEMMOVE); overlap++)
		for (unsigned i = 0; i < sizeof classes / sizeof classes[0]; i++)
			for (int place = 0; place < 3; place++) {
				if (!every_placement && place != (i >= 6 ? 2 : 0))
					continue;
				struct bench_case c = { .fn = fn, .kind = CASE_CLASS, .cold = place == 2, .overlap = overlap,
							.lo = classes[i].lo, .hi = classes[i].hi, .src_offset = -1,
							.dst_offset = -1,
							.hot_set = place == 1 ? tool_cache_sizes()->l2 / 2 : 0 };
				snprintf(c.label, sizeof c.label, "%s", classes[i].label);
				snprintf(c.align, sizeof c.align, "random");
				add(p, c);
			}
}

/* A built-in distribution is for the function its name starts with, if any. */
static bool dist_fits(const struct size_dist *d, enum base_function fn)
{
	for (int f = 0; f < FN_COUNT; f++)
		if (strncasecmp(d->name, base_function_names[f], strlen(base_function_names[f])) == 0)
			return f == (int)fn;
	return true;
}

struct distributions {
	struct size_dist *list[MAX_DISTRIBUTIONS * FN_COUNT + 32];
	unsigned count;
	bool explicit; /* from --distribution: for every function */
};

static void plan_dists(struct plan *p, enum base_function fn, const struct distributions *d)
{
	/* In each placement: a distribution's ratio depends on where the data lives. */
	for (int place = 0; place < 3; place++)
		for (unsigned i = 0; i < d->count; i++) {
			int only = d->list[i]->function;
			if (only >= 0 ? only != (int)fn : !d->explicit && !dist_fits(d->list[i], fn))
				continue;
			struct bench_case c = { .fn = fn, .kind = CASE_DIST, .dist = d->list[i], .src_offset = -1,
						.dst_offset = -1, .cold = place == 2,
						.hot_set = place == 1 ? tool_cache_sizes()->l2 / 2 : 0 };
			snprintf(c.label, sizeof c.label, "%s", d->list[i]->name);
			snprintf(c.align, sizeof c.align, "random");
			add(p, c);
		}
}

static void plan_cases(struct plan *p, const struct options *o, const struct distributions *d)
{
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!(o->functions & (1u << fn)))
			continue;
		if (o->cases & (1u << CASE_SWEEP))
			plan_sweep(p, fn, o);
		if (o->cases & (1u << CASE_ALIGN))
			plan_align(p, fn, o->quick);
		if (o->cases & (1u << CASE_ALIAS))
			plan_alias(p, fn, o->quick);
		if (o->cases & (1u << CASE_CLASS))
			plan_classes(p, fn, o->every_placement);
		if (o->cases & (1u << CASE_DIST))
			plan_dists(p, fn, d);
	}
}

/* ---- distributions ---- */

/* A file that cannot be read fails the command (1), as in every command; no usage error. */
static int unreadable(const char *error)
{
	fprintf(stderr, "memshim bench: --distribution: %s\n", error);
	return 1;
}

static int load_explicit(const struct options *o, struct distributions *d)
{
	char error[400];
	d->explicit = true;
	for (unsigned i = 0; i < o->distribution_count; i++) {
		if (size_dist_is_dump(o->distributions[i])) {
			unsigned n = size_dist_load_dump(o->distributions[i], d->list + d->count, error, sizeof error);
			if (!n)
				return unreadable(error);
			d->count += n;
			continue;
		}
		d->list[d->count] = size_dist_load(o->distributions[i], error, sizeof error);
		if (!d->list[d->count])
			return unreadable(error);
		d->count++;
	}
	return 0;
}

/* The built-in ones: fleet-wide for each function (--quick), else also each
 * workload and a uniform 384..4096 B.  Missing ones are only a warning. */
static void load_builtin(bool quick, struct distributions *d)
{
	static const char *const workloads[] = { "Fleet", "0", "1", "2", "3", "4", "5", "6", "7", "8" };
	static const char *const prefixes[] = { "Memcpy", "Memmove", "Memset" };
	const char *dir = bench_distribution_dir();
	if (!dir) {
		fprintf(stderr, "memshim bench: no built-in distributions found (set MEMSHIM_DISTRIBUTIONS)\n");
		return;
	}
	char path[4096], error[400];
	for (unsigned w = 0; w < (quick ? 1u : 10u); w++)
		for (unsigned f = 0; f < 3; f++) {
			snprintf(path, sizeof path, "%s/fleetbench/%s_%s.csv", dir, prefixes[f], workloads[w]);
			if ((d->list[d->count] = size_dist_load(path, error, sizeof error)))
				d->count++;
			else
				fprintf(stderr, "memshim bench: skipping a built-in distribution: %s\n", error);
		}
	snprintf(path, sizeof path, "%s/llvm-libc/Uniform384To4096.csv", dir);
	if (!quick && (d->list[d->count] = size_dist_load(path, error, sizeof error)))
		d->count++;
}

static void free_distributions(struct distributions *d)
{
	for (unsigned i = 0; i < d->count; i++)
		size_dist_free(d->list[i]);
}

/* ---- running ---- */

static FILE *open_output(const char *option, const char *path)
{
	if (!path)
		return NULL;
	FILE *f = fopen(path, "w");
	if (!f)
		usage_error("%s: cannot write %s: %s", option, path, strerror(errno));
	return f;
}

static size_t largest_size(const struct plan *p)
{
	size_t largest = 0;
	for (size_t i = 0; i < p->count; i++) {
		size_t n = p->cases[i].dist ? p->cases[i].dist->max : p->cases[i].hi;
		largest = n > largest ? n : largest;
	}
	return largest;
}

static int run_plan(const struct plan *p, struct bench_settings *s, FILE *csv, FILE *svg)
{
	struct bench_result *results = calloc(p->count ? p->count : 1, sizeof *results);
	if (!results || !bench_buffers_init(largest_size(p), s->cold_bytes)) {
		free(results);
		return 1;
	}
	report_header(stdout, s);
	struct progress bar;
	progress_start(&bar, "memshim bench", (unsigned)p->count);
	for (size_t i = 0; i < p->count; i++) {
		char detail[160];
		snprintf(detail, sizeof detail, "%s %s %s%s", base_function_names[p->cases[i].fn],
			 case_kind_names[p->cases[i].kind], p->cases[i].label, p->cases[i].cold ? " cold" : "");
		progress_step(&bar, detail);
		bench_measure(s, &p->cases[i], &results[i]);
	}
	progress_end(&bar);
	report_table(stdout, s, results, p->count);
	if (csv)
		report_csv(csv, s, results, p->count);
	if (svg)
		report_svg(svg, s, results, p->count);
	free(results);
	return 0;
}

static int close_output(FILE *f, const char *path)
{
	if (f && (ferror(f) | fclose(f))) {
		fprintf(stderr, "memshim bench: writing %s failed\n", path);
		return 1;
	}
	return 0;
}

static int print_draws(const struct options *o, struct distributions *d)
{
	if (!o->distribution_count)
		load_builtin(o->quick, d);
	int rc = d->count ? 0 : 1;
	for (unsigned i = 0; i < d->count && !rc; i++)
		rc = size_dist_print_draws(stdout, d->list[i], o->draws);
	free_distributions(d);
	return rc;
}

static int bench_with(const struct options *o, struct bench_settings *s, struct distributions *d)
{
	static struct bench_case cases[MAX_RESULTS];
	struct plan p = { cases, 0 };
	plan_cases(&p, o, d);
	FILE *csv = open_output("--csv", o->csv);
	FILE *svg = csv || !o->csv ? open_output("--svg", o->svg) : NULL;
	if ((o->csv && !csv) || (o->svg && !svg)) {
		if (csv)
			fclose(csv);
		return 2;
	}
	int rc = run_plan(&p, s, csv, svg);
	rc |= close_output(csv, o->csv);
	rc |= close_output(svg, o->svg);
	return rc;
}

int cmd_bench(int argc, char **argv)
{
	if (cli_wants_help(argc, argv, bench_help, false))
		return 0;
	struct options o;
	int rc = parse_options(argc, argv, &o);
	if (!rc && o.stub) {
		void *library = open_library();
		return library ? bench_stub(library, o.rounds) : 1;
	}
	struct distributions d = { .count = 0 };
	if (!rc && o.distribution_count)
		rc = load_explicit(&o, &d);
	if (!rc && o.draws)
		return print_draws(&o, &d);
	static struct bench_variant variants[BENCH_MAX_COLUMNS];
	struct bench_settings s = { .variants = variants, .rounds = o.rounds, .cold_bytes = bench_cold_span(),
				    .batch_ns = o.quick ? 100e3 : 300e3 };
	if (!rc)
		rc = load_variants(o.variants, variants, &s.variant_count, &s.glibc);
	if (!rc && o.with_default)
		rc = load_default(variants, &s.variant_count);
	if (!rc)
		rc = load_peers(&o, variants, &s.variant_count);
	if (!rc && !o.distribution_count && (o.cases & (1u << CASE_DIST)))
		load_builtin(o.quick, &d);
	if (!rc) {
		bench_clock_open(&s.clock);
		bench_pin(s.pinning, sizeof s.pinning);
		rc = bench_with(&o, &s, &d);
	}
	free_distributions(&d);
	return rc;
}
