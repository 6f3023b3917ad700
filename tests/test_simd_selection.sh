#!/bin/sh
# The vector variants and the kernel preset and the default, selected by
# MEMSHIM_IMPL, checked by what a -z now program's calls were bound to.
. "${top_srcdir:-.}/tests/lib.sh"
now=$top_builddir/tests/show_binding_now
lazy=$top_builddir/tests/show_binding_lazy
copier=$top_builddir/tests/.libs/libcopier.so

# The `usable` column of `memshim info` for a variant: usable or NOT.
usable() { "$T_MEMSHIM_TOOL" info | awk -v v="$1" '$1 == v && NF > 2 { print $2 }'; }
default=$(picked_by default memcpy)

# Every usable vector variant binds its own functions, in both binding modes.
for variant in sse2 avx2 avx512 evex sse2_erms avx2_erms avx512_erms avx2_xmm avx2_xmm_erms avx512_mask avx512_mask_erms avx512_mask64_erms evex_mask_erms; do
	if [ "$(usable $variant)" != usable ]; then
		skip "MEMSHIM_IMPL=$variant binds its own functions: this CPU cannot run $variant"
		continue
	fi
	for program in "$now" "$lazy"; do
		name=$(basename "$program")
		preloaded env MEMSHIM_IMPL=$variant "$program" dlopen "$copier"
		for f in memcpy mempcpy memmove memset bzero; do
			expect_eq "$name MEMSHIM_IMPL=$variant: $f" "$(bound $f)" "memshim_${f}_$variant"
		done
		expect_eq "$name MEMSHIM_IMPL=$variant: __memcpy_chk" "$(bound __memcpy_chk)" "memshim_memcpy_chk_$variant"
		expect_eq "$name MEMSHIM_IMPL=$variant: dlopen'ed memcpy" "$(bound dlopen-memcpy)" "memshim_memcpy_$variant"
		expect_eq "$name MEMSHIM_IMPL=$variant: nothing on stderr" "$err" ""
	done
done

# The presets: what they pick follows the CPU features memshim info shows.
kernel=$(picked_by kernel)
cpu=$("$T_MEMSHIM_TOOL" info)
if printf '%s\n' "$cpu" | grep -q 'FSRM yes'; then expected_kernel=fsrm
elif printf '%s\n' "$cpu" | grep -q 'ERMS yes'; then expected_kernel=erms
else expected_kernel=movsq; fi
expect_eq "kernel picks by FSRM, ERMS" "$kernel" "$expected_kernel"
# Where this CPU class has a shipped row, the default is its bands
# (tests/test_bands checks which row each CPU class gets); elsewhere
# glibc's own.  auto, the old name of the default, is read as it, with
# one line naming the new.
if printf '%s\n' "$cpu" | grep -q '^Shipped CPU row: none'; then
	expect_eq "the default is glibc's own without a row" "$default:$(picked_by default memset)" "glibc:glibc"
fi
preloaded env MEMSHIM_IMPL=auto "$now"
expect_eq "auto is read as the default, with one line naming it" "$(bound memcpy):$(bound memset):$err" \
	"$(binding_of memcpy "$default"):$(binding_of memset "$(picked_by default memset)"):memshim: MEMSHIM_IMPL=\"auto\" is an old name; using default"

for preset in kernel default; do
	picked=$(picked_by $preset)
	preloaded env MEMSHIM_IMPL=$preset MEMSHIM_VERBOSE=1 "$now" dlopen "$copier"
	for f in memcpy memmove memset; do
		expect_eq "MEMSHIM_IMPL=$preset binds $f" "$(bound $f)" "$(binding_of $f "$(picked_by $preset $f)")"
	done
	expect_eq "MEMSHIM_IMPL=$preset binds bzero" "$(bound bzero)" "$(binding_of bzero "$(picked_by $preset memset)")"
	case $picked in *,*) shown="up to [0-9]+ [KMG]?i?B: ${picked%%:*}" ;; *) shown=$picked ;; esac
	expect_match "MEMSHIM_IMPL=$preset: verbose line gives the preset's reason" "$err" \
		"^memshim: memcpy -> $shown.* \[MEMSHIM_IMPL=$preset: [^]]+\]"
