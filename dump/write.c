/* Writing dumps: formatted by hand into a stack buffer and written with
 * write(2), so a dump can run in a signal handler, in a forked child, or
 * while the program's malloc or stdio lock is held. */
#include "dump/format.h"

#include "dispatch/message.h"


#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* renameat2 */
#include <unistd.h>

#define ENTRY_POINT_NAME(v, entry, symbol, base, size_register, id, ...) [id] = #symbol,
const char *const entry_point_names[E_COUNT] = { MEMSHIM_ENTRY_POINTS(ENTRY_POINT_NAME, ) };
#undef ENTRY_POINT_NAME

#define ENTRY_POINT_BASE(v, entry, symbol, base, size_register, id, ...) [id] = base,
const enum base_function entry_point_base[E_COUNT] = { MEMSHIM_ENTRY_POINTS(ENTRY_POINT_BASE, ) };
#undef ENTRY_POINT_BASE

uint64_t hist_bucket_lo(unsigned bucket)
{
	if (bucket <= HIST_EXACT_MAX)
		return bucket;
	unsigned i = bucket - HIST_EXACT_MAX - 1;
	unsigned power = 4 + i / HIST_SUBBUCKETS, sub = i % HIST_SUBBUCKETS;
	uint64_t lo = (1ull << power) + (uint64_t)sub * (1ull << (power - 3));
	return lo < HIST_EXACT_MAX + 1 ? HIST_EXACT_MAX + 1 : lo;
}

uint64_t hist_bucket_hi(unsigned bucket)
{
	return bucket + 1 < HIST_BUCKETS ? hist_bucket_lo(bucket + 1) : UINT64_MAX;
}

struct writer {
	int fd;
	bool failed;
	size_t len;
	char buf[4096];
};

static void writer_start(struct writer *w, int fd)
{
	w->fd = fd;
	w->failed = false;
	w->len = 0;
}

static void flush(struct writer *w)
{
	size_t done = 0;
	while (done < w->len && !w->failed) {
		ssize_t n = write(w->fd, w->buf + done, w->len - done);
		if (n > 0)
			done += (size_t)n;
		else if (n < 0 && errno != EINTR)
			w->failed = true;
	}
	w->len = 0;
}

static void put_char(struct writer *w, char c)
{
	if (w->len == sizeof w->buf)
		flush(w);
	w->buf[w->len++] = c;
}

static void put(struct writer *w, const char *s)
{
	while (*s)
		put_char(w, *s++);
}

/* A word of text from outside (a program name): no spaces or controls in it. */
static void put_word(struct writer *w, const char *s)
{
	if (!*s)
		put_char(w, '-');
	for (; *s; s++)
		put_char(w, (unsigned char)*s > ' ' && *s != 0x7f ? *s : '_');
}

static void put_number(struct writer *w, uint64_t n)
{
	char digits[20];
	size_t len = format_decimal(n, digits);
	for (size_t i = 0; i < len; i++)
		put_char(w, digits[i]);
}

/* "key n1 n2 ...\n" with a leading space before each number. */
static void put_record(struct writer *w, const char *key, int count, const uint64_t *numbers)
{
	put(w, key);
	for (int i = 0; i < count; i++) {
		put_char(w, ' ');
		put_number(w, numbers[i]);
	}
	put_char(w, '\n');
}

/* The header; a merged section (pid < 0) has no pid line. */
static void write_header(struct writer *w, const struct dump_header *h)
{
	put(w, HIST_FORMAT_NAME " ");
	put_number(w, HIST_FORMAT_VERSION);
	if (h->pid >= 0) {
		put(w, "\npid ");
		put_number(w, (uint64_t)h->pid);
	}
	put(w, "\nprogram ");
	put_word(w, h->program);
	put(w, "\nreason ");
	put_word(w, h->reason);
	put_char(w, '\n');
	for (int fn = 0; fn < FN_COUNT; fn++) {
		put(w, "variant ");
		put(w, base_function_names[fn]);
		put_char(w, ' ');
		put_word(w, h->variant[fn]);
		put_char(w, '\n');
	}
	put_record(w, "threshold movsb", 1, &h->movsb_threshold);
	put_record(w, "threshold stosb", 1, &h->stosb_threshold);
}

