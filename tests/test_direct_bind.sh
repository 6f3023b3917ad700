#!/bin/sh
# Direct binding (preload/direct_bind.c): after start-up the PLT slots of a
# program's string functions that have one band hold that band's function
# itself, in a -z now program (read-only after relocation) and a lazily
# bound one.  Functions with several bands, MEMSHIM_BIND=stub and libraries
# loaded later keep memshim's stub.
. "${top_srcdir:-.}/tests/lib.sh"
now=$top_builddir/tests/show_binding_now
lazy=$top_builddir/tests/show_binding_lazy
copier=$top_builddir/tests/.libs/libcopier.so

slot() { printf '%s\n' "$out" | awk -v f="$1" '$1 == "slot" && $2 == f { print $3 }'; }

for program in "$now" "$lazy"; do
	name=$(basename "$program")
	preloaded env MEMSHIM_IMPL=sse2 "$program" dlopen "$copier"
	for f in memcpy mempcpy __memcpy_chk memmove memset bzero; do
		expect_eq "$name one band: the $f slot holds the variant" "$(slot "$f")" direct
	done
	expect_eq "$name one band: memcpy reaches sse2" "$(bound memcpy)" memshim_memcpy_sse2
	expect_eq "$name one band: bzero reaches sse2" "$(bound bzero)" memshim_bzero_sse2
	expect_eq "$name: a library loaded later keeps the stub" \
		"$(printf '%s\n' "$out" | awk '$1 == "dlopen-slot" { print $3 }')" stub
	expect_eq "$name: and reaches the variant through it" "$(bound dlopen-memcpy)" memshim_memcpy_sse2
	expect_eq "$name: nothing on stderr" "$err" ""

	preloaded env MEMSHIM_IMPL=glibc "$program"
	expect_eq "$name glibc: the memcpy slot holds the C library's own" "$(slot memcpy):$(bound memcpy)" direct:libc

	preloaded env MEMSHIM_IMPL=sse2 MEMSHIM_MEMCPY=glibc:256,sse2 "$program"
	expect_eq "$name two bands: the memcpy slot keeps the stub" "$(slot memcpy)" stub
	expect_eq "$name two bands: mempcpy follows memcpy" "$(slot mempcpy)" stub
	expect_eq "$name two bands: memmove, one band, is direct" "$(slot memmove)" direct

	preloaded env MEMSHIM_IMPL=sse2 MEMSHIM_BIND=stub "$program"
	expect_eq "$name MEMSHIM_BIND=stub: every slot keeps the stub" \
		"$(printf '%s\n' "$out" | awk '$1 == "slot" { print $3 }' | sort -u)" stub
	expect_eq "$name MEMSHIM_BIND=stub: calls still reach sse2" "$(bound memset)" memshim_memset_sse2

	preloaded env MEMSHIM_IMPL=sse2 MEMSHIM_DUMP="$scratch/h.%p" "$program"
	expect_eq "$name recording: the memcpy slot holds the recording wrapper" "$(slot memcpy)" direct
	expect_match "$name recording: a dump was written" "$(ls "$scratch")" '^h\.[0-9]+'
	rm -f "$scratch"/h.*
done

# A library loaded at start-up (here preloaded after memshim) is bound
# directly too; dlopen then finds it loaded.
LD_PRELOAD="$MEMSHIM_LIBRARY $copier" MEMSHIM_IMPL=sse2 "$now" dlopen "$copier" >"$scratch/out" 2>"$scratch/err"
out=$(cat "$scratch/out")
expect_eq "a library loaded at start-up: its slot holds the variant" \
	"$(printf '%s\n' "$out" | awk '$1 == "dlopen-slot" { print $3 }'):$(bound dlopen-memcpy)" direct:memshim_memcpy_sse2

# A program that defines memcpy itself (and exports it) keeps its own: the
# start-up library's slot, bound to the program's, is not rewritten.
cat >"$scratch/own.c" <<'EOF'
#include <dlfcn.h>
#include <stddef.h>
void *memcpy(void *d, const void *s, size_t n)
{
	volatile char *to = d;
	const volatile char *from = s;
	while (n--)
		*to++ = *from++;
	return d;
}
int main(int argc, char **argv)
{
	void *lib = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
	void (*report)(void) = lib ? (void (*)(void))dlsym(lib, "copier_report") : NULL;
	if (!report)
		return 1;
	report();
	return 0;
}
EOF
if ${CC:-cc} -O1 -fno-builtin -rdynamic -o "$scratch/own" "$scratch/own.c" -ldl 2>/dev/null; then
	LD_PRELOAD="$MEMSHIM_LIBRARY $copier" MEMSHIM_IMPL=sse2 "$scratch/own" "$copier" >"$scratch/out" 2>"$scratch/err"
	out=$(cat "$scratch/out")
	expect_eq "a program's own memcpy: a start-up library's calls stay bound to it" "$(bound dlopen-memcpy)" "$scratch/own"
	expect_eq "and memmove, which it does not define, is bound directly" \
		"$(bound dlopen-memmove)" memshim_memmove_sse2
else
	skip "a program's own memcpy: no C compiler"
fi

# LD_BIND_NOT: the dynamic linker leaves lazy slots unbound, and so does
# direct binding; a -z now program's slots are bound all the same.
preloaded env LD_BIND_NOT=1 MEMSHIM_IMPL=sse2 "$lazy"
expect_eq "LD_BIND_NOT: a lazy slot stays unbound" "$(slot memcpy)" unbound
preloaded env LD_BIND_NOT=1 MEMSHIM_IMPL=sse2 "$now"
expect_eq "LD_BIND_NOT: a -z now slot is bound directly" "$(slot memcpy)" direct

# memshim info says which functions are bound directly.
info=$(MEMSHIM_IMPL=sse2 MEMSHIM_MEMCPY=glibc:1K,sse2 "$T_MEMSHIM_TOOL" info)
expect_match "info: which functions are bound directly, which through the stub" "$info" \
	'^  binding: direct for memmove, memset; through the stub, which picks the band, for memcpy$'
info=$(MEMSHIM_BIND=stub "$T_MEMSHIM_TOOL" info)
expect_match "info: MEMSHIM_BIND=stub" "$info" '^  binding: stub \[MEMSHIM_BIND\]'

preloaded env MEMSHIM_IMPL=sse2 MEMSHIM_BIND=sometimes "$now"
expect_eq "MEMSHIM_BIND=sometimes: one message, and the default" "$err" \
	'memshim: MEMSHIM_BIND="sometimes" is not direct or stub; using direct'
expect_eq "MEMSHIM_BIND=sometimes: bound directly" "$(slot memcpy)" direct

finish
