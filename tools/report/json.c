/* memshim report --json: the merged histogram as JSON. */
#include "config.h"

#include "tools/report/report.h"

#include "dispatch/config.h"
#include "tools/report/symbolize.h"
#include "tools/util/escape.h"
#include "tools/util/timing_stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string, escaped, in valid UTF-8. */
static void json_string(const char *s)
{
	putchar('"');
	write_escaped(stdout, s, ESCAPE_JSON);
	putchar('"');
}

/* ", \"cpu_share\": ..., \"cpu_ns\": ..." or nulls when there is no profile. */
static void json_share(const struct dump_profile *p, uint64_t samples, uint64_t ns)
{
	struct cpu_share c;
	if (p->processes && profile_share(p, samples, ns, &c))
		printf(", \"cpu_share\": %.6g, \"cpu_share_low\": %.6g, \"cpu_share_high\": %.6g, \"cpu_ns\": %.0f",
		       c.share, c.low, c.high, c.ns);
	else
		printf(", \"cpu_share\": null, \"cpu_share_low\": null, \"cpu_share_high\": null, \"cpu_ns\": null");
}

/* ", \"timed_calls\": ..., \"ns_per_call\": ..." for fn's sizes [lo, hi), or nulls without timed calls. */
static void json_timed(const struct dump *d, int fn, uint64_t lo, uint64_t hi)
{
	struct timed_ns n;
	if (timing_range(&d->timing, (enum base_function)fn, lo, hi, &n))
		printf(", \"timed_calls\": %.0f, \"timed_dropped\": %.0f, \"ns_per_call\": %.6g, \"ns_per_call_low\": %.6g,"
		       " \"ns_per_call_high\": %.6g, \"timed_total_ns\": %.6g",
		       n.calls, n.dropped, n.mean, n.low, n.high, timing_total_ns(d, (enum base_function)fn, lo, hi));
	else
		printf(", \"timed_calls\": %s, \"timed_dropped\": null, \"ns_per_call\": null, \"ns_per_call_low\": null,"
		       " \"ns_per_call_high\": null, \"timed_total_ns\": null", d->timing.processes ? "0" : "null");
}

static void json_frame(const char *frame)
{
	struct frame_info f;
	symbolize_frame(frame, &f);
	printf("{\"frame\": ");
	json_string(frame);
	printf(", \"function\": ");
	if (f.function[0])
		json_string(f.function);
	else
		printf("null");
	printf(", \"file\": ");
	if (f.file[0])
		json_string(f.file);
	else
		printf("null");
	printf(", \"line\": ");
	if (f.line)
		printf("%d", f.line);
	else
		printf("null");
	printf(", \"object\": ");
	json_string(f.object);
	printf("}");
}

static void json_callsites(const struct dump *d)
{
	printf(",\n \"callsites\": [");
	for (size_t i = 0; i < d->callsite_count; i++) {
		const struct dump_site *c = &d->callsites[i];
		printf("%s\n  {\"function\": \"%s\", \"calls\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"mean_size\": %.6g,"
		       " \"frames\": [",
		       i ? "," : "", base_function_names[c->fn], c->calls, c->bytes,
		       c->calls ? (double)c->bytes / (double)c->calls : 0.0);
		char raw[1024];
		const char *frames = c->frames;
		for (int k = 0; next_frame(&frames, raw, sizeof raw); k++) {
			printf("%s", k ? ", " : "");
			json_frame(raw);
		}
		printf("]}");
	}
	printf("],\n \"cpu_sites\": [");
	for (size_t i = 0; i < d->cpu_site_count; i++) {
		const struct dump_site *c = &d->cpu_sites[i];
		printf("%s\n  {\"function\": \"%s\", \"samples\": %" PRIu64, i ? "," : "", base_function_names[c->fn],
		       c->samples);
		json_share(&d->profile, c->samples, c->ns);
		printf(", \"frame\": ");
		json_frame(c->frames);
		printf("}");
	}
	printf("],\n \"time_sites\": [");
	for (size_t i = 0; i < d->time_site_count; i++) {
		const struct dump_site *c = &d->time_sites[i];
		printf("%s\n  {\"function\": \"%s\", \"timed_calls\": %" PRIu64 ", \"timed_ns\": %" PRIu64
		       ", \"ns_per_call\": %.6g, \"frame\": ",
		       i ? "," : "", base_function_names[c->fn], c->calls, c->ns,
		       c->calls ? (double)c->ns / (double)c->calls : 0.0);
		json_frame(c->frames);
		printf("}");
	}
	printf("]");
}

