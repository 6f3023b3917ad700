/* The profiler's timers, signal handler and counts (see preload/profile.h).
 *
 * The handler touches nothing but this file's counters, with atomic adds,
 * and the interrupted thread's mark: it takes no lock and calls nothing,
 * so it is safe whatever the thread was doing, malloc and stdio included.
 * Timers are made with the raw system calls, because glibc's timer_create
 * keeps its own list of timers for SIGEV_THREAD and may allocate; ours are
 * SIGEV_THREAD_ID timers on the thread's own CPU clock. */
#include "preload/profile.h"

#include "dispatch/config.h"

#include "dispatch/message.h"
#include "dispatch/next_symbol.h"
#include "dump/format.h"
#include "preload/recording_code.h"
#include "preload/site_table.h"

#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

__thread struct call_in_progress profile_call __attribute__((tls_model("initial-exec")));

/* How far below the marked stack pointer a call in progress may reach:
 * the wrapper's and the variant's frames, the recording's slow paths.
 * It also keeps the handler from reading a stale mark on another stack
 * (a coroutine's) that may be gone. */
#define CALL_STACK_DEPTH 4096

/* The code a call in progress runs: this library's (the wrappers, our
 * variants) and that of the objects holding the variant functions the
 * wrappers call (the C library's, for the glibc variant). */
#define MAX_CODE_RANGES 8

struct code_range {
	uintptr_t begin, end;
};

static bool started;
static int sample_signal;
static uint64_t period_ns;
static uint64_t start_ns;               /* CLOCK_MONOTONIC at start, for the wall time */
static pthread_key_t timer_key;         /* deletes a thread's timer when it ends */
static struct profile_record live;      /* the counts; the header fields are set when dumping */
static struct site_table sites; /* samples and their ns by caller */
/* The C library's sigaction: the library's own export (preload/signal_dump.c)
 * would only pass the sample signal on, which is never one a dump is asked
 * with, and this file would need the dumps' signal path. */
static int (*next_sigaction)(int, const struct sigaction *, struct sigaction *);
static __thread bool thread_timed __attribute__((tls_model("initial-exec")));
static struct code_range code[MAX_CODE_RANGES];
static unsigned code_ranges;

static void count(uint64_t *counter, uint64_t n)
{
	__atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

static void count_recording(unsigned fn, uint64_t ns)
{
	count(&live.recording_samples[fn], 1);
	count(&live.recording_ns[fn], ns);
}

static bool running_our_code(uintptr_t pc)
{
	for (unsigned i = 0; i < code_ranges; i++)
		if (pc >= code[i].begin && pc < code[i].end)
			return true;
	return false;
}

/* The marked call, if it is still in progress at stack pointer `sp` and
 * program counter `pc` (see preload/profile.h); 0 if it has returned.  The
 * program counter settles what the stack cannot: a function called in a
 * loop from one call site that tail-calls memset finds the same return
 * address in the same slot each time, but runs its own code. */
static uint64_t call_in_progress(uintptr_t sp, uintptr_t pc)
{
	uint64_t mark = profile_call.mark;
	uintptr_t entry_sp = (uintptr_t)(mark & ((1ull << PROFILE_BUCKET_SHIFT) - 1) & ~(uint64_t)PROFILE_FN_MASK);
	if (!mark || sp > entry_sp || entry_sp - sp >= CALL_STACK_DEPTH || !running_our_code(pc))
		return 0;
	return *(const uint64_t *)entry_sp == profile_call.caller ? mark : 0;
}

/* One sample: the CPU time since the last one goes to the call in progress, if any. */
static void on_sample(int sig, siginfo_t *info, void *context)
{
	(void)sig;
	if (info->si_code != SI_TIMER)
		return; /* sent by someone else: not a tick of our clock */
	uint64_t ns = period_ns * (1 + (uint64_t)(info->si_overrun > 0 ? info->si_overrun : 0));
	count(&live.samples, 1);
	count(&live.sampled_ns, ns);
	const greg_t *registers = ((ucontext_t *)context)->uc_mcontext.gregs;
	uintptr_t pc = (uintptr_t)registers[REG_RIP];
	/* The instrument apart from what it measures: a wrapper's own code is
	 * a call of its function in progress, marked yet or not (its first
	 * instructions come before the mark). */
	int wrapper = record_code_function(pc);
	if (wrapper >= 0 && wrapper < FN_COUNT) {
		count_recording((unsigned)wrapper, ns);
		return;
	}
	uint64_t mark = call_in_progress((uintptr_t)registers[REG_RSP], pc);
	if (!mark)
		return;
	unsigned fn = (unsigned)(mark & PROFILE_FN_MASK) - 1;
	unsigned bucket = (unsigned)(mark >> PROFILE_BUCKET_SHIFT);
	if (fn >= FN_COUNT || bucket >= HIST_BUCKETS)
		return;
	if (wrapper == FN_COUNT) { /* the wrappers' shared slow paths */
		count_recording(fn, ns);
		return;
	}
	count(&live.bucket_samples[fn][bucket], 1);
	count(&live.bucket_ns[fn][bucket], ns);
	site_table_add(&sites, profile_call.caller, fn, ns);
}

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void say(const char *text)
{
	struct line l;
	line_start(&l);
	line_add(&l, "MEMSHIM_PROFILE: ");
	line_add(&l, text);
	line_emit(&l);
}

static void delete_timer(void *id_plus_one)
{
	syscall(SYS_timer_delete, (long)((uintptr_t)id_plus_one - 1));
}

RECORDING_CODE(shared) void profile_thread_start(void)
{
	if (!started || thread_timed)
		return;
	thread_timed = true;
	struct sigevent event;
	event.sigev_value.sival_ptr = NULL;
	event.sigev_signo = sample_signal;
	event.sigev_notify = SIGEV_THREAD_ID;
	event._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	int id; /* the kernel's timer_t is an int */
	if (syscall(SYS_timer_create, CLOCK_THREAD_CPUTIME_ID, &event, &id) != 0)
		return; /* out of timers (RLIMIT_SIGPENDING): this thread goes unsampled */
	struct itimerspec every;
	every.it_interval.tv_sec = (time_t)(period_ns / 1000000000u);
	every.it_interval.tv_nsec = (long)(period_ns % 1000000000u);
	every.it_value = every.it_interval;
	syscall(SYS_timer_settime, id, 0, &every, NULL);
	pthread_setspecific(timer_key, (void *)((uintptr_t)id + 1));
}

/* Adds the executable segment that holds `address` to code[]. */
static int add_segment_of(struct dl_phdr_info *info, size_t size, void *address)
{
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t begin = info->dlpi_addr + ph->p_vaddr, end = begin + ph->p_memsz;
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || (uintptr_t)address < begin ||
		    (uintptr_t)address >= end)
			continue;
		for (unsigned r = 0; r < code_ranges; r++)
			if (code[r].begin == begin)
				return 1;
		if (code_ranges < MAX_CODE_RANGES)
			code[code_ranges++] = (struct code_range){ begin, end };
		return 1;
	}
	return 0;
}

