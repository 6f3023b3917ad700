#!/bin/sh
# valgrind memcheck on programs running under the library: tests/hist_program
# in several modes with recording on, and tests/show_binding_now (with a
# dlopen'd library), for several variants; no memcheck error allowed
# (--error-exitcode=1).  SKIP (77) without valgrind.
#
# What actually runs: memcheck replaces memcpy & co. in libc.so* only (its
# default soname patterns), not in libmemshim.so, so the program's calls
# reach our resolvers and variants, run on memcheck's synthetic CPU (which
# hides AVX-512, so the CPU-dependent choices are memcheck's).  This is
# checked, not assumed: the recorded counts are exact (tests/hist_check.py),
# which only our recording wrappers produce, and show_binding_now prints
# that memcpy is bound to memshim_memcpy_<variant>.
#
# The library is preloaded by `env` inside valgrind with --trace-children=yes,
# so valgrind's own launcher (re-run at each exec) gets it too: the dump
# files are named with %e to tell them apart.
. "${top_srcdir:-.}/tests/lib.sh"
command -v valgrind >/dev/null 2>&1 || { echo "SKIP: valgrind not installed"; exit 77; }
program=$top_builddir/tests/hist_program
now=$top_builddir/tests/show_binding_now
copier=$top_builddir/tests/.libs/libcopier.so
check=${top_srcdir:-.}/tests/hist_check.py
dir=$scratch/dumps
mkdir "$dir"
limit=${T_MEMSHIM_TIMEOUT:-300}

memcheck() {
	timeout -k 5 "$limit" valgrind -q --error-exitcode=1 --trace-children=yes \
		--log-file="$scratch/vg.%p" env LD_PRELOAD="$MEMSHIM_LIBRARY" "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	out=$(cat "$scratch/out")
	vg=$(cat "$scratch"/vg.* 2>/dev/null)
	rm -f "$scratch"/vg.*
}

# make check: the default choice; make check-long (T_MEMSHIM_LONG=1): more.
variants=kernel binding_variants=scalar modes="signals:3000 exec:50"
[ -n "${T_MEMSHIM_LONG:-}" ] && variants="kernel scalar sse2 avx2_erms glibc" \
	binding_variants="kernel scalar avx2 movsq" modes="calls:200 threads:20 signals:3000 fork:50 exec:50"
for variant in $variants; do
	for mode in $modes; do
		mode=$(echo "$mode" | tr : ' ')
		rm -f "$dir"/*
		# shellcheck disable=SC2086
		memcheck MEMSHIM_IMPL=$variant MEMSHIM_DUMP="$dir/h.%e.%p" "$program" $mode
		what="memcheck, $variant, hist_program $mode"
		expect_eq "$what: no error [$(printf '%s' "$vg" | head -c 300)]" "$rc" 0
		n=${mode#* }
		case $mode in
		threads*) n=$((16 * n)) ;;
		esac
		extra=0
		[ "${mode%% *}" = signals ] && extra=$(awk '$1 == "handled" { print $2 }' "$scratch/out")
		pid=$(awk '$1 == "pid" { print $2; exit }' "$scratch/out")
		"$T_MEMSHIM_TOOL" report --json "$dir/h.hist_program.$pid" >"$scratch/json" 2>&1 &&
			detail=$(python3 "$check" "$scratch/json" "$n" "$extra") && pass "$what: exact counts: our wrappers ran" ||
			fail "$what: counts: $detail $(cat "$scratch/json" | head -c 200)"
	done
done
for variant in $binding_variants; do
	memcheck MEMSHIM_IMPL=$variant "$now" dlopen "$copier"
	expect_eq "memcheck, $variant, show_binding_now dlopen: no error" "$rc" 0
	expect_match "memcheck, $variant: memcpy is memshim's" "$(bound memcpy) $(bound dlopen-memcpy)" \
		'^memshim_memcpy_[a-z0-9_]+ memshim_memcpy_[a-z0-9_]+$'
done

finish