static void write_function(struct writer *w, enum base_function fn, const struct function_histogram *f)
{
	put(w, "function ");
	put(w, base_function_names[fn]);
	put_char(w, '\n');
	for (unsigned b = 0; b < HIST_BUCKETS; b++)
		if (f->calls[b]) {
			uint64_t r[4] = { hist_bucket_lo(b), hist_bucket_hi(b), f->calls[b], f->bytes[b] };
			put_record(w, "bucket", 4, r);
		}
	for (uint64_t m = 0; m < 64; m++) {
		if (f->dst_mod64[m])
			put_record(w, "dst_mod64", 2, (uint64_t[]){ m, f->dst_mod64[m] });
		if (f->delta_mod64[m])
			put_record(w, "delta_mod64", 2, (uint64_t[]){ m, f->delta_mod64[m] });
	}
	if (f->alias_same_calls)
		put_record(w, "alias4k_same", 2, (uint64_t[]){ f->alias_same_calls, f->alias_same_bytes });
	if (f->alias_near_calls)
		put_record(w, "alias4k_near", 4,
		           (uint64_t[]){ f->alias_near_calls, f->alias_near_bytes, f->alias_near_large_calls,
		                         f->alias_near_large_bytes });
	if (f->alias_unsplit_calls)
		put_record(w, "alias4k", 2, (uint64_t[]){ f->alias_unsplit_calls, f->alias_unsplit_bytes });
	if (f->overlap_dst_before || f->overlap_dst_after)
		put_record(w, "overlap", 2, (uint64_t[]){ f->overlap_dst_before, f->overlap_dst_after });
	if (f->zero_calls)
		put_record(w, "zero", 2, (uint64_t[]){ f->zero_calls, f->zero_bytes });
}

static void write_histogram(struct writer *w, const struct histogram *hist)
{
	for (int e = 0; e < E_COUNT; e++)
		if (hist->entry_calls[e]) {
			put(w, "entry ");
			put(w, entry_point_names[e]);
			put_record(w, "", 1, &hist->entry_calls[e]);
		}
	for (int fn = 0; fn < FN_COUNT; fn++)
		write_function(w, (enum base_function)fn, &hist->fn[fn]);
}

bool hist_write(int fd, const struct dump_header *h, const struct histogram *hist)
{
	struct writer w;
	writer_start(&w, fd);
	write_header(&w, h);
	write_histogram(&w, hist);
	flush(&w);
	return !w.failed;
}

/* "callsite fn calls bytes", the frames to follow on the same line. */
static void write_callsite_head(struct writer *w, enum base_function fn, uint64_t calls, uint64_t bytes)
{
	put(w, "callsite ");
	put(w, base_function_names[fn]);
	put_record(w, "", 2, (uint64_t[]){ calls, bytes });
	w->len--; /* no newline yet */
}

bool hist_write_callsite(int fd, const struct callsite_record *c)
{
	struct writer w;
	char frame[sizeof ((struct line *)0)->text];
	writer_start(&w, fd);
	write_callsite_head(&w, c->fn, c->calls, c->bytes);
	for (unsigned i = 0; i < c->frame_count; i++) {
		c->describe(c->addresses[i], frame, sizeof frame);
		put_char(&w, ' ');
		put_word(&w, frame);
	}
	put_char(&w, '\n');
	flush(&w);
	return !w.failed;
}

bool hist_write_end(int fd)
{
	static const char end[] = "end\n";
	return write(fd, end, sizeof end - 1) == (ssize_t)(sizeof end - 1);
}

/* "function NAME", before the first of a function's profile records. */
static void name_once(struct writer *w, enum base_function fn, bool *named)
{
	if (*named)
		return;
	put(w, "function ");
	put(w, base_function_names[fn]);
	put_char(w, '\n');
	*named = true;
}

