/* memshim bench --path: the path engine's counts (tools/measure/path_trace.h)
 * as a table per function, one line per variant, and as CSV. */
#include "config.h"

#include "tools/bench/bench.h"
#include "tools/util/glibc_info.h"
#include "tools/measure/path_trace.h"

#include <stdio.h>
#include <string.h>

static void print_header(unsigned functions)
{
	printf("memshim bench --path: instructions executed / branches taken per call, the mean over each size\n"
	       "class of one call of every size from 0 to %d B (source and destination page-aligned,\n"
	       "apart); instructions count the program's call and PLT jump and the ret, taken branches\n"
	       "the jumps inside the function.  The path, not its timing: the same on any CPU that runs\n"
	       "the same code.\n",
	       PATH_MAX_SIZE);
	printf("glibc here:");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		char name[256];
		glibc_function_name(base_function_names[fn], name, sizeof name);
		if (functions & (1u << fn))
			printf(" %s %s", base_function_names[fn], name);
	}
	printf("\n");
}

static void print_row(const char *variant, const struct path *p)
{
	printf("  %-16s", variant);
	for (unsigned k = 0; k < PATH_CLASS_COUNT; k++) {
		double instructions, taken;
		path_class_mean(p, k, &instructions, &taken);
		printf(" %6.1f/%-4.1f", instructions, taken);
	}
	printf("\n");
}

static void print_tables(const struct measure_variant *v, unsigned count, unsigned functions, struct path *paths,
			 FILE *csv)
{
	print_header(functions);
	if (csv)
		fprintf(csv, "function,variant,size,instructions,taken\n");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		if (!(functions & (1u << fn)))
			continue;
		printf("## %s %-*s", base_function_names[fn], 16 - (int)strlen(base_function_names[fn]), "");
		for (unsigned k = 0; k < PATH_CLASS_COUNT; k++)
			printf(" %-11s", path_class_label[k]);
		printf("\n");
		for (unsigned i = 0; i < count; i++) {
			if (!path_function(&v[i], fn))
				continue;
			const struct path *p = path_of(paths, i, fn);
			print_row(v[i].name, p);
			for (size_t n = 0; csv && n < PATH_SIZES; n++)
				fprintf(csv, "%s,%s,%zu,%u,%u\n", base_function_names[fn], v[i].name, n, p[n].instructions,
					p[n].taken);
		}
	}
}

int bench_path(const struct measure_variant *v, unsigned count, unsigned functions, FILE *csv)
{
	char why[PATH_WHY_MAX];
	struct path *paths = path_trace(v, count, functions, why, sizeof why);
	if (!paths) {
		fprintf(stderr, "memshim bench --path: %s\n", why);
		return 1;
	}
	print_tables(v, count, functions, paths, csv);
	path_free(paths, count);
	return 0;
}
