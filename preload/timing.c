/* The timer of MEMSHIM_TIMING (see preload/timing.h): the counter's checks and
 * rate, the timer's own cost, the cap on a timed call, the callers, and the
 * records of the dump.  Nothing here allocates or takes a lock: a timed call
 * is counted from the recording's slow path, the dump may run in a signal
 * handler. */
#include "preload/timing.h"

#include "dispatch/message.h"
#include "dump/format.h"
#include "preload/recording_code.h"
#include "preload/site_table.h"

#include <cpuid.h>
#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Empty timed regions measured at start-up; their median is the timer's
 * cost where a run measures too few beside its calls: fewer than
 * EMPTY_REGIONS_ENOUGH, against which a tick more or less in the median is
 * the larger error. */
#define EMPTY_REGIONS 1001
#define EMPTY_REGIONS_ENOUGH 1000
/* One timed call in this many (at random) is followed by an empty region. */
#define EMPTY_REGION_EVERY 8
/* Empty regions beside the calls, counted by their ticks (the last bin:
 * that many or more).  Their median is subtracted, not their mean: in
 * redis-server a few regions that the program's system calls lengthened by
 * a microsecond moved the mean of thousands by several ns, more than a small
 * copy takes. */
#define EMPTY_BINS 1024
/* A timed call longer than this plus CAP_NS_PER_BYTE a byte was not running
 * all along: an interrupt or a page fault takes microseconds, a preemption
 * (or the hypervisor's) a scheduler slice, milliseconds; a copy missing
 * every cache line of a few KiB, or a MiB from memory, takes less. */
#define CAP_BASE_NS 2000.0
#define CAP_NS_PER_BYTE 1.0
#define CAP_BYTES_MAX (1ull << 40) /* beyond, the cap no longer matters (and would overflow) */
/* A pair of readings of the counter and the clock further apart than this
 * was interrupted between them: read again. */
#define PAIR_SLACK_NS 2000.0
#define PAIR_TRIES 20

/* The counter and CLOCK_MONOTONIC_RAW (ns) read together. */
struct clock_pair {
	double ticks, ns;
};

static unsigned every;                 /* 0: timing is off */
static double cpuid_hz;                /* from CPUID; 0: measured against the clock */
static const char *hz_source;
static struct clock_pair start_pair;   /* at start-up: measuring the rate from there */
static double start_hz;                /* the rate over the start-up measurement: the cap's */
static double start_overhead_ticks;    /* the timer's own cost per timed region, at start-up */
static double overhead_ticks;          /* the one subtracted in the dump being written */
static uint64_t empty_bins[EMPTY_BINS]; /* the process's empty regions, every thread's */
static uint64_t cap_base_ticks, cap_ticks_per_byte_q16;
static struct site_table sites; /* timed calls and their ticks by immediate caller (call sites on) */
static __thread uint32_t random_state __attribute__((tls_model("initial-exec")));

static const char *variable = "MEMSHIM_TIMING"; /* the variable that asked for the timer */

static void say(const char *text, const char *then)
{
	struct line l;
	line_start(&l);
	line_add(&l, variable);
	line_add(&l, ": ");
	line_add(&l, text);
	line_add(&l, then);
	line_emit(&l);
}

/* Whether this thread may read the counter: prctl PR_SET_TSC forbids it.
 * The system call itself: the library's own prctl is a wrapper. */
static bool counter_allowed(void)
{
	int mode = 0;
	return syscall(SYS_prctl, PR_GET_TSC, &mode, 0, 0, 0) != 0 || mode != PR_TSC_SIGSEGV;
}

void timing_say_forbidden(void)
{
	say("the program forbade itself the time-stamp counter (prctl PR_SET_TSC)", "; no more timed calls");
}

