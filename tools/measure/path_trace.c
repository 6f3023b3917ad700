/* The path engine: the instructions each variant executes, and the
 * branches it takes, for one call of every size from 0 to PATH_MAX_SIZE
 * bytes (memshim bench --path prints them; the calibration compares them
 * with glibc's).  This is the path, not its timing, so it is the same on every CPU
 * that runs the same code, and a busy machine cannot disturb it.
 *
 * How.  Single-stepping (the trap flag) costs a debug exception per
 * instruction, which a hypervisor may intercept; a breakpoint costs far
 * less.  So a forked child first reads each function's code (Zydis) from
 * its entry along every branch, cutting it into straight runs that end in
 * a control transfer, and puts an int3 on each control transfer.  It then
 * calls the function natively: the runs execute as they are, string
 * instructions with a rep prefix included (one instruction each), and at
 * each breakpoint the SIGTRAP handler adds the run it ends to the count and
 * carries the jump, branch or return out itself, from the flags and the
 * stack, so the original instruction never needs to be put back.  The
 * handler calls nothing: glibc's own memcpy may be one of the functions
 * holding breakpoints.  The child passes its counts (or what it could not
 * follow) back in shared memory; its patched code dies with it. */
#include "config.h"

#include "tools/measure/path_trace.h"

#include <stdio.h>

const size_t path_class_top[PATH_CLASS_COUNT] = { 16, 32, 64, 128, 256, 512, 1024 };
const char *const path_class_label[PATH_CLASS_COUNT] = { "0-16", "17-32", "33-64", "65-128", "129-256", "257-512", "513-1K" };

void path_class_mean(const struct path *p, unsigned k, double *instructions, double *taken)
{
	size_t n = k ? path_class_top[k - 1] + 1 : 0, first = n;
	*instructions = *taken = 0;
	for (; n <= path_class_top[k]; n++) {
		*instructions += p[n].instructions;
		*taken += p[n].taken;
	}
	*instructions /= (double)(n - first);
	*taken /= (double)(n - first);
}

/* Whether `holds` holds of the two paths' means in some class within [lo, hi]. */
static bool in_some_class(const struct path *ours, const struct path *theirs, size_t lo, size_t hi,
			  bool (*holds)(double oi, double ot, double ti, double tt))
{
	for (unsigned k = 0; k < PATH_CLASS_COUNT; k++) {
		size_t first = k ? path_class_top[k - 1] + 1 : 0;
		if (first < lo || path_class_top[k] > hi)
			continue;
		double oi, ot, ti, tt;
		path_class_mean(ours, k, &oi, &ot);
		path_class_mean(theirs, k, &ti, &tt);
		if (holds(oi, ot, ti, tt))
			return true;
	}
	return false;
}

static bool longer(double oi, double ot, double ti, double tt) { return ot > tt || oi > ti + PATH_EXTRA_INSTRUCTIONS; }

static bool fewer_branches(double oi, double ot, double ti, double tt) { return (void)oi, (void)ti, ot <= tt - PATH_FEWER_BRANCHES; }

bool path_no_longer(const struct path *ours, const struct path *theirs, size_t lo, size_t hi)
{
	return !in_some_class(ours, theirs, lo, hi, longer);
}

bool path_fewer_branches(const struct path *ours, const struct path *theirs, size_t lo, size_t hi)
{
	return in_some_class(ours, theirs, lo, hi, fewer_branches);
}

uintptr_t path_function(const struct measure_variant *v, int fn)
{
	return fn == FN_MEMSET ? (uintptr_t)v->set : (uintptr_t)v->copy[fn];
}

#ifndef HAVE_ZYDIS
struct path *path_trace(const struct measure_variant *v, unsigned count, unsigned functions, char *why, size_t why_size)
{
	(void)v, (void)count, (void)functions;
	snprintf(why, why_size, "this memshim was built without Zydis, which decodes the instructions "
		 "(Debian: libzydis-dev, then ./configure again)");
	return NULL;
}

void path_free(struct path *paths, unsigned count) { (void)paths, (void)count; }
#else
#include <Zydis/Zydis.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#define PATH_BUFFER (2 * PATH_MAX_SIZE + 4096)
/* Both pointers this far into a page, as most pointers are: not in a page's
 * first or last 64 bytes, where the masked short copies take another path
 * (shim/vector_ladder.S); a multiple of 64, so that every alignment a loop
 * tests is a page's. */
#define PATH_PAGE_OFFSET 256