static void find_code(const struct entry_set *t)
{
#define TARGET_OF(v, entry, ...) (void *)t->entry,
	void *functions[] = { (void *)on_sample, MEMSHIM_ENTRY_POINTS(TARGET_OF, ) };
#undef TARGET_OF
	for (unsigned i = 0; i < sizeof functions / sizeof functions[0]; i++)
		if (functions[i])
			dl_iterate_phdr(add_segment_of, functions[i]);
	/* With size bands the targets are the band dispatcher: each band's
	 * variant may live elsewhere (glibc's in the C library). */
	const struct config *c = config_get();
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned b = 0; b < c->choice[fn].bands.count; b++) {
			const struct entry_set *e = c->choice[fn].bands.variant[b]->entries();
			dl_iterate_phdr(add_segment_of, (void *)e->memcpy);
		}
}

bool profile_start(unsigned hz, const struct entry_set *targets)
{
	sample_signal = SIGRTMAX - 3;
	struct sigaction action, before;
	sigemptyset(&action.sa_mask);
	action.sa_flags = SA_SIGINFO | SA_RESTART;
	action.sa_sigaction = on_sample;
	next_sigaction = next_symbol("sigaction");
	if (next_sigaction && next_sigaction(sample_signal, NULL, &before) == 0 && before.sa_handler != SIG_DFL) {
		say("the program already handles the profiling signal (SIGRTMAX-3); no profile");
		return false;
	}
	if (!next_sigaction || pthread_key_create(&timer_key, delete_timer) != 0 ||
	    next_sigaction(sample_signal, &action, NULL) != 0) {
		say("cannot set up the profiling signal; no profile");
		return false;
	}
	find_code(targets);
	period_ns = 1000000000u / hz;
	live.rate_hz = hz;
	start_ns = clock_ns(CLOCK_MONOTONIC);
	started = true;
	profile_thread_start();
	return true;
}

static void zero(uint64_t *p, size_t count)
{
	for (size_t i = 0; i < count; i++)
		p[i] = 0;
}

void profile_restart_in_child(void)
{
	if (!started)
		return;
	uint64_t rate = live.rate_hz;
	zero((uint64_t *)&live, sizeof live / sizeof(uint64_t));
	live.rate_hz = rate;
	site_table_clear(&sites);
	start_ns = clock_ns(CLOCK_MONOTONIC);
	thread_timed = false; /* timers are not inherited */
	profile_thread_start();
}

static bool handler_still_ours(void)
{
	struct sigaction now;
	return next_sigaction(sample_signal, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) &&
	       now.sa_sigaction == on_sample;
}

static bool write_site(void *fd, enum base_function fn, uint64_t samples, uint64_t ns, const char *frame)
{
	struct cpu_site_record r = { fn, samples, ns, frame };
	return hist_write_cpu_site(*(int *)fd, &r);
}

bool profile_write(int fd)
{
	if (!started)
		return true;
	int saved_errno = errno;
	live.process_cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	live.wall_ns = clock_ns(CLOCK_MONOTONIC) - start_ns;
	live.handler_replaced = !handler_still_ours();
	bool ok = hist_write_profile(fd, &live) && site_table_write(&sites, write_site, &fd);
	errno = saved_errno;
	return ok;
}