done

# A per-function variable may name a preset too.
preloaded env MEMSHIM_IMPL=scalar MEMSHIM_MEMSET=kernel "$now"
expect_eq "MEMSHIM_MEMSET=kernel" "$(bound memset)" "$(binding_of memset "$(picked_by kernel memset)")"
expect_eq "memcpy keeps MEMSHIM_IMPL" "$(bound memcpy)" "memshim_memcpy_scalar"

# The thresholds of the vector variants, as MEMSHIM_VERBOSE shows them.
preloaded env MEMSHIM_VERBOSE=1 MEMSHIM_IMPL=sse2 MEMSHIM_MEMSET=sse2_erms MEMSHIM_NT_THRESHOLD=16M \
	MEMSHIM_STOSB_THRESHOLD=4K "$now"
expect_match "verbose sse2 line" "$err" '^memshim: memcpy -> sse2 \(non-temporal from 16777216 B\) \[MEMSHIM_IMPL\]'
if [ "$(usable sse2_erms)" = usable ]; then
	expect_match "verbose sse2_erms memset line" "$err" \
		'^memshim: memset -> sse2_erms \(rep stosb from 4096 B, non-temporal from 16777216 B\) \[MEMSHIM_MEMSET\]'
else
	skip "the verbose line of a *_erms variant's thresholds: this CPU lacks ERMS, which they need"
fi
preloaded env MEMSHIM_NT_THRESHOLD=lots "$now"
expect_match "a bad MEMSHIM_NT_THRESHOLD is reported" "$err" '^memshim: MEMSHIM_NT_THRESHOLD="lots" is not a number'

# A name that is no variant, or a variant this CPU cannot run: one warning, the default.
preloaded env MEMSHIM_IMPL=avx1024 "$now"
expect_eq "MEMSHIM_IMPL=avx1024: one warning line" "$(printf '%s\n' "$err" | wc -l)" 1
expect_match "MEMSHIM_IMPL=avx1024: the warning" "$err" \
	"^memshim: MEMSHIM_IMPL=\"avx1024\" is not a variant, band list or preset .*; using the default \\(memcpy $default, "
expect_eq "MEMSHIM_IMPL=avx1024: the default" "$(bound memcpy)" "$(binding_of memcpy "$default")"
# (Where the default is glibc, the slot points straight at the C library.)
unsupported=0
for variant in avx2 avx512 evex sse2_erms avx2_erms avx512_erms avx2_xmm avx2_xmm_erms avx512_mask avx512_mask_erms avx512_mask64_erms evex_mask_erms; do
	[ "$(usable $variant)" = NOT ] || continue
	unsupported=$((unsupported + 1))
	preloaded env MEMSHIM_IMPL=$variant "$now"
	expect_eq "MEMSHIM_IMPL=$variant (unsupported): one warning line" "$(printf '%s\n' "$err" | wc -l)" 1
	expect_match "MEMSHIM_IMPL=$variant (unsupported): the warning" "$err" \
		"^memshim: MEMSHIM_IMPL=\"$variant\" is not supported by this CPU"
	expect_eq "MEMSHIM_IMPL=$variant (unsupported): the default" "$(bound memcpy)" "$(binding_of memcpy "$default")"
done
[ $unsupported -gt 0 ] || skip "an unsupported MEMSHIM_IMPL falls back to the default: this CPU runs every variant"

# memshim run accepts presets and the new thresholds.
"$T_MEMSHIM_TOOL" run --impl auto -- "$now" >"$scratch/out" 2>"$scratch/err"
out=$(cat "$scratch/out")
expect_eq "memshim run --impl auto" "$(bound memcpy)" "$(binding_of memcpy "$default")"
# sse2, which every x86-64 runs, has the threshold (the default may be glibc's own).
"$T_MEMSHIM_TOOL" run --impl sse2 --nt-threshold 1G --verbose -- "$now" >"$scratch/out" 2>"$scratch/err"
expect_match "memshim run --nt-threshold" "$(cat "$scratch/err")" 'memcpy -> sse2 \(non-temporal from 1073741824 B\)'

finish