/* ---- the code, as read before it runs ---- */

enum transfer_kind { JUMP_IF, JUMP, RETURN, CALL };

/* A control transfer: where a straight run ends, and an int3 sits. */
struct transfer {
	uintptr_t at;
	uintptr_t target;   /* of a direct or RIP-relative jump or call */
	unsigned char kind, length;
	ZydisMnemonic condition; /* of JUMP_IF */
	unsigned short pop;      /* a ret's immediate */
};

/* A straight run: from `start`, `length` instructions, then `end`. */
struct run {
	uintptr_t start;
	unsigned length;
	const struct transfer *end;
};

#define TABLE_SLOTS 8192 /* a power of two, far above the code of every variant together */

static struct transfer transfers[TABLE_SLOTS];
static struct run runs[TABLE_SLOTS];

static size_t slot_of(uintptr_t address) { return (address ^ address >> 13) & (TABLE_SLOTS - 1); }

/* The entry for address in table (of `size`-byte entries whose first
 * member is the address), or the free slot where it would go; NULL when
 * full.  Called from the signal handler too: no library call. */
static void *find(void *table, size_t size, uintptr_t address)
{
	for (size_t i = slot_of(address), probes = 0; probes < TABLE_SLOTS; i = (i + 1) & (TABLE_SLOTS - 1), probes++) {
		uintptr_t *entry = (uintptr_t *)((char *)table + i * size);
		if (*entry == address || *entry == 0)
			return entry;
	}
	return NULL;
}

static const struct run *run_at(uintptr_t address)
{
	const struct run *r = find(runs, sizeof *runs, address);
	return r && r->start == address ? r : NULL;
}

static const struct transfer *transfer_at(uintptr_t address)
{
	const struct transfer *t = find(transfers, sizeof *transfers, address);
	return t && t->at == address ? t : NULL;
}

/* Writes an int3 over the first byte of the instruction at address. */
static bool plant_breakpoint(uintptr_t address)
{
	uintptr_t page = address & ~(uintptr_t)4095;
	if (mprotect((void *)page, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
		return false;
	*(volatile unsigned char *)address = 0xcc;
	return true;
}

/* What the control transfer decoded at address is, with its breakpoint
 * planted; false for one the handler cannot carry out (through a register,
 * a system call). */
static bool add_transfer(const ZydisDecodedInstruction *insn, const ZydisDecodedOperand *op, uintptr_t address,
			 const struct transfer **out)
{
	struct transfer *t = find(transfers, sizeof *transfers, address);
	if (!t)
		return false;
	*t = (struct transfer){ .at = address, .length = insn->length, .condition = insn->mnemonic };
	ZyanU64 target = 0;
	switch (insn->meta.category) {
	case ZYDIS_CATEGORY_RET:
		t->kind = RETURN;
		t->pop = insn->operand_count_visible ? (unsigned short)op[0].imm.value.u : 0;
		break;
	case ZYDIS_CATEGORY_COND_BR:
	case ZYDIS_CATEGORY_UNCOND_BR:
	case ZYDIS_CATEGORY_CALL:
		t->kind = insn->meta.category == ZYDIS_CATEGORY_COND_BR ? JUMP_IF
			  : insn->meta.category == ZYDIS_CATEGORY_CALL ? CALL : JUMP;
		if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(insn, &op[0], address, &target)))
			return false;
		if (op[0].type == ZYDIS_OPERAND_TYPE_MEMORY) /* jmp *slot(%rip): the slot is set at start-up */
			target = *(const uint64_t *)target;
		t->target = target;
		break;
	default:
		return false;
	}
	if (t->kind == JUMP_IF && insn->mnemonic != ZYDIS_MNEMONIC_JRCXZ && insn->mnemonic != ZYDIS_MNEMONIC_JECXZ &&
	    (insn->mnemonic < ZYDIS_MNEMONIC_JB || insn->mnemonic > ZYDIS_MNEMONIC_JZ))
		return false; /* loop and kin */
	*out = t;
	return plant_breakpoint(address);
}

static bool is_transfer(const ZydisDecodedInstruction *insn)
{
	switch (insn->meta.category) {
	case ZYDIS_CATEGORY_COND_BR:
	case ZYDIS_CATEGORY_UNCOND_BR:
	case ZYDIS_CATEGORY_RET:
	case ZYDIS_CATEGORY_CALL:
	case ZYDIS_CATEGORY_SYSCALL:
	case ZYDIS_CATEGORY_INTERRUPT:
	case ZYDIS_CATEGORY_SYSTEM:
		return true;
	default:
		return false;
	}
}

