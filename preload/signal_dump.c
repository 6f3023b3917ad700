/* Dumps on signals: before SIGTERM, SIGINT or SIGHUP ends a recording
 * process (a pool that stops its workers, systemd stopping a service,
 * Ctrl-C), and on MEMSHIM_DUMP_SIGNAL.
 *
 * The library's handler sits under whatever the program asks for: while
 * recording, sigaction, signal and their kin are exported stubs
 * (dispatch/export_stub.h) whose wrapper keeps the program's disposition
 * in a table and installs the library's handler in its place, with the
 * program's flags and mask, so that system calls restart or not as the
 * program asked.  The handler then runs the program's handler; or, when the
 * program left the signal to its default action, dumps and takes that
 * action.  A program that asks sees what it set, not the library's handler
 * (Python installs its KeyboardInterrupt handler only over SIG_DFL).  An
 * ignored signal is really ignored: SIG_IGN goes to the kernel as it is, so
 * that an exec'ed program inherits it.  Without recording, or with
 * MEMSHIM_DUMP_SIGNAL=none, the stubs jump straight to the C library's
 * functions.
 *
 * The table is read in the handler, which may interrupt a sigaction call
 * on the same thread: each change goes to a fresh slot of a small ring and
 * is then published with one atomic store, so a reader never sees half of
 * one, and nothing waits.
 *
 * Calls the C library makes itself (system(), posix_spawn(), sigset(),
 * sigignore()) do not come through here.  The wrapper notices: when the
 * kernel holds another handler than the library's, that is the truth and
 * is what a program that asks is told. */
#include "dispatch/config.h"
#include "dispatch/export_stub.h"
#include "dispatch/next_symbol.h"
#include "preload/hist_dump.h"
#include "preload/signal_dump.h"

#include <signal.h>

#define WATCHED_MAX 65 /* signal numbers 1..64 */
#define RING 4         /* slots per signal: a reader copies one in far less time than 3 changes take */

static int (*next_sigaction)(int, const struct sigaction *, struct sigaction *);
static __sighandler_t (*next_signal)(int, __sighandler_t);
static __sighandler_t (*next_sysv_signal)(int, __sighandler_t);

static bool watched[WATCHED_MAX];
static struct sigaction program_action[WATCHED_MAX][RING];
static unsigned program_slot[WATCHED_MAX]; /* the published slot */
static unsigned changes[WATCHED_MAX];

static void on_signal(int sig, siginfo_t *info, void *context);

/* No struct assignment: the compiler may make it a memcpy call, ours. */
static void copy_action(struct sigaction *to, const struct sigaction *from)
{
	const unsigned long *f = (const unsigned long *)from;
	unsigned long *t = (unsigned long *)to;
	for (unsigned i = 0; i < sizeof *to / sizeof *t; i++)
		t[i] = f[i];
}

static bool is_watched(int sig) { return sig > 0 && sig < WATCHED_MAX && watched[sig]; }

/* The kernel reads the handler's place alone, SA_SIGINFO or not. */
static bool is_ours(const struct sigaction *a) { return a->sa_sigaction == on_signal; }
static bool is_default(const struct sigaction *a) { return a->sa_handler == SIG_DFL; }
static bool is_ignored(const struct sigaction *a) { return a->sa_handler == SIG_IGN; }

static void read_program_action(int sig, struct sigaction *out)
{
	unsigned slot = __atomic_load_n(&program_slot[sig], __ATOMIC_ACQUIRE);
	copy_action(out, &program_action[sig][slot]);
}

static void publish_program_action(int sig, const struct sigaction *a)
{
	unsigned slot = __atomic_add_fetch(&changes[sig], 1, __ATOMIC_RELAXED) % RING;
	copy_action(&program_action[sig][slot], a);
	__atomic_store_n(&program_slot[sig], slot, __ATOMIC_RELEASE);
}

/* Gives the kernel the library's handler in place of `asked` (its flags and
 * mask, so that the program's system calls restart, or not, as it asked;
 * SA_RESETHAND is done by on_signal, which must stay), or `asked` itself
 * when it ignores the signal; then records `asked` as the program's. */
static int take_action(int sig, const struct sigaction *asked)
{
	struct sigaction real;
	copy_action(&real, asked);
	if (is_default(asked)) {
		/* the default action ends the process at once, or ignores the
		 * signal: nothing the program waits in may fail with EINTR */
		real.sa_flags = SA_RESTART;
		sigemptyset(&real.sa_mask);
	}
	if (!is_ignored(asked)) {
		real.sa_flags = (real.sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
		real.sa_sigaction = on_signal;
	}
	if (next_sigaction(sig, &real, NULL) != 0)
		return -1;
	publish_program_action(sig, asked);
	return 0;
}

/* sigaction, while recording. */
static int watching_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	/* A vfork child shares this table with its parent, which must not
	 * see the child's changes. */
	if (!is_watched(sig) || !hist_dump_own_process())
		return next_sigaction(sig, act, old);
	struct sigaction asked, now;
	if (act)
		copy_action(&asked, act); /* act may be old */
	if (next_sigaction(sig, NULL, &now) != 0)
		return -1;
	if (old) {
		if (is_ours(&now))
			read_program_action(sig, old);
		else
			copy_action(old, &now);
	}
	return act ? take_action(sig, &asked) : 0;
}

