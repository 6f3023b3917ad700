#!/bin/sh
# Variant selection by CPU and environment, checked by what the calls of a
# -z now program, a lazily bound one and a dlopen'ed library were bound to.
. "${top_srcdir:-.}/tests/lib.sh"
now=$top_builddir/tests/show_binding_now
lazy=$top_builddir/tests/show_binding_lazy
copier=$top_builddir/tests/.libs/libcopier.so

default=$(picked_by default memcpy)
expect_match "memshim info names a default variant or bands" "$default" '^[a-z0-9_]+(:[0-9]+[KMG]?,[a-z0-9_]+)*$'

preloaded "$now"
expect_eq "-z now, no environment: memcpy" "$(bound memcpy)" "$(binding_of memcpy "$default")"
expect_eq "-z now, no environment: nothing on stderr" "$err" ""

for variant in fsrm erms scalar movsq; do
	for program in "$now" "$lazy"; do
		name=$(basename "$program")
		preloaded env MEMSHIM_IMPL=$variant "$program" dlopen "$copier"
		expect_eq "$name MEMSHIM_IMPL=$variant: memcpy" "$(bound memcpy)" "memshim_memcpy_$variant"
		expect_eq "$name MEMSHIM_IMPL=$variant: mempcpy" "$(bound mempcpy)" "memshim_mempcpy_$variant"
		expect_eq "$name MEMSHIM_IMPL=$variant: __memcpy_chk" "$(bound __memcpy_chk)" "memshim_memcpy_chk_$variant"
		expect_eq "$name MEMSHIM_IMPL=$variant: memmove" "$(bound memmove)" "memshim_memmove_$variant"
		expect_eq "$name MEMSHIM_IMPL=$variant: memset" "$(bound memset)" "memshim_memset_$variant"
		expect_eq "$name MEMSHIM_IMPL=$variant: bzero" "$(bound bzero)" "memshim_bzero_$variant"
		expect_eq "$name MEMSHIM_IMPL=$variant: dlopen'ed memcpy" "$(bound dlopen-memcpy)" "memshim_memcpy_$variant"
		expect_eq "$name MEMSHIM_IMPL=$variant: dlopen'ed memset" "$(bound dlopen-memset)" "memshim_memset_$variant"
	done
done

preloaded env MEMSHIM_IMPL=glibc "$now"
expect_eq "MEMSHIM_IMPL=glibc binds memcpy to the C library" "$(bound memcpy)" "libc"
expect_eq "MEMSHIM_IMPL=glibc binds memset to the C library" "$(bound memset)" "libc"

# One function overridden, the others from MEMSHIM_IMPL.
preloaded env MEMSHIM_IMPL=scalar MEMSHIM_MEMCPY=erms MEMSHIM_MEMSET=movsq "$now" dlopen "$copier"
expect_eq "MEMSHIM_MEMCPY=erms beats MEMSHIM_IMPL" "$(bound memcpy)" "memshim_memcpy_erms"
expect_eq "mempcpy follows MEMSHIM_MEMCPY" "$(bound mempcpy)" "memshim_mempcpy_erms"
expect_eq "memmove keeps MEMSHIM_IMPL" "$(bound memmove)" "memshim_memmove_scalar"
expect_eq "MEMSHIM_MEMSET=movsq" "$(bound memset)" "memshim_memset_movsq"
expect_eq "dlopen'ed library follows MEMSHIM_MEMSET" "$(bound dlopen-memset)" "memshim_memset_movsq"
preloaded env MEMSHIM_MEMMOVE=glibc "$lazy"
expect_eq "MEMSHIM_MEMMOVE=glibc alone" "$(bound memmove)" "libc"
expect_eq "memcpy stays on the default" "$(bound memcpy)" "$(binding_of memcpy "$default")"

# memshim bench --stub times the exported memcpy against the very function
# its slot jumps to: MEMSHIM_MEMCPY's variant.
env MEMSHIM_MEMCPY=scalar MEMSHIM_LIBRARY="$MEMSHIM_LIBRARY" "$T_MEMSHIM_TOOL" bench --stub --rounds 3 >"$scratch/out" 2>&1
expect_match "bench --stub: the exported memcpy jumps to MEMSHIM_MEMCPY's variant" "$?:$(head -n 1 "$scratch/out")" \
	'^0:memcpy through the exported stub against memshim_memcpy_scalar '
env MEMSHIM_MEMCPY=movsq MEMSHIM_LIBRARY="$MEMSHIM_LIBRARY" "$T_MEMSHIM_TOOL" bench --stub --rounds 3 >"$scratch/out" 2>&1
expect_match "bench --stub: and to another when that one is asked" "$?:$(head -n 1 "$scratch/out")" \
	'^0:memcpy through the exported stub against memshim_memcpy_movsq '

# MEMSHIM_VERBOSE: one line per function, with the reason, and one for the thresholds.
preloaded env MEMSHIM_VERBOSE=1 MEMSHIM_IMPL=erms MEMSHIM_MOVSB_THRESHOLD=4K MEMSHIM_MEMSET=scalar "$now"
expect_eq "MEMSHIM_VERBOSE prints four lines" "$(printf '%s\n' "$err" | wc -l)" 4
expect_match "verbose memcpy line" "$err" '^memshim: memcpy -> erms \(rep movsb from 4096 B\) \[MEMSHIM_IMPL\]'
expect_match "verbose memset line" "$err" '^memshim: memset -> scalar \[MEMSHIM_MEMSET\]'

# memshim run: sets the variables and keeps an LD_PRELOAD already there.
LD_PRELOAD=$copier "$T_MEMSHIM_TOOL" run --impl movsq -- "$now" preload >"$scratch/out" 2>"$scratch/err"
out=$(cat "$scratch/out")
expect_eq "memshim run --impl movsq" "$(bound memcpy)" "memshim_memcpy_movsq"
expect_match "memshim run keeps the old LD_PRELOAD, adds only ours, last" "$(bound LD_PRELOAD)" "^[^:]*libcopier\.so:[^:]*libmemshim\.so$"
MEMSHIM_VERBOSE=0 "$T_MEMSHIM_TOOL" run --erms-threshold 64K --impl erms --verbose -- "$now" >/dev/null 2>"$scratch/err"
expect_match "memshim run --erms-threshold" "$(cat "$scratch/err")" 'rep movsb from 65536 B'

finish
