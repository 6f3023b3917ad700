#!/bin/sh
# The compiler must neither turn the scalar variant's loops back into calls
# (memcpy calling memcpy recurses forever) nor into string instructions or
# vector registers (the variant promises general-purpose registers only).
# Also: the library has no relocation against its own string functions, which
# would make the dynamic linker run our resolvers before we are relocated.
set -u
lib=${MEMSHIM_LIBRARY:?}
status=0
for v in scalar; do
	for f in memcpy memmove memset; do
		body=$(objdump -d --no-show-raw-insn "$lib" | awk "/<memshim_${f}_$v>:/,/^\$/")
		if [ -z "$body" ]; then
			echo "FAIL: cannot disassemble memshim_${f}_$v"; status=1; continue
		fi
		bad=$(printf '%s\n' "$body" | grep -E '\brep|\bcall|%[xyz]mm|jmp +\*' || true)
		if [ -n "$bad" ]; then
			echo "FAIL: memshim_${f}_$v contains:"; printf '%s\n' "$bad"; status=1
		else
			echo "ok: memshim_${f}_$v has no rep prefix, call or vector register"
		fi
	done
done
# The vector variants: every piece inlined (no call, no indirect jump); the
# AVX2 ones leave the upper register halves clean (vzeroupper) on the way
# out; the EVEX ones (avx512, evex) use only registers 16..31, whose upper
# halves need no vzeroupper; sse2 runs on CPUs without AVX, so it must not
# touch YMM or ZMM registers.
for v in sse2 avx2 avx512 evex sse2_erms avx2_erms avx512_erms evex_erms; do
	for f in memcpy memmove memset; do
		body=$(objdump -d --no-show-raw-insn "$lib" | awk "/<memshim_${f}_$v>:/,/^\$/")
		if [ -z "$body" ]; then
			echo "FAIL: cannot disassemble memshim_${f}_$v"; status=1; continue
		fi
		problem=$(printf '%s\n' "$body" | grep -E '\bcall|jmp +\*' || true)
		case $v in
		sse2*) problem=$problem$(printf '%s\n' "$body" | grep -E '%[yz]mm' || true) ;;
		avx512* | evex*)
			problem=$problem$(printf '%s\n' "$body" | grep -E 'vzeroupper|%[xyz]mm([0-9]|1[0-5])\b' || true) ;;
		*) printf '%s\n' "$body" | grep -q vzeroupper || problem="${problem}no vzeroupper" ;;
		esac
		if [ -n "$problem" ]; then
			echo "FAIL: memshim_${f}_$v:"; printf '%s\n' "$problem"; status=1
		else
			echo "ok: memshim_${f}_$v has no call, and the right vector state"
		fi
	done
done
relocs=$(readelf -rW "$lib" | grep -E ' (memcpy|memmove|memset|mempcpy|__mem[a-z]*_chk)(@|\b)' || true)
if [ -n "$relocs" ]; then
	echo "FAIL: the library relocates against its own string functions:"; printf '%s\n' "$relocs"; status=1
else
	echo "ok: no relocation against memcpy/memmove/memset in the library"
fi
exit $status