/* signal() and its kin, as glibc defines them, through watching_sigaction. */
static __sighandler_t set_handler(int sig, __sighandler_t handler, int flags,
                                  __sighandler_t (*next)(int, __sighandler_t))
{
	if (!is_watched(sig) || !hist_dump_own_process() || handler == SIG_ERR)
		return next(sig, handler);
	struct sigaction act, old;
	act.sa_handler = handler;
	act.sa_flags = flags;
	act.sa_restorer = NULL;
	sigemptyset(&act.sa_mask);
	if (!(flags & SA_NODEFER))
		sigaddset(&act.sa_mask, sig);
	if (watching_sigaction(sig, &act, &old) != 0)
		return SIG_ERR;
	return old.sa_handler;
}

/* signal, bsd_signal, ssignal: BSD semantics, system calls restart. */
static __sighandler_t watching_signal(int sig, __sighandler_t handler)
{
	return set_handler(sig, handler, SA_RESTART, next_signal);
}

/* sysv_signal: once, not masked, system calls interrupted. */
static __sighandler_t watching_sysv_signal(int sig, __sighandler_t handler)
{
	return set_handler(sig, handler, SA_RESETHAND | SA_NODEFER, next_sysv_signal);
}

/* The default action of these ends the process; that of the others a
 * dump can be asked with (USR1, USR2: the dump requests themselves, and
 * WINCH, URG) is nothing. */
static bool ends_process(int sig)
{
	return sig == SIGHUP || sig == SIGINT || sig == SIGQUIT || sig == SIGTERM || sig == SIGALRM ||
	       sig == SIGPROF || sig == SIGVTALRM || sig == SIGPWR;
}

static void default_action(struct sigaction *a)
{
	a->sa_handler = SIG_DFL;
	a->sa_flags = 0;
	a->sa_restorer = NULL;
	sigemptyset(&a->sa_mask);
}

static void on_signal(int sig, siginfo_t *info, void *context)
{
	struct sigaction program, dfl;
	read_program_action(sig, &program);
	default_action(&dfl);
	if (is_default(&program) && ends_process(sig)) {
		hist_dump_last("signal");
		/* The default action, now: the signal is blocked in this handler
		 * (installed without SA_NODEFER), so it ends the process as soon
		 * as we return. */
		next_sigaction(sig, &dfl, NULL);
		raise(sig);
		return;
	}
	if (sig == config_get()->hist_signal)
		hist_dump_now("signal");
	if (is_default(&program) || is_ignored(&program))
		return;
	if (program.sa_flags & SA_RESETHAND)
		publish_program_action(sig, &dfl);
	if (program.sa_flags & SA_SIGINFO)
		program.sa_sigaction(sig, info, context);
	else
		program.sa_handler(sig);
}

/* Whether the wrappers are on: recording, with signals to watch, and the C
 * library's sigaction found (the resolvers run in any order). */
static bool watching(void)
{
	const struct config *c = config_get();
	if (!c->hist_path[0] || (!c->hist_end_signals && !c->hist_signal))
		return false;
	if (!next_sigaction)
		next_sigaction = next_symbol("sigaction");
	return next_sigaction != NULL;
}

/* Watches sig from now on: the library's handler goes under what the
 * kernel holds, unless that is SIG_IGN (nohup, a shell's background job),
 * which stays as it is. */
static void watch(int sig)
{
	struct sigaction now;
	if (next_sigaction(sig, NULL, &now) != 0)
		return;
	watched[sig] = true;
	if (is_ignored(&now))
		publish_program_action(sig, &now);
	else
		take_action(sig, &now);
}

void signal_dump_start(void)
{
	const struct config *c = config_get();
	if (!watching())
		return; /* MEMSHIM_DUMP_SIGNAL=none */
	if (c->hist_end_signals) {
		watch(SIGTERM);
		watch(SIGINT);
		watch(SIGHUP);
	}
	if (c->hist_signal && !watched[c->hist_signal])
		watch(c->hist_signal);
}

/* ---- the exported names ---- */

static __typeof__(sigaction) *resolve_sigaction(void)
{
	return watching() ? watching_sigaction : next_symbol("sigaction");
}

static __typeof__(signal) *resolve_signal(void)
{
	next_signal = next_symbol("signal");
	return watching() && next_signal ? watching_signal : next_signal;
}

static __typeof__(sysv_signal) *resolve_sysv_signal(void)
{
	next_sysv_signal = next_symbol("sysv_signal");
	return watching() && next_sysv_signal ? watching_sysv_signal : next_sysv_signal;
}

extern __typeof__(sigaction) __sigaction;
extern __typeof__(signal) bsd_signal, ssignal;
extern __typeof__(sysv_signal) __sysv_signal;

MEMSHIM_EXPORT_STUB(sigaction, resolve_sigaction);
MEMSHIM_EXPORT_STUB(__sigaction, resolve_sigaction);
MEMSHIM_EXPORT_STUB(signal, resolve_signal);
MEMSHIM_EXPORT_STUB(bsd_signal, resolve_signal);
MEMSHIM_EXPORT_STUB(ssignal, resolve_signal);
MEMSHIM_EXPORT_STUB(sysv_signal, resolve_sysv_signal);
MEMSHIM_EXPORT_STUB(__sysv_signal, resolve_sysv_signal);