static void json_programs(const struct dump *d)
{
	printf(",\n \"programs\": [");
	for (size_t i = 0; i < d->program_count; i++) {
		const struct dump *p = d->programs[i].d;
		printf("%s\n  {\"name\": ", i ? "," : "");
		json_string(d->programs[i].name);
		printf(", \"processes\": %u, \"profiled_processes\": %u, \"process_cpu_ns\": %" PRIu64 ", \"functions\": {",
		       p->processes, p->profile.processes, p->profile.process_cpu_ns);
		for (int fn = 0; fn < FN_COUNT; fn++) {
			printf("%s\"%s\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64, fn ? ", " : "", base_function_names[fn],
			       fn_calls(p, fn), fn_bytes(p, fn));
			json_share(&p->profile, p->profile.fn_samples[fn], p->profile.fn_ns[fn]);
			printf("}");
		}
		printf("}}");
	}
	printf("]");
}

/* "alias4k": every distance below 64 (as before version 4), and its two parts. */
static void json_alias(const struct function_histogram *f)
{
	printf("    \"alias4k\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"distance_0\": {\"calls\": %" PRIu64
	       ", \"bytes\": %" PRIu64 "}, \"distance_1_63\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64
	       ", \"from_2k_calls\": %" PRIu64 ", \"from_2k_bytes\": %" PRIu64 "}}",
	       f->alias_same_calls + f->alias_near_calls + f->alias_unsplit_calls,
	       f->alias_same_bytes + f->alias_near_bytes + f->alias_unsplit_bytes, f->alias_same_calls,
	       f->alias_same_bytes, f->alias_near_calls, f->alias_near_bytes, f->alias_near_large_calls,
	       f->alias_near_large_bytes);
}

static void json_classes(const struct dump *d, int fn)
{
	const struct dump_profile *p = &d->profile;
	struct class_sums sums;
	sum_classes(d, fn, &sums);
	printf(",\n    \"size_classes\": [");
	for (unsigned c = 0; c < size_class_count; c++) {
		printf("%s{\"name\": \"%s\", \"lo\": %" PRIu64 ", \"hi\": %" PRIu64 ", \"calls\": %" PRIu64
		       ", \"bytes\": %" PRIu64 ", \"samples\": %" PRIu64,
		       c ? ", " : "", size_classes[c].name, size_classes[c].lo, size_classes[c].hi, sums.calls[c], sums.bytes[c], sums.samples[c]);
		json_share(p, sums.samples[c], sums.ns[c]);
		json_timed(d, fn, size_classes[c].lo, size_classes[c].hi);
		printf("}");
	}
	printf("]");
}