/* A function's profile records: its samples by bucket (the copies) and
 * those in the recording's own code. */
static void write_cpu_buckets(struct writer *w, enum base_function fn, const uint64_t *samples,
                              const uint64_t *ns, uint64_t recording_samples, uint64_t recording_ns)
{
	bool named = false;
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		if (!samples[b])
			continue;
		name_once(w, fn, &named);
		uint64_t r[4] = { hist_bucket_lo(b), hist_bucket_hi(b), samples[b], ns[b] };
		put_record(w, "cpu", 4, r);
	}
	if (recording_samples) {
		name_once(w, fn, &named);
		put_record(w, "recording_cpu", 2, (uint64_t[]){ recording_samples, recording_ns });
	}
}

bool hist_write_profile(int fd, const struct profile_record *p)
{
	struct writer w;
	writer_start(&w, fd);
	uint64_t totals[6] = { p->rate_hz, p->samples, p->sampled_ns, p->process_cpu_ns, p->wall_ns,
	                       p->handler_replaced };
	put_record(&w, "profile", 6, totals);
	put_record(&w, "recording_apart", 1, (uint64_t[]){ 1 });
	for (int fn = 0; fn < FN_COUNT; fn++)
		write_cpu_buckets(&w, (enum base_function)fn, p->bucket_samples[fn], p->bucket_ns[fn],
		                  p->recording_samples[fn], p->recording_ns[fn]);
	flush(&w);
	return !w.failed;
}

/* "KEY FN N1 N2 FRAME": a site's two counts and its frame (cpu_site, time_site). */
static void write_site(struct writer *w, const char *key, enum base_function fn, uint64_t n1, uint64_t n2,
                       const char *frame)
{
	put(w, key);
	put_char(w, ' ');
	put(w, base_function_names[fn]);
	put_record(w, "", 2, (uint64_t[]){ n1, n2 });
	w->len--; /* the frame follows on the same line */
	put_char(w, ' ');
	put_word(w, frame);
	put_char(w, '\n');
}

static void write_cpu_site(struct writer *w, enum base_function fn, uint64_t samples, uint64_t ns,
                           const char *frame)
{
	write_site(w, "cpu_site", fn, samples, ns, frame);
}

bool hist_write_cpu_site(int fd, const struct cpu_site_record *c)
{
	struct writer w;
	writer_start(&w, fd);
	write_cpu_site(&w, c->fn, c->samples, c->ns, c->frame);
	flush(&w);
	return !w.failed;
}

/* "timed lo hi calls ns squares dropped" for each bucket with any, under
 * its function's name. */
static void write_timed_buckets(struct writer *w, enum base_function fn, const uint64_t *calls, const uint64_t *ns,
                                const uint64_t *squares, const uint64_t *dropped)
{
	bool named = false;
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		if (!calls[b] && !dropped[b])
			continue;
		if (!named) {
			put(w, "function ");
			put(w, base_function_names[fn]);
			put_char(w, '\n');
			named = true;
		}
		uint64_t r[6] = { hist_bucket_lo(b), hist_bucket_hi(b), calls[b], ns[b], squares[b], dropped[b] };
		put_record(w, "timed", 6, r);
	}
}

/* "timing every tsc_hz overhead_ps source" */
static void write_timing_line(struct writer *w, uint64_t every, uint64_t hz, uint64_t overhead_ps, const char *source)
{
	put_record(w, "timing", 3, (uint64_t[]){ every, hz, overhead_ps });
	w->len--; /* the source follows on the same line */
	put_char(w, ' ');
	put_word(w, source);
	put_char(w, '\n');
}

bool hist_write_timing(int fd, const struct timing_record *t)
{
	struct writer w;
	writer_start(&w, fd);
	write_timing_line(&w, t->every, t->tsc_hz, t->overhead_ps, t->hz_source);
	for (int fn = 0; fn < FN_COUNT; fn++)
		write_timed_buckets(&w, (enum base_function)fn, t->calls[fn], t->ns[fn], t->squares[fn], t->dropped[fn]);
	flush(&w);
	return !w.failed;
}