static uint64_t read_counter(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* The counter ticks at one rate in every power and clock state (Intel and
 * AMD: CPUID 0x80000007, EDX bit 8). */
static bool counter_invariant(void)
{
	unsigned a, b, c, d;
	if (__get_cpuid_max(0x80000000, 0) < 0x80000007)
		return false;
	__cpuid(0x80000007, a, b, c, d);
	return d & (1u << 8);
}

/* The rate CPUID gives: 0x15 (crystal clock times the counter's ratio to
 * it), else 0x16 (the base frequency, which the counter keeps on the Intel
 * CPUs that have this leaf and not 0x15's crystal); 0 if neither does. */
static double rate_from_cpuid(const char **source)
{
	unsigned max = __get_cpuid_max(0, 0), a, b, c, d;
	if (max >= 0x15) {
		__cpuid_count(0x15, 0, a, b, c, d);
		if (a && b && c) {
			*source = "cpuid-0x15";
			return (double)c * b / a;
		}
	}
	if (max >= 0x16) {
		__cpuid_count(0x16, 0, a, b, c, d);
		if (a & 0xffff) {
			*source = "cpuid-0x16";
			return (a & 0xffff) * 1e6;
		}
	}
	return 0;
}

/* The counter and the clock, read as close together as a few tries get
 * them; false if the clock cannot be read. */
static bool read_pair(struct clock_pair *p)
{
	double best = -1;
	for (int i = 0; i < PAIR_TRIES && (best < 0 || best > PAIR_SLACK_NS * start_hz / 1e9); i++) {
		struct timespec t;
		uint64_t before = read_counter();
		if (clock_gettime(CLOCK_MONOTONIC_RAW, &t) != 0)
			return false;
		uint64_t after = read_counter();
		double gap = (double)(after - before);
		if (best < 0 || gap < best) {
			best = gap;
			p->ticks = (double)before + gap / 2;
			p->ns = 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
		}
	}
	return true;
}

/* The median of EMPTY_REGIONS empty timed regions, in ticks: counted by
 * their distance from the shortest, which is a few ticks for nearly all. */
static double measure_overhead(void)
{
	uint32_t region[EMPTY_REGIONS], least = UINT32_MAX;
	for (unsigned i = 0; i < EMPTY_REGIONS; i++) {
		uint64_t start = timing_start();
		uint64_t ticks = timing_end() - start;
		region[i] = ticks < UINT32_MAX ? (uint32_t)ticks : UINT32_MAX;
		least = region[i] < least ? region[i] : least;
	}
	unsigned above[256] = { 0 }, seen = 0, k = 0;
	for (unsigned i = 0; i < EMPTY_REGIONS; i++)
		above[region[i] - least < 255 ? region[i] - least : 255]++;
	while (k < 255 && (seen += above[k]) <= EMPTY_REGIONS / 2)
		k++;
	return (double)least + k;
}

bool timing_clock_start(const char *asked_by)
{
	variable = asked_by;
	if (!counter_invariant()) {
		say("this CPU's time-stamp counter is not invariant (CPUID 0x80000007): its ticks are not time",
		    "; no timed calls");
		return false;
	}
	cpuid_hz = rate_from_cpuid(&hz_source);
	struct clock_pair after;
	start_hz = 1e9; /* until measured: what read_pair allows between its readings */
	if (!read_pair(&start_pair)) {
		say("the time-stamp counter's rate is unknown: CPUID 0x15 and 0x16 do not give it, and "
		    "CLOCK_MONOTONIC_RAW cannot be read to measure it", "; no timed calls");
		return false;
	}
	start_overhead_ticks = measure_overhead();
	if (!read_pair(&after) || !(after.ns > start_pair.ns) || !(after.ticks > start_pair.ticks)) {
		say("the time-stamp counter's rate cannot be measured against CLOCK_MONOTONIC_RAW", "; no timed calls");
		return false;
	}
	start_hz = cpuid_hz ? cpuid_hz : 1e9 * (after.ticks - start_pair.ticks) / (after.ns - start_pair.ns);
	if (!cpuid_hz)
		hz_source = "monotonic";
	cap_base_ticks = (uint64_t)(CAP_BASE_NS * start_hz / 1e9);
	cap_ticks_per_byte_q16 = (uint64_t)(CAP_NS_PER_BYTE * start_hz / 1e9 * 65536);
	return true;
}

bool timing_start_up(unsigned n)
{
	if (!timing_clock_start("MEMSHIM_TIMING"))
		return false;
	every = n;
	return true;
}

RECORDING_CODE(shared) bool timing_interrupted(uint64_t ticks, size_t n)
{
	uint64_t bytes = n < CAP_BYTES_MAX ? n : CAP_BYTES_MAX;
	return ticks > cap_base_ticks + (bytes * cap_ticks_per_byte_q16 >> 16);
}


/* xorshift32 (Marsaglia), seeded per thread from the counter. */
RECORDING_CODE(shared) uint32_t timing_random(void)
{
	uint32_t x = random_state;
	if (!x)
		x = (uint32_t)read_counter() ^ (uint32_t)(uintptr_t)&random_state ^ 0x9e3779b9u;
	x = x ? x : 1;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	random_state = x;
	return x;
}

RECORDING_CODE(shared) unsigned timing_countdown(void)
{
	/* scaled to 0..2N-2 with a multiply, not a division: this is on every timed call */
	return 1 + (unsigned)((uint64_t)timing_random() * (2 * every - 1) >> 32);
}

/* One add-to-memory instruction, as the recording's counters (preload/record.c). */
static void add(bool shared, uint64_t *counter, uint64_t n)
{
	if (shared)
		__atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
	else
		__asm__("addq %1, %0" : "+m"(*counter) : "er"(n));
}

/* A 128-bit add: the low word's carry goes into the high word with the
 * next instruction.  A signal handler that adds here between the two
 * carries its own carry; the flags are restored on its return. */
static void add_square(bool shared, uint64_t *pair, uint64_t ticks)
{
	unsigned __int128 square = (unsigned __int128)ticks * ticks;
	uint64_t lo = (uint64_t)square, hi = (uint64_t)(square >> 64);
	if (shared)
		__asm__("lock addq %2, %0\n\tlock adcq %3, %1" : "+m"(pair[0]), "+m"(pair[1]) : "r"(lo), "r"(hi) : "cc");
	else
		__asm__("addq %2, %0\n\tadcq %3, %1" : "+m"(pair[0]), "+m"(pair[1]) : "r"(lo), "r"(hi) : "cc");
}

RECORDING_CODE(shared) void timing_count(struct timing_counts *c, bool shared, enum base_function fn, unsigned b,
                                         size_t n, uint64_t ticks, void *caller)
{
	if (timing_interrupted(ticks, n)) {
		add(shared, &c->dropped[fn][b], 1);
		return;
	}
	add(shared, &c->calls[fn][b], 1);
	add(shared, &c->ticks[fn][b], ticks);
	add_square(shared, c->squares[fn][b], ticks);
	if (caller)
		site_table_add(&sites, (uintptr_t)caller, fn, ticks);
	if (random_state % EMPTY_REGION_EVERY == 0)
		timing_count_empty_region();
}

RECORDING_CODE(shared) void timing_count_empty_region(void)
{
	uint64_t start = timing_start();
	uint64_t ticks = timing_end() - start;
	__atomic_fetch_add(&empty_bins[ticks < EMPTY_BINS ? ticks : EMPTY_BINS - 1], 1, __ATOMIC_RELAXED);
}

double timing_overhead_ticks(void)
{
	uint64_t all = 0, seen = 0;
	for (unsigned i = 0; i < EMPTY_BINS; i++)
		all += __atomic_load_n(&empty_bins[i], __ATOMIC_RELAXED);
	for (unsigned i = 0; all >= EMPTY_REGIONS_ENOUGH && i < EMPTY_BINS; i++)
		if ((seen += __atomic_load_n(&empty_bins[i], __ATOMIC_RELAXED)) * 2 >= all)
			return i;
	return start_overhead_ticks;
}

void timing_add(struct timing_counts *to, const struct timing_counts *from)
{
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned b = 0; b < HIST_BUCKETS; b++) {
			to->calls[fn][b] += __atomic_load_n(&from->calls[fn][b], __ATOMIC_RELAXED);
			to->ticks[fn][b] += __atomic_load_n(&from->ticks[fn][b], __ATOMIC_RELAXED);
			to->dropped[fn][b] += __atomic_load_n(&from->dropped[fn][b], __ATOMIC_RELAXED);
			uint64_t lo = __atomic_load_n(&from->squares[fn][b][0], __ATOMIC_RELAXED);
			uint64_t hi = __atomic_load_n(&from->squares[fn][b][1], __ATOMIC_RELAXED);
			to->squares[fn][b][1] += hi + __builtin_add_overflow(to->squares[fn][b][0], lo, &to->squares[fn][b][0]);
		}
}