void print_json(const struct dump *d)
{
	const struct dump_profile *p = &d->profile;
	printf("{\"format\": \"%s\", \"version\": %d, \"files\": %u, \"processes\": %u, \"profile\": ",
	       HIST_FORMAT_NAME, HIST_FORMAT_VERSION, d->files, d->processes);
	if (p->processes)
		printf("{\"processes\": %u, \"rate_hz\": %" PRIu64 ", \"rate_taken_hz\": %.6g, \"samples\": %" PRIu64
		       ", \"sampled_ns\": %" PRIu64 ", \"process_cpu_ns\": %" PRIu64 ", \"wall_ns\": %" PRIu64
		       ", \"handler_replaced\": %u, \"recording_apart\": %u}",
		       p->processes, p->rate_hz, profile_rate_taken(p), p->samples, p->sampled_ns, p->process_cpu_ns,
		       p->wall_ns, p->handler_replaced, p->recording_apart);
	else
		printf("null");
	const struct dump_timing *t = &d->timing;
	printf(", \"timing\": ");
	if (t->processes)
		printf("{\"processes\": %u, \"every\": %" PRIu64 ", \"tsc_hz\": %" PRIu64 ", \"hz_source\": \"%s\","
		       " \"overhead_ns\": %.6g, \"subtracted_ns\": %.6g}",
		       t->processes, t->every, t->tsc_hz, t->hz_source, timing_overhead_ns(t), t->subtracted_ns);
	else
		printf("null");
	printf(", \"functions\": {");
	for (int fn = 0; fn < FN_COUNT; fn++) {
		const struct function_histogram *f = &d->hist.fn[fn];
		printf("%s\n  \"%s\": {\"variant\": \"%s\", \"calls\": %" PRIu64 ", \"bytes\": %" PRIu64,
		       fn ? "," : "", base_function_names[fn], d->variant[fn],
		       sum_buckets(f->calls), sum_buckets(f->bytes));
		json_share(p, p->fn_samples[fn], p->fn_ns[fn]);
		json_timed(d, fn, 0, UINT64_MAX);
		printf(", \"recording\": {\"samples\": %" PRIu64, p->recording_samples[fn]);
		json_share(p, p->recording_samples[fn], p->recording_ns[fn]);
		printf("}, \"entries\": {");
		const char *sep = "";
		for (int e = 0; e < E_COUNT; e++)
			if ((int)entry_point_base[e] == fn) {
				printf("%s\"%s\": %" PRIu64, sep, entry_point_names[e], d->hist.entry_calls[e]);
				sep = ", ";
			}
		printf("},\n    \"buckets\": [");
		sep = "";
		for (unsigned b = 0; b < HIST_BUCKETS; b++)
			if (f->calls[b] || p->bucket_samples[fn][b]) {
				printf("%s{\"lo\": %" PRIu64 ", \"hi\": %" PRIu64 ", \"calls\": %" PRIu64
				       ", \"bytes\": %" PRIu64 ", \"samples\": %" PRIu64 ", \"cpu_ns\": %" PRIu64
				       ", \"timed_calls\": %" PRIu64 ", \"timed_ns\": %" PRIu64 ", \"timed_dropped\": %" PRIu64 "}",
				       sep, hist_bucket_lo(b), hist_bucket_hi(b), f->calls[b], f->bytes[b],
				       p->bucket_samples[fn][b], p->bucket_ns[fn][b], t->calls[fn][b], t->ns[fn][b],
				       t->dropped[fn][b]);
				sep = ", ";
			}
		printf("]");
		json_classes(d, fn);
		printf(",\n    \"dst_mod64\": [");
		for (int m = 0; m < 64; m++)
			printf("%s%" PRIu64, m ? ", " : "", f->dst_mod64[m]);
		printf("],\n    \"delta_mod64\": [");
		for (int m = 0; m < 64; m++)
			printf("%s%" PRIu64, m ? ", " : "", f->delta_mod64[m]);
		printf("],\n");
		json_alias(f);
		printf(", \"overlap\": {\"dst_before_src\": %" PRIu64 ", \"dst_after_src\": %" PRIu64 "}"
		       ", \"zero\": {\"calls\": %" PRIu64 ", \"bytes\": %" PRIu64 "}}",
		       f->overlap_dst_before, f->overlap_dst_after, f->zero_calls, f->zero_bytes);
	}
	printf("\n }");
	json_callsites(d);
	json_programs(d);
	printf("\n}\n");
}
