#!/bin/sh
# memshim info shows glibc's own choice: the implementation its ifunc
# resolvers pick for memcpy, memmove and memset (named from the C library's
# symbols or its debug file), and the thresholds its dynamic linker reports,
# which must be the numbers `ld.so --list-diagnostics` prints, and follow
# GLIBC_TUNABLES as glibc does.
. "${top_srcdir:-.}/tests/lib.sh"
tool=$T_MEMSHIM_TOOL
linker=$(readelf -lW "$tool" | sed -n 's/.*\[Requesting program interpreter: \(.*\)\]/\1/p')
[ -x "$linker" ] || { echo "skip: no dynamic linker found for $tool"; exit 77; }

# glibc_section ENV...: the lines of memshim info from "glibc" on, into $section.
glibc_section() {
	env "$@" "$tool" info >"$scratch/out" 2>"$scratch/err"
	rc=$?
	section=$(sed -n '/^glibc .* own choice here/,$p' "$scratch/out")
}
# diagnostic KEY ENV...: ld.so's own value for x86.cpu_features.KEY, in decimal.
diagnostic() {
	key=$1
	shift
	printf '%d' "$(env "$@" "$linker" --list-diagnostics | sed -n "s/^x86\.cpu_features\.$key=//p")"
}
# implementation FN: what the section says FN resolves to.
implementation() { printf '%s\n' "$section" | awk -v f="$1" '$1 == f { print $2 }'; }

glibc_section
expect_eq "memshim info: status, nothing on stderr" "$rc:$(cat "$scratch/err")" "0:"
expect_match "memshim info: the glibc section, with glibc's version" "$section" \
	"^glibc $(getconf GNU_LIBC_VERSION | cut -d' ' -f2)'s own choice here"
if "$linker" --list-diagnostics >/dev/null 2>&1; then
	expected="  thresholds: rep_movsb $(diagnostic rep_movsb_threshold) B, rep_stosb $(diagnostic rep_stosb_threshold) B"
	expected="$expected, non_temporal $(diagnostic non_temporal_threshold) B, rep_movsb_stop $(diagnostic rep_movsb_stop_threshold) B"
	expect_eq "the thresholds are ld.so's" "$(printf '%s\n' "$section" | grep '^  thresholds:')" "$expected"
	tunables=glibc.cpu.x86_rep_movsb_threshold=4096:glibc.cpu.x86_rep_stosb_threshold=8192
	glibc_section GLIBC_TUNABLES=$tunables
	expect_match "GLIBC_TUNABLES moves them as it moves glibc's" "$section" \
		'^  thresholds: rep_movsb 4096 B, rep_stosb 8192 B, '
else
	expect_match "without ld.so --list-diagnostics: one line says so" "$section" '^  thresholds: unknown \('
fi

glibc_section
if printf '%s\n' "$section" | grep -q 'no symbol table names them'; then
	# no libc6-dbg: an address in the library, and what to install
	skip "glibc's implementations by name, and with AVX-512 masked: no symbol table for the C library (libc6-dbg)"
	for fn in memcpy memmove memset; do
		expect_match "$fn: where in the C library" "$(implementation $fn)" '^/.*libc\.so\.6\+0x[0-9a-f]+$'
	done
else
	for fn in memcpy memmove memset; do
		expect_match "$fn: glibc's implementation by name" "$(implementation $fn)" "^__${fn}_[a-z0-9_]+$"
	done
	# Masking the wide vectors makes glibc choose a narrower one, and info says so.
	if printf '%s\n' "$section" | grep -q 'avx512\|evex'; then
		glibc_section GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW
		expect_match "with AVX-512 masked: memmove is no AVX-512 one" "$(implementation memmove)" '^__memmove_'
		case $(implementation memmove) in
		*avx512* | *evex*) fail "with AVX-512 masked: memmove is still $(implementation memmove)" ;;
		*) pass "with AVX-512 masked: memmove is $(implementation memmove)" ;;
		esac
	else
		skip "glibc's choice with AVX-512 masked: glibc chose no AVX-512 function on this CPU"
	fi
fi
finish