static void write_time_site(struct writer *w, enum base_function fn, uint64_t calls, uint64_t ns, const char *frame)
{
	write_site(w, "time_site", fn, calls, ns, frame);
}

bool hist_write_time_site(int fd, enum base_function fn, uint64_t calls, uint64_t ns, const char *frame)
{
	struct writer w;
	writer_start(&w, fd);
	write_time_site(&w, fn, calls, ns, frame);
	flush(&w);
	return !w.failed;
}

/* ---- in-process A/B (MEMSHIM_AB) ---- */

static void write_ab_head(struct writer *w, const char *setting_a, const char *setting_b, uint64_t block_calls,
                          const uint64_t dropped[FN_COUNT][2])
{
	put(w, "ab ");
	put_word(w, setting_a);
	put_char(w, ' ');
	put_word(w, setting_b);
	put_char(w, ' ');
	put_number(w, block_calls);
	put_char(w, '\n');
	for (int fn = 0; fn < FN_COUNT; fn++)
		if (dropped[fn][0] || dropped[fn][1]) {
			put(w, "ab_dropped ");
			put(w, base_function_names[fn]);
			put_record(w, "", 2, dropped[fn]);
		}
}

static void write_ab_pair(struct writer *w, const struct ab_pair *p)
{
	uint64_t numbers[AB_PAIR_NUMBERS], *at = numbers;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned k = 0; k < AB_PAIR_CLASSES; k++)
			for (unsigned arm = 0; arm < 2; arm++) {
				*at++ = p->calls[arm][fn][k];
				*at++ = p->ns[arm][fn][k];
			}
	put_record(w, "ab_pair", AB_PAIR_NUMBERS, numbers);
}

bool hist_write_ab(int fd, const char *setting_a, const char *setting_b, uint64_t block_calls,
                   const uint64_t dropped[FN_COUNT][2])
{
	struct writer w;
	writer_start(&w, fd);
	write_ab_head(&w, setting_a, setting_b, block_calls, dropped);
	flush(&w);
	return !w.failed;
}

bool hist_write_ab_pair(int fd, const struct ab_pair *p)
{
	struct writer w;
	writer_start(&w, fd);
	write_ab_pair(&w, p);
	flush(&w);
	return !w.failed;
}

/* ---- merged dumps, for the tools ---- */

static void write_merged_profile(struct writer *w, const struct dump_profile *p)
{
	uint64_t totals[6] = { p->rate_hz, p->samples, p->sampled_ns, p->process_cpu_ns, p->wall_ns,
	                       p->handler_replaced > 0 };
	put_record(w, "profile", 6, totals);
	put_record(w, "profile_processes", 2, (uint64_t[]){ p->processes, p->handler_replaced });
	put_record(w, "recording_apart", 1, (uint64_t[]){ p->recording_apart });
	for (int fn = 0; fn < FN_COUNT; fn++)
		write_cpu_buckets(w, (enum base_function)fn, p->bucket_samples[fn], p->bucket_ns[fn],
		                  p->recording_samples[fn], p->recording_ns[fn]);
}

static void write_merged_timing(struct writer *w, const struct dump_timing *t)
{
	write_timing_line(w, t->every, t->tsc_hz, t->overhead_ps, t->hz_source);
	put_record(w, "timing_processes", 1, (uint64_t[]){ t->processes });
	for (int fn = 0; fn < FN_COUNT; fn++)
		write_timed_buckets(w, (enum base_function)fn, t->calls[fn], t->ns[fn], t->squares[fn], t->dropped[fn]);
}

static void write_window(struct writer *w, enum base_function fn, const struct seq_call *calls, unsigned count);

