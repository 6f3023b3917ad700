#!/bin/sh
# Call sites as memshim report names them: C++ functions demangled (the C++
# runtime's demangler), and two call sites in one function told apart, by
# file:line with debug information and by offset in the function without.
. "${top_srcdir:-.}/tests/lib.sh"
tool=$T_MEMSHIM_TOOL
CXX=${CXX:-g++}
if ! have_config HAVE_LIBUNWIND || ! have_config HAVE_LIBDW; then
	echo "SKIP: call sites need libunwind and libdw"
	exit 77
fi

# Two memcpy calls in one C++ function, of 1000 B and of 3000 B.
cat >"$scratch/shop.cc" <<'CC'
#include <cstdlib>
#include <cstring>
namespace shop {
struct Shelf {
	char front[4096], back[4096];
};
__attribute__((noinline)) void restock(Shelf *s, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		std::memcpy(s->front, s->back, 1000);
		std::memcpy(s->back, s->front, 3000);
	}
}
}
int main(int argc, char **argv)
{
	shop::Shelf *s = new shop::Shelf();
	shop::restock(s, argc > 1 ? std::atoi(argv[1]) : 100);
	return s->front[0];
}
CC
# site NAME: the first frame of the call site of mean size SIZE in the text report
site() { sed -n "/^top call sites by bytes/,/^\$/p" "$scratch/$1.txt" | awk -v size="$2" '
	$1 ~ /%$/ && $0 ~ ("  " size "  memcpy ") { sub(/.*  memcpy +/, ""); print; exit }'; }
for build in plain debug; do
	flags="-O1 -fno-builtin -fno-inline"
	[ "$build" = debug ] && flags="$flags -g"
	# shellcheck disable=SC2086
	if ! $CXX $flags -o "$scratch/shop-$build" "$scratch/shop.cc" 2>"$scratch/err"; then
		fail "building the C++ program: $(cat "$scratch/err")"
		continue
	fi
	preloaded env MEMSHIM_DUMP="$scratch/$build.dump" MEMSHIM_CALLSITES=1 "$scratch/shop-$build" 50
	"$tool" report "$scratch/$build.dump" >"$scratch/$build.txt" 2>"$scratch/err"
	expect_eq "$build: report runs" "$?:$(cat "$scratch/err")" "0:"
	small=$(site "$build" "1000 B") large=$(site "$build" "2.9 KiB")
	expect_match "$build: the C++ function is demangled" "$small" '^shop::restock\(shop::Shelf\*, int\)'
	expect_eq "$build: no mangled name left in the report" "$(grep -c '_ZN4shop' "$scratch/$build.txt")" 0
	if [ "$build" = debug ]; then
		expect_match "debug: a site is told by its file:line" "$small" \
			'^shop::restock\(shop::Shelf\*, int\) \(shop\.cc:[0-9]+, shop-debug\)$'
	else
		expect_match "plain: a site is told by its offset in the function" "$small" \
			'^shop::restock\(shop::Shelf\*, int\)\+0x[0-9a-f]+ \(shop-plain\)$'
	fi
	[ -n "$small" ] && [ -n "$large" ] && [ "$small" != "$large" ] &&
		pass "$build: two call sites in one function print as two lines: [$small] [$large]" ||
		fail "$build: two call sites in one function: [$small] [$large]"
	"$tool" report --json "$scratch/$build.dump" >"$scratch/$build.json"
	expect_match "$build: JSON carries the demangled name" "$(cat "$scratch/$build.json")" \
		'"function": "shop::restock\(shop::Shelf\*, int\)"'
	"$tool" report --folded "$scratch/$build.dump" >"$scratch/$build.folded"
	expect_match "$build: folded stacks keep the name's space (they split at the last one)" \
		"$(cat "$scratch/$build.folded")" ';shop::restock\(shop::Shelf\*, int\);memcpy [0-9]+$'
done

finish
