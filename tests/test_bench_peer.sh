#!/bin/sh
# memshim bench --peer: another library's functions timed beside the
# variants, each only in the cases of the functions it defines itself (not
# the C library's, which dlsym would find through the peer's dependencies),
# and a bad --peer refused with one line.  Checks shape, never a timing.
. "${top_srcdir:-.}/tests/lib.sh"
MEMSHIM_DISTRIBUTIONS=${top_srcdir:-.}/data/distributions
export MEMSHIM_DISTRIBUTIONS
bench() { "$T_MEMSHIM_TOOL" bench "$@" >"$scratch/out" 2>"$scratch/err"; rc=$?; }

# Byte loops, unoptimised (-O0, -fno-builtin), so that no compiler turns
# them into calls to the very functions they define.
cat >"$scratch/loops.c" <<'EOF'
#include <stddef.h>
void *memcpy(void *d, const void *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((char *)d)[i] = ((const char *)s)[i];
	return d;
}
void *memmove(void *d, const void *s, size_t n)
{
	if ((char *)d < (const char *)s)
		return memcpy(d, s, n);
	while (n--)
		((char *)d)[n] = ((const char *)s)[n];
	return d;
}
void *memset(void *d, int c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((char *)d)[i] = (char)c;
	return d;
}
EOF
# memcpy alone, linked to the C library, which has the other two.
sed -n '1,7p' "$scratch/loops.c" >"$scratch/half.c"
# memset alone, under a prefix.
sed -n '1p;/^void \*memset/,$p' "$scratch/loops.c" | sed 's/^void \*memset/void *p_memset/' >"$scratch/pre.c"
for peer in loops half pre; do
	if ! $CC -O0 -fno-builtin -shared -fPIC -Wl,--no-as-needed \
		-o "$scratch/lib$peer.so" "$scratch/$peer.c" -lc 2>"$scratch/err"; then
		fail "building the $peer peer: $(cat "$scratch/err")"
		finish
		exit 1
	fi
done

bench --rounds 3 --functions memcpy,memset --variants scalar --cases sweep --sizes 64 \
	--peer loops="$scratch/libloops.so" --peer half="$scratch/libhalf.so" --peer pre="$scratch/libpre.so:p_" \
	--csv "$scratch/b.csv"
expect_eq "bench --peer runs" "$rc" 0
expect_eq "bench --peer writes nothing on stderr" "$(cat "$scratch/err")" ""
expect_match "the header names each peer and what it has" "$(cat "$scratch/out")" \
	"^peer: +loops = $scratch/libloops.so \(memcpy, memmove, memset\)$"
expect_match "a peer's functions are its own, not the C library's" "$(cat "$scratch/out")" \
	"^peer: +half = $scratch/libhalf.so \(memcpy\)$"
expect_match "a prefix names the symbols" "$(cat "$scratch/out")" "^peer: +pre = $scratch/libpre.so \(memset\)$"
# Size 64, L1 and cold: two lines per function and column.
lines_of() { awk -F, -v f="$1" -v v="$2" '$1 == f && $2 == v' "$scratch/b.csv" | wc -l; }
for peer in loops half pre; do
	expect_eq "CSV: $peer's memcpy and memset lines" "$(lines_of memcpy $peer) $(lines_of memset $peer)" \
		"$(case $peer in loops) echo 2 2 ;; half) echo 2 0 ;; pre) echo 0 2 ;; esac)"
done
expect_eq "CSV: every line has 25 fields and a positive median" \
	"$(awk -F, 'NR > 1 && (NF != 25 || !($7 > 0))' "$scratch/b.csv" | wc -l)" 0
heading() { awk -v f="$1:" '$1 == f { getline; print; exit }' "$scratch/out"; }
expect_match "the memcpy table has loops and half, and their ratios" "$(heading memcpy)" \
	'^size +glibc +A/A +scalar +loops +half$'
expect_match "the memset table has loops and pre, not half" "$(heading memset)" \
	'^size +glibc +A/A +scalar +loops +pre$'

# Bad --peer values: status 2, one line on stderr, nothing run.
printf 'not an ELF file\n' >"$scratch/text.so"
lib=$scratch/libloops.so
for args in "--peer $scratch/libloops.so" "--peer =$lib" "--peer x=" "--peer a/b=$lib" \
	"--peer longer-than-fifteen=$lib" "--peer x=$scratch/missing.so" "--peer x=$scratch/text.so" \
	"--peer x=$scratch/libpre.so" "--peer x=$lib:no_such_" "--peer x=$lib:bad/prefix" "--peer glibc=$lib" \
	"--peer x=$lib --peer x=$lib" "--peer a=$lib --peer b=$lib --peer c=$lib --peer d=$lib --peer e=$lib" \
	"--stub --peer x=$lib"; do
	bench --rounds 3 --functions memcpy --variants scalar --cases sweep --sizes 64 $args
	expect_eq "bench $args: exit status" "$rc" 2
	expect_eq "bench $args: one line on stderr" "$(wc -l <"$scratch/err")" 1
	expect_eq "bench $args: nothing on stdout" "$(cat "$scratch/out")" ""
done
bench --help
expect_match "bench --help tells of --peer" "$(cat "$scratch/out")" '^  --peer NAME=PATH\[:PREFIX\]$'

finish