/* One program's section: its counts summed over its processes. */
static void write_section(struct writer *w, const char *program, const struct dump *d, size_t sections)
{
	struct dump_header h = { .pid = -1, .program = program, .reason = "merged",
	                         .movsb_threshold = d->movsb_threshold, .stosb_threshold = d->stosb_threshold };
	for (int fn = 0; fn < FN_COUNT; fn++)
		h.variant[fn] = d->variant[fn];
	write_header(w, &h);
	put_record(w, "processes", 1, (uint64_t[]){ d->processes });
	if (sections)
		put_record(w, "sections", 1, (uint64_t[]){ sections });
	write_histogram(w, &d->hist);
	for (size_t i = 0; i < d->callsite_count; i++) {
		const struct dump_site *c = &d->callsites[i];
		write_callsite_head(w, c->fn, c->calls, c->bytes);
		put_char(w, ' '); /* the frames as read: words already, one space apart */
		put(w, c->frames);
		put_char(w, '\n');
	}
	if (d->profile.processes)
		write_merged_profile(w, &d->profile);
	for (size_t i = 0; i < d->cpu_site_count; i++)
		write_cpu_site(w, d->cpu_sites[i].fn, d->cpu_sites[i].samples, d->cpu_sites[i].ns, d->cpu_sites[i].frames);
	if (d->timing.processes)
		write_merged_timing(w, &d->timing);
	for (size_t i = 0; i < d->time_site_count; i++)
		write_time_site(w, d->time_sites[i].fn, d->time_sites[i].calls, d->time_sites[i].ns, d->time_sites[i].frames);
	if (d->window_count)
		put_record(w, "sequences", 2, (uint64_t[]){ d->sequence_length, d->window_weight });
	for (size_t i = 0; i < d->window_count; i++)
		write_window(w, d->windows[i].fn, d->windows[i].calls, d->windows[i].count);
	if (d->ab.processes) {
		write_ab_head(w, d->ab.setting[0], d->ab.setting[1], d->ab.block_calls, d->ab.dropped);
		put_record(w, "ab_processes", 1, (uint64_t[]){ d->ab.processes });
	}
	for (size_t i = 0; i < d->ab.pair_count; i++)
		write_ab_pair(w, &d->ab.pairs[i]);
	put(w, "end\n");
}

bool hist_write_merged(int fd, const struct dump *d)
{
	struct writer w;
	writer_start(&w, fd);
	for (size_t i = 0; i < d->program_count; i++)
		write_section(&w, d->programs[i].name, d->programs[i].d, i == 0 ? d->program_count : 0);
	flush(&w);
	return !w.failed;
}

/* A rename that fails instead of replacing; where the file system cannot
 * do that (NFS), a link, which fails the same way, then an unlink. */
bool hist_take_name(const char *tmp, const char *name)
{
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, name, RENAME_NOREPLACE) == 0)
		return true;
	if (errno != EINVAL || link(tmp, name) != 0)
		return false;
	unlink(tmp);
	return true;
}

/* ---- windows of calls (MEMSHIM_SEQUENCES) ---- */

bool hist_write_sequences(int fd, unsigned length, uint64_t weight)
{
	struct writer w;
	writer_start(&w, fd);
	put_record(&w, "sequences", 2, (uint64_t[]){ length, weight });
	flush(&w);
	return !w.failed;
}

static void write_window(struct writer *w, enum base_function fn, const struct seq_call *calls, unsigned count)
{
	put(w, "window ");
	put(w, base_function_names[fn]);
	put_char(w, ' ');
	put_number(w, count);
	put_char(w, '\n');
	for (unsigned i = 0; i < count; i++) {
		const struct seq_call *c = &calls[i];
		put_record(w, "seq", 3, (uint64_t[]){ c->size, c->dst_off, c->src_off });
		w->len--; /* the signed distance follows on the same line */
		put(w, c->distance < 0 ? " -" : " ");
		put_number(w, c->distance < 0 ? -(uint64_t)c->distance : (uint64_t)c->distance);
		put_char(w, '\n');
	}
}

bool hist_write_window(int fd, enum base_function fn, const struct seq_call *calls, unsigned count)
{
	struct writer w;
	writer_start(&w, fd);
	write_window(&w, fn, calls, count);
	flush(&w);
	return !w.failed;
}
