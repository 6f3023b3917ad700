/* The initial stack, as the kernel lays it out for a new program (System V
 * x86-64 ABI, 3.4.1): argc, argv[0..argc-1], NULL, envp[...], NULL, then the
 * auxiliary vector of (type, value) pairs ending with AT_NULL. */
#include "dispatch/early_env.h"

#include "dispatch/raw_syscall.h"

#include <elf.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/syscall.h>

/* Set by the dynamic linker before it relocates anything: it points at argc.
 * But a program with a copy relocation of it (Debian's node has one) holds
 * the copy our reference binds to, and that copy is 0 until the program
 * itself is relocated, after its libraries' resolvers have run. */
extern void *__libc_stack_end;

/* The 28th field of /proc/self/stat, startstack: where the kernel left the
 * initial stack pointer, at argc; NULL if it cannot be read. */
static long *proc_start_stack(void)
{
	char buf[1024];
	long fd = raw_syscall3(SYS_open, (long)"/proc/self/stat", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return NULL;
	long n = raw_syscall3(SYS_read, fd, (long)buf, sizeof buf - 1);
	raw_syscall3(SYS_close, fd, 0, 0);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	/* the fields after the command's name, which may hold spaces and ')' */
	const char *p = buf + n;
	while (p > buf && *p != ')')
		p--;
	for (int field = 2; *p && field < 28; p++)
		field += *p == ' ';
	unsigned long value = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		value = value * 10 + (unsigned long)(*p - '0');
	return (long *)value;
}

/* argc 0, no arguments, no environment, an empty auxiliary vector: what a
 * process whose initial stack cannot be found is taken to have. */
static long nothing_known[] = { 0, 0, 0, AT_NULL, 0 };

static long *initial_stack(void)
{
	static long *from_proc;
	if (__libc_stack_end)
		return __libc_stack_end;
	if (!from_proc)
		from_proc = proc_start_stack();
	return from_proc ? from_proc : nothing_known;
}

static char **initial_argv(long *argc)
{
	long *stack = initial_stack();
	*argc = stack[0];
	return (char **)(stack + 1);
}

char *const *early_environ(void)
{
	long argc;
	char **argv = initial_argv(&argc);
	return argv + argc + 1;
}

static const char *value_if_named(const char *entry, const char *name)
{
	for (; *name; entry++, name++)
		if (*entry != *name)
			return NULL;
	return *entry == '=' ? entry + 1 : NULL;
}

const char *early_getenv(const char *name)
{
	for (char *const *env = early_environ(); *env; env++) {
		const char *value = value_if_named(*env, name);
		if (value)
			return value;
	}
	return NULL;
}

/* Set-user-ID or set-group-ID, asked of the kernel: a second opinion that
 * needs no parsing of the initial stack. */
static bool ids_differ(void)
{
	return raw_syscall3(SYS_getuid, 0, 0, 0) != raw_syscall3(SYS_geteuid, 0, 0, 0) ||
	       raw_syscall3(SYS_getgid, 0, 0, 0) != raw_syscall3(SYS_getegid, 0, 0, 0);
}

bool early_secure_mode(void)
{
	if (ids_differ())
		return true;
	if (initial_stack() == nothing_known)
		return false; /* no environment read, nothing to distrust */
	char *const *env = early_environ();
	while (*env)
		env++;
	/* In secure mode the dynamic linker removes unsafe variables
	 * (LD_PRELOAD among them) by moving the later entries down in place:
	 * each removal leaves one more NULL before the auxiliary vector, which
	 * would read as an empty one.  The vector never starts with AT_NULL. */
	while (*env == NULL && env[1] == NULL)
		env++;
	for (const Elf64_auxv_t *aux = (const Elf64_auxv_t *)(env + 1); aux->a_type != AT_NULL; aux++)
		if (aux->a_type == AT_SECURE)
			return aux->a_un.a_val != 0;
	return false;
}

const char *early_program_name(void)
{
	long argc;
	char **argv = initial_argv(&argc);
	if (argc < 1 || !argv[0])
		return "";
	const char *base = argv[0];
	for (const char *p = argv[0]; *p; p++)
		if (*p == '/')
			base = p + 1;
	return base;
}

bool same_string(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	return *a == *b;
}