/* Reads the straight run from start to its control transfer; adds the
 * addresses it may go on to at next[*count]. */
static bool read_run(const ZydisDecoder *decoder, uintptr_t start, uintptr_t *next, unsigned *count)
{
	struct run *r = find(runs, sizeof *runs, start);
	if (!r)
		return false;
	*r = (struct run){ .start = start };
	for (uintptr_t at = start;;) {
		const struct transfer *known = transfer_at(at);
		ZydisDecodedInstruction insn;
		ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
		if (!known && !ZYAN_SUCCESS(ZydisDecoderDecodeFull(decoder, (const void *)at, 15, &insn, op)))
			return false;
		if (!known && !is_transfer(&insn)) {
			r->length++;
			at += insn.length;
			continue;
		}
		if (!known && !add_transfer(&insn, op, at, &known))
			return false;
		r->end = known;
		if (known->kind != RETURN && known->kind != CALL)
			next[(*count)++] = known->target;
		if (known->kind == JUMP_IF || known->kind == CALL)
			next[(*count)++] = at + known->length;
		return true;
	}
}

/* Every straight run a call of f can reach, each with its breakpoint. */
static bool read_function(const ZydisDecoder *decoder, uintptr_t f)
{
	static uintptr_t pending[TABLE_SLOTS];
	unsigned count = 0;
	pending[count++] = f;
	while (count) {
		uintptr_t at = pending[--count];
		if (!run_at(at) && (count + 2 > TABLE_SLOTS || !read_run(decoder, at, pending, &count)))
			return false;
	}
	return true;
}

/* ---- the call, as it runs ---- */

/* Calls f(d, s_or_c, n) with the stack aligned as after a call; the
 * return to path_call_returned ends the count. */
void path_call(void *d, uintptr_t s_or_c, size_t n, uintptr_t f);
extern const char path_call_returned[];
__asm__(".text\n"
	".p2align 4\n"
	".type path_call, @function\n"
	"path_call:\n"
	"	sub $8, %rsp\n"
	"	call *%rcx\n"
	"path_call_returned:\n"
	"	add $8, %rsp\n"
	"	ret\n"
	".size path_call, .-path_call\n");

static volatile struct {
	uintptr_t run_start; /* where the run now executing began */
	bool counting;
	unsigned instructions, taken;
} now;

static bool condition_holds(ZydisMnemonic jcc, const greg_t *r)
{
	unsigned long f = (unsigned long)r[REG_EFL];
	bool cf = f & 1, pf = f & 4, zf = f & 0x40, sf = f & 0x80, of = f & 0x800;
	switch (jcc) {
	case ZYDIS_MNEMONIC_JB: return cf;
	case ZYDIS_MNEMONIC_JBE: return cf || zf;
	case ZYDIS_MNEMONIC_JL: return sf != of;
	case ZYDIS_MNEMONIC_JLE: return zf || sf != of;
	case ZYDIS_MNEMONIC_JNB: return !cf;
	case ZYDIS_MNEMONIC_JNBE: return !cf && !zf;
	case ZYDIS_MNEMONIC_JNL: return sf == of;
	case ZYDIS_MNEMONIC_JNLE: return !zf && sf == of;
	case ZYDIS_MNEMONIC_JNO: return !of;
	case ZYDIS_MNEMONIC_JNP: return !pf;
	case ZYDIS_MNEMONIC_JNS: return !sf;
	case ZYDIS_MNEMONIC_JNZ: return !zf;
	case ZYDIS_MNEMONIC_JO: return of;
	case ZYDIS_MNEMONIC_JP: return pf;
	case ZYDIS_MNEMONIC_JS: return sf;
	case ZYDIS_MNEMONIC_JZ: return zf;
	case ZYDIS_MNEMONIC_JECXZ: return (uint32_t)r[REG_RCX] == 0;
	default: return r[REG_RCX] == 0; /* jrcxz: read_run lets no other through */
	}
}

/* Where the transfer t goes in the registers r, carried out in them. */
static uintptr_t carry_out(const struct transfer *t, greg_t *r)
{
	uintptr_t fall_through = t->at + t->length;
	switch (t->kind) {
	case JUMP_IF:
		return condition_holds(t->condition, r) ? t->target : fall_through;
	case JUMP:
		return t->target;
	case CALL:
		r[REG_RSP] -= 8;
		*(uintptr_t *)r[REG_RSP] = fall_through;
		return t->target;
	default: { /* RETURN */
		uintptr_t back = *(const uintptr_t *)r[REG_RSP];
		r[REG_RSP] += 8 + t->pop;
		return back;
	}
	}
}

