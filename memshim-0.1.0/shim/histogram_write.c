/* Writing dumps: formatted by hand into a stack buffer and written with
 * write(2), so a dump can run in a signal handler, in a forked child, or
 * while the program's malloc or stdio lock is held. */
#include "shim/histogram_format.h"

#include "dispatch/message.h"


#include <errno.h>
#include <unistd.h>

const char *const entry_point_names[E_COUNT] = {
	"memcpy", "mempcpy", "__memcpy_chk", "__mempcpy_chk", "memmove", "__memmove_chk", "bcopy",
	"memset", "__memset_chk", "bzero", "explicit_bzero", "__explicit_bzero_chk",
};

const enum base_function entry_point_base[E_COUNT] = {
	FN_MEMCPY, FN_MEMCPY, FN_MEMCPY, FN_MEMCPY, FN_MEMMOVE, FN_MEMMOVE, FN_MEMMOVE,
	FN_MEMSET, FN_MEMSET, FN_MEMSET, FN_MEMSET, FN_MEMSET,
};

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

static void write_header(struct writer *w, const struct dump_header *h)
{
	put(w, HIST_FORMAT_NAME " ");
	put_number(w, HIST_FORMAT_VERSION);
	put(w, "\npid ");
	put_number(w, (uint64_t)h->pid);
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
	put_record(w, "threshold erms", 1, &h->erms_threshold);
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
	if (f->alias_calls)
		put_record(w, "alias4k", 2, (uint64_t[]){ f->alias_calls, f->alias_bytes });
	if (f->overlap_dst_before || f->overlap_dst_after)
		put_record(w, "overlap", 2, (uint64_t[]){ f->overlap_dst_before, f->overlap_dst_after });
	if (f->zero_calls)
		put_record(w, "zero", 2, (uint64_t[]){ f->zero_calls, f->zero_bytes });
}

bool hist_write(int fd, const struct dump_header *h, const struct histogram *hist)
{
	struct writer w;
	w.fd = fd;
	w.failed = false;
	w.len = 0;
	write_header(&w, h);
	for (int e = 0; e < E_COUNT; e++)
		if (hist->entry_calls[e]) {
			put(&w, "entry ");
			put(&w, entry_point_names[e]);
			put_record(&w, "", 1, &hist->entry_calls[e]);
		}
	for (int fn = 0; fn < FN_COUNT; fn++)
		write_function(&w, (enum base_function)fn, &hist->fn[fn]);
	flush(&w);
	return !w.failed;
}

bool hist_write_callsite(int fd, const struct callsite_record *c)
{
	struct writer w;
	w.fd = fd;
	w.failed = false;
	w.len = 0;
	put(&w, "callsite ");
	put(&w, base_function_names[c->fn]);
	put_record(&w, "", 2, (uint64_t[]){ c->calls, c->bytes });
	w.len--; /* the frames follow on the same line */
	for (unsigned i = 0; i < c->frame_count; i++) {
		put_char(&w, ' ');
		put_word(&w, c->frames[i]);
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