void timing_restart_in_child(void)
{
	site_table_clear(&sites);
	random_state = 0; /* the child draws its own countdowns */
	for (unsigned i = 0; i < EMPTY_BINS; i++)
		empty_bins[i] = 0;
}

/* The counter's rate: CPUID's, else measured from start-up to now (or
 * over start-up, where this thread may no longer read the counter). */
static double counter_hz(void)
{
	struct clock_pair now;
	if (cpuid_hz)
		return cpuid_hz;
	if (!counter_allowed())
		return start_hz;
	if (!read_pair(&now) || !(now.ns > start_pair.ns) || !(now.ticks > start_pair.ticks))
		return start_hz;
	return 1e9 * (now.ticks - start_pair.ticks) / (now.ns - start_pair.ns);
}

double timing_ns_per_tick(void)
{
	return 1e9 / counter_hz();
}

/* x rounded to a whole number, 0 below 0, UINT64_MAX past it. */
static uint64_t whole(double x)
{
	return !(x > 0) ? 0 : x >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)(x + 0.5);
}

/* The ns a caller's timed calls took, the timer's cost off. */
static uint64_t net_ns(double calls, double ticks, double ns_per_tick)
{
	return whole((ticks - calls * overhead_ticks) * ns_per_tick);
}

/* Where a caller's timed calls go, and the ns a tick (site_table_write's context). */
struct site_writing {
	int fd;
	double ns_per_tick;
};