/* At a breakpoint: count the run it ends, and take its place. */
static void on_breakpoint(int sig, siginfo_t *info, void *context)
{
	(void)sig, (void)info;
	greg_t *r = ((ucontext_t *)context)->uc_mcontext.gregs;
	const struct transfer *t = transfer_at((uintptr_t)r[REG_RIP] - 1);
	if (!t)
		_exit(4); /* an int3 that is none of ours */
	uintptr_t next = carry_out(t, r);
	if (now.counting) {
		const struct run *run = run_at(now.run_start);
		now.instructions += (run ? run->length : 0) + 1;
		now.taken += (t->kind == JUMP || t->kind == JUMP_IF) && next != t->at + t->length;
		now.counting = next != (uintptr_t)path_call_returned;
		now.run_start = next;
	}
	r[REG_RIP] = (greg_t)next;
}

static struct path one_call(uintptr_t f, void *d, uintptr_t s_or_c, size_t n)
{
	now.run_start = f;
	now.instructions = now.taken = 0;
	now.counting = true;
	path_call(d, s_or_c, n, f);
	return (struct path){ now.instructions + 2, now.taken };
}

/* ---- the child ---- */

struct path_job {
	const struct measure_variant *variants;
	unsigned count, functions;
	struct path *paths; /* [variant][function][size], shared with the parent */
	char *why;          /* after the paths: what the child could not follow */
};


struct path *path_of(struct path *paths, unsigned variant, int fn)
{
	return paths + ((size_t)variant * FN_COUNT + (size_t)fn) * PATH_SIZES;
}

/* In the child: every call's path, or what it could not follow and a non-zero exit. */
static void trace_all(const struct path_job *job)
{
	ZydisDecoder decoder;
	ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	struct sigaction sa = { .sa_sigaction = on_breakpoint, .sa_flags = SA_SIGINFO };
	sigaction(SIGTRAP, &sa, NULL);
	unsigned char *buffer = aligned_alloc(4096, 2 * PATH_BUFFER);
	if (!buffer) {
		snprintf(job->why, PATH_WHY_MAX, "out of memory");
		_exit(3);
	}
	for (unsigned i = 0; i < job->count; i++)
		for (int fn = 0; fn < FN_COUNT; fn++) {
			uintptr_t f = path_function(&job->variants[i], fn);
			if (!(job->functions & (1u << fn)) || !f)
				continue;
			if (!read_function(&decoder, f)) {
				snprintf(job->why, PATH_WHY_MAX, "cannot follow %s %s: a jump through a register, "
					 "or code past what it can hold", base_function_names[fn], job->variants[i].name);
				_exit(3);
			}
			uintptr_t second = fn == FN_MEMSET ? 0x5a : (uintptr_t)(buffer + PATH_BUFFER + PATH_PAGE_OFFSET);
			for (size_t n = 0; n < PATH_SIZES; n++)
				path_of(job->paths, i, fn)[n] = one_call(f, buffer + PATH_PAGE_OFFSET, second, n);
		}
	_exit(0);
}

static size_t paths_bytes(unsigned count) { return (size_t)count * FN_COUNT * PATH_SIZES * sizeof(struct path); }

struct path *path_trace(const struct measure_variant *v, unsigned count, unsigned functions, char *why, size_t why_size)
{
	size_t bytes = paths_bytes(count) + PATH_WHY_MAX;
	struct path_job job = { v, count, functions, mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0), NULL };
	if (job.paths == MAP_FAILED) {
		snprintf(why, why_size, "out of memory");
		return NULL;
	}
	job.why = (char *)job.paths + paths_bytes(count);
	fflush(NULL);
	pid_t child = fork();
	if (child == 0)
		trace_all(&job);
	int status = 0;
	bool done = child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (done)
		return job.paths;
	if (child > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 3 && job.why[0])
		snprintf(why, why_size, "%s", job.why);
	else
		snprintf(why, why_size, "the child that runs the calls failed (%s)",
			 child < 0 ? "fork failed" : WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "its breakpoints");
	munmap(job.paths, bytes);
	return NULL;
}

void path_free(struct path *paths, unsigned count)
{
	if (paths)
		munmap(paths, paths_bytes(count) + PATH_WHY_MAX);
}
#endif
