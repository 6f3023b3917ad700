/* Sampled call sites in a fixed open-addressing table: no allocation at
 * sampling time, lock-free inserts (a compare-and-swap claims an empty
 * entry), atomic counts.  A site is the whole stack, up to stack_depth
 * frames (MEMSHIM_STACK_DEPTH), like perf's call graphs.  Frames are kept
 * as addresses and turned into "function+offset" and object names with
 * dladdr only when dumping.
 *
 * The table is static, TABLE_SIZE entries of HIST_STACK_MAX frames: about
 * half a MiB of zero pages, of which the kernel maps only those sites touch. */
#include "config.h"

#include "preload/callsites.h"

#include "dispatch/message.h"
#include "preload/recording_code.h"

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <unistd.h>

#define OWN_FRAMES_MAX 9 /* enough to get past our own frames */
#define FRAMES_WALKED (HIST_STACK_MAX + OWN_FRAMES_MAX)
#define TABLE_SIZE 1024

struct site {
	uint64_t key; /* hash of fn and frames; 0: empty */
	enum base_function fn;
	unsigned frame_count;
	void *frames[HIST_STACK_MAX];
	uint64_t calls, bytes;
};

static struct site table[TABLE_SIZE];
static int (*backtrace_fn)(void **frames, int max); /* libunwind's unw_backtrace */
static uintptr_t self_begin, self_end;             /* our own code, skipped */
static __thread int in_sample __attribute__((tls_model("initial-exec")));
static char exe_path[4096]; /* the main program's full path, for the frames */
static unsigned stack_depth; /* frames kept per site, at most HIST_STACK_MAX */

static void warn(const char *text)
{
	struct line l;
	line_start(&l);
	line_add(&l, text);
	line_emit(&l);
}

static int find_self(struct dl_phdr_info *info, size_t size, void *unused)
{
	(void)size;
	(void)unused;
	uintptr_t here = (uintptr_t)find_self;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t begin = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && here >= begin && here < begin + ph->p_memsz) {
			self_begin = begin;
			self_end = begin + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

bool callsites_start(unsigned depth)
{
	stack_depth = depth < HIST_STACK_MAX ? depth : HIST_STACK_MAX;
#ifdef HAVE_LIBUNWIND
	void *libunwind = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
	if (libunwind)
		backtrace_fn = (int (*)(void **, int))dlsym(libunwind, "unw_backtrace");
	if (!backtrace_fn) {
		warn("MEMSHIM_CALLSITES: libunwind.so.8 cannot be loaded (Debian: libunwind8); no call sites");
		return false;
	}
	dl_iterate_phdr(find_self, NULL);
	void *warm_up[FRAMES_WALKED]; /* libunwind sets itself up on the first walk: now, not in a sample */
	backtrace_fn(warm_up, FRAMES_WALKED);
	return true;
#else
	warn("MEMSHIM_CALLSITES: this memshim was built without libunwind; no call sites");
	return false;
#endif
}

static uint64_t hash_site(enum base_function fn, void *const *frames, unsigned count)
{
	uint64_t h = 0x9e3779b97f4a7c15ull * (fn + 1);
	for (unsigned i = 0; i < count; i++)
		h = (h ^ (uintptr_t)frames[i]) * 0x100000001b3ull;
	return h | 1;
}

static bool same_frames(const struct site *s, void *const *frames, unsigned count)
{
	if (s->frame_count != count)
		return false;
	for (unsigned i = 0; i < count; i++)
		if (s->frames[i] != frames[i])
			return false;
	return true;
}

static void count_site(enum base_function fn, void *const *frames, unsigned count, size_t n)
{
	uint64_t key = hash_site(fn, frames, count);
	for (unsigned probe = 0; probe < TABLE_SIZE; probe++) {
		struct site *s = &table[(key + probe) % TABLE_SIZE];
		uint64_t seen = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
		if (seen == 0) {
			uint64_t empty = 0;
			if (__atomic_compare_exchange_n(&s->key, &empty, key, false, __ATOMIC_ACQ_REL,
			                                __ATOMIC_ACQUIRE)) {
				s->fn = fn;
				s->frame_count = count;
				for (unsigned i = 0; i < count; i++)
					s->frames[i] = frames[i];
			}
			seen = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
		}
		if (seen == key && s->fn == fn && same_frames(s, frames, count)) {
			__atomic_fetch_add(&s->calls, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&s->bytes, n, __ATOMIC_RELAXED);
			return;
		}
	}
	/* table full: the sample is dropped (the totals in the histogram are not) */
}

RECORDING_CODE(shared) void callsites_sample(enum base_function fn, size_t n)
{
	if (!backtrace_fn || in_sample)
		return;
	in_sample = 1;
	void *walked[FRAMES_WALKED];
	int got = backtrace_fn(walked, (int)(stack_depth + OWN_FRAMES_MAX));
	unsigned first = 0;
	while ((int)first < got && (uintptr_t)walked[first] >= self_begin && (uintptr_t)walked[first] < self_end)
		first++;
	if ((int)first < got) {
		unsigned left = (unsigned)got - first;
		count_site(fn, walked + first, left < stack_depth ? left : stack_depth, n);
	}
	in_sample = 0;
}

void callsites_reset(void)
{
	for (unsigned i = 0; i < TABLE_SIZE; i++) {
		table[i].calls = 0;
		table[i].bytes = 0;
		__atomic_store_n(&table[i].key, 0, __ATOMIC_RELEASE);
	}
}

/* "symbol+0xoff(/path/object+0xrel)" or "/path/object+0xrel", by hand: no
 * stdio here.  rel is the address from the object's first mapped page, which
 * the tools turn into function and file:line offline (dump/format.h). */
void callsites_describe(void *address, char *out, size_t size)
{
	Dl_info info;
	struct link_map *map;
	struct line l;
	line_start(&l);
	/* a return address points after the call: look up the call itself */
	uintptr_t pc = (uintptr_t)address - 1;
	if (!exe_path[0]) { /* readlink is async-signal-safe: a dump may run in a handler */
		ssize_t len = readlink("/proc/self/exe", exe_path, sizeof exe_path - 1);
		exe_path[len > 0 ? len : 0] = '\0';
	}
	if (dladdr1((void *)pc, &info, (void **)&map, RTLD_DL_LINKMAP) && info.dli_fname) {
		/* the main program has no name in the link map (dladdr gives argv[0]) */
		const char *object = map && map->l_name[0] == '\0' && exe_path[0] ? exe_path : info.dli_fname;
		if (info.dli_sname) {
			line_add(&l, info.dli_sname);
			line_add(&l, "+0x");
			line_add_hex(&l, pc - (uintptr_t)info.dli_saddr);
			line_add(&l, "(");
		}
		line_add(&l, object);
		line_add(&l, "+0x");
		line_add_hex(&l, pc - (uintptr_t)info.dli_fbase);
		if (info.dli_sname)
			line_add(&l, ")");
	} else {
		line_add(&l, "0x");
		line_add_hex(&l, pc);
	}
	size_t n = l.len < size - 1 ? l.len : size - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = l.text[i];
	out[n] = '\0';
}

void callsites_write(int fd)
{
	for (unsigned i = 0; i < TABLE_SIZE; i++) {
		const struct site *s = &table[i];
		if (!__atomic_load_n(&s->key, __ATOMIC_ACQUIRE) || !s->calls)
			continue;
		struct callsite_record r = { s->fn, s->calls, s->bytes, s->frame_count, s->frames, callsites_describe };
		hist_write_callsite(fd, &r);
	}
}