static bool write_site(void *writing, enum base_function fn, uint64_t calls, uint64_t ticks, const char *frame)
{
	const struct site_writing *w = writing;
	return hist_write_time_site(w->fd, fn, calls, net_ns((double)calls, (double)ticks, w->ns_per_tick), frame);
}

bool timing_write(int fd, const struct timing_counts *sum)
{
	static struct timing_record r; /* static: too big for a signal handler's stack */
	if (!every)
		return true;
	int saved_errno = errno;
	double hz = counter_hz(), ns_per_tick = 1e9 / hz;
	overhead_ticks = timing_overhead_ticks();
	double ov = overhead_ticks;
	r.every = every;
	r.tsc_hz = whole(hz);
	r.overhead_ps = whole(1000 * ov * ns_per_tick);
	r.hz_source = hz_source;
	for (int fn = 0; fn < FN_COUNT; fn++)
		for (unsigned b = 0; b < HIST_BUCKETS; b++) {
			double n = (double)sum->calls[fn][b], t = (double)sum->ticks[fn][b];
			double squares = (double)sum->squares[fn][b][1] * 18446744073709551616.0 + (double)sum->squares[fn][b][0];
			r.calls[fn][b] = sum->calls[fn][b];
			r.dropped[fn][b] = sum->dropped[fn][b];
			r.ns[fn][b] = net_ns(n, t, ns_per_tick);
			/* the sum of (ticks - ov)^2 from the sums of ticks^2 and ticks */
			r.squares[fn][b] = whole((squares - 2 * ov * t + n * ov * ov) * ns_per_tick * ns_per_tick);
		}
	bool ok = hist_write_timing(fd, &r) &&
	          site_table_write(&sites, write_site, &(struct site_writing){ fd, ns_per_tick });
	errno = saved_errno;
	return ok;
}
