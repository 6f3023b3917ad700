#!/bin/sh
# memshim.h: a C and a C++ program that include it compile without warnings,
# link against the library, call variants directly and get right results;
# and the header declares exactly the memshim_* functions the library
# exports, so that neither can drift from the other.
. "${top_srcdir:-.}/tests/lib.sh"
header_dir=$top_srcdir/shim
libdir=$(dirname "$MEMSHIM_LIBRARY")
CXX=${CXX:-g++}

cat >"$scratch/use.c" <<'C'
#include <memshim.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	char src[100], dst[100], set[100];
	for (int i = 0; i < 100; i++)
		src[i] = (char)i;
	int usable = -1;
	for (unsigned i = 0; memshim_variant_name(i); i++)
		if (strcmp(memshim_variant_name(i), "scalar") == 0)
			usable = memshim_variant_usable(i);
	char *end = memshim_mempcpy_scalar(dst, src, sizeof dst);
	memshim_memset_chk_scalar(set, 5, sizeof set, sizeof set);
	memshim_memmove_scalar(src + 1, src, 50);
	int ok = end == dst + sizeof dst && memcmp(dst + 51, src + 51, 49) == 0 && dst[99] == 99 && set[0] == 5 &&
	         set[99] == 5 && src[1] == 0 && src[50] == 49 && usable == 1;
	/* Every threshold at one byte: the sse2 variants then leave their loops for
	 * rep movsb / rep stosb and non-temporal stores, and still copy right. */
	static char big_src[8192], big_dst[8192], big_set[8192];
	for (int i = 0; i < 8192; i++)
		big_src[i] = (char)(i * 7);
	struct memshim_threshold_values one = { 1, 1, 1, 0, 0 };
	memshim_measure_thresholds(&one);
	memshim_memcpy_sse2(big_dst, big_src, 5000);
	memshim_memset_sse2_erms(big_set, 9, 6000);
	ok = ok && memcmp(big_dst, big_src, 5000) == 0 && big_dst[5000] == 0 && big_set[5999] == 9 && big_set[6000] == 0;
	/* they read back as set, and NULL gives back the start-up ones */
	struct memshim_threshold_values t, start;
	struct memshim_threshold_values some = { 11, 12, 16448, 13, 0 };
	memshim_measure_thresholds(NULL);
	memshim_get_threshold_values(&start);
	memshim_measure_thresholds(&some);
	memshim_get_threshold_values(&t);
	ok = ok && t.movsb == 11 && t.stosb == 12 && t.nt == 16448 && t.movsb_stop == 13;
	memshim_measure_thresholds(NULL);
	memshim_get_threshold_values(&t);
	ok = ok && t.movsb == start.movsb && t.stosb == start.stosb && t.nt == start.nt && t.movsb != 11;
	printf("%s\n", ok ? "right" : "wrong");
	return !ok;
}
C
# -fno-builtin: the calls must reach the library, not be worked out by the compiler.
flags="-Wall -Wextra -Werror -fno-builtin -I$header_dir -L$libdir -Wl,-rpath,$libdir"

# shellcheck disable=SC2086
if $CC -std=c11 -pedantic $flags -o "$scratch/use_c" "$scratch/use.c" -lmemshim 2>"$scratch/err"; then
	pass "a C program with memshim.h compiles (-std=c11 -pedantic -Wall -Wextra -Werror)"
	expect_eq "the C program gets right results" "$("$scratch/use_c")" right
else
	fail "a C program with memshim.h does not compile: $(cat "$scratch/err")"
fi

if command -v "$CXX" >/dev/null; then
	cp "$scratch/use.c" "$scratch/use.cc"
	# C++ wants the casts from void * that C does without
	sed -i 's/char \*end = memshim_mempcpy_scalar(/char *end = (char *)memshim_mempcpy_scalar(/' "$scratch/use.cc"
	# shellcheck disable=SC2086
	if $CXX -std=c++11 -pedantic $flags -o "$scratch/use_cc" "$scratch/use.cc" -lmemshim 2>"$scratch/err"; then
		pass "a C++ program with memshim.h compiles (-std=c++11 -pedantic -Wall -Wextra -Werror)"
		expect_eq "the C++ program gets right results" "$("$scratch/use_cc")" right
		expect_match "the C++ program links the C names (extern \"C\")" \
			"$(nm -u "$scratch/use_cc")" ' U memshim_mempcpy_scalar$'
	else
		fail "a C++ program with memshim.h does not compile: $(cat "$scratch/err")"
	fi
else
	skip "C++: no C++ compiler ($CXX)"
fi

# The header's declarations against the library's exports.
declared=$($CC -E -P "$header_dir/memshim.h" | grep -o 'memshim_[a-z0-9_]* *(' | tr -d ' (' | sort)
exported=$(nm -D --defined-only "$MEMSHIM_LIBRARY" | awk '$3 ~ /^memshim_/ { print $3 }' | sort)
expect_eq "memshim.h declares every exported memshim_* function, and no other" \
	"$(printf '%s\n' "$declared" | wc -l):$(printf '%s\n' "$declared" | md5sum)" \
	"$(printf '%s\n' "$exported" | wc -l):$(printf '%s\n' "$exported" | md5sum)"
if [ "$declared" != "$exported" ]; then
	echo "declared, not exported:"
	printf '%s\n' "$declared" | grep -vxF "$exported"
	echo "exported, not declared:"
	printf '%s\n' "$exported" | grep -vxF "$declared"
fi
# Besides them, only the names the library interposes on: the string
# functions, and the exec, exit, signal and prctl calls the recording wraps
# (no linker-made section bounds, no helper of ours).
interposed="_Exit __explicit_bzero_chk __memcpy_chk __memmove_chk __mempcpy __mempcpy_chk __memset_chk __sigaction
__sysv_signal _exit bcopy bsd_signal bzero execl execle execlp execv execve execveat execvp execvpe explicit_bzero
fexecve memcpy memmove mempcpy memset prctl sigaction signal ssignal sysv_signal"
expect_eq "no other name exported" \
	"$(nm -D --defined-only "$MEMSHIM_LIBRARY" | awk '$3 !~ /^memshim_/ { print $3 }' | sort | tr '\n' ' ')" \
	"$(printf '%s\n' $interposed | sort | tr '\n' ' ')"
# Every variant in the list (shim/memshim_variants.h) exports its twelve
# entry points; the other four are memshim_variant_name, _usable,
# memshim_measure_thresholds and memshim_get_threshold_values.
variants=$(grep -c '^MEMSHIM_VARIANT(' "$header_dir/memshim_variants.h")
expect_eq "the $variants variants of the list x 12 functions, and 4 more" "$(printf '%s\n' "$exported" | wc -l)" \
	$((variants * 12 + 4))
expect_eq "memshim info shows every variant of the list" "$variants" \
	"$("$T_MEMSHIM_TOOL" info | awk '/^Variants/ { on = 1; next } on && /^  [a-z0-9_]+ +(usable|NOT usable) / { n++ } END { print n + 0 }')"
finish
