#!/bin/sh
# The compiler must neither turn the scalar variant's loops back into calls
# (memcpy calling memcpy recurses forever) nor into string instructions or
# vector registers (the variant promises general-purpose registers only).
# Also: the library never calls its own exported string functions (no
# relocation against them, no direct call or jump to them), and every name
# other libraries bind to is a plain function that jumps through slots
# (dispatch/export_stub.h): an exported indirect function would have the
# dynamic linker run our resolver from a library relocated before us, and
# print "Relink ... for IFUNC symbol".
set -u
lib=${MEMSHIM_LIBRARY:?}
status=0
# The vector variants, from the one list (a vector width above 0).
vector_variants=$(awk -F'[(,]' '/^MEMSHIM_VARIANT\(/ && $4 + 0 > 0 { gsub(/ /, "", $2); print $2 }' \
	"${top_srcdir:-.}/shim/memshim_variants.h")
[ -n "$vector_variants" ] || { echo "FAIL: no vector variants in shim/memshim_variants.h"; exit 1; }
# lacks FUNCTION PATTERN WHAT: FUNCTION's instructions match no PATTERN.
lacks() {
	body=$(objdump -d --no-show-raw-insn "$lib" | awk "/<$1>:/,/^\$/")
	if [ -z "$body" ]; then
		echo "FAIL: cannot disassemble $1"; status=1; return
	fi
	bad=$(printf '%s\n' "$body" | grep -E "$2" || true)
	if [ -n "$bad" ]; then
		echo "FAIL: $1 contains:"; printf '%s\n' "$bad"; status=1
	else
		echo "ok: $1 has no $3"
	fi
}
for f in memcpy memmove memset; do
	lacks "memshim_${f}_scalar" '\brep|\bcall|%[xyz]mm|jmp +\*' "rep prefix, call or vector register"
done
# The vector variants: every piece inlined (no call, no indirect jump); the
# AVX2 ones leave the upper register halves clean (vzeroupper) on the way
# out; the EVEX ones (avx512, evex) use only registers 16..31, whose upper
# halves need no vzeroupper; sse2 runs on CPUs without AVX, so it must not
# touch YMM or ZMM registers.
for v in $vector_variants; do
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
# The ladders' small blocks: every run of code from one return to the next
# (a block only a branch reaches) that is 32 bytes or shorter lies in one
# 64-byte line, as ALIGN_TARGET in shim/vector_ladder.S makes it: one that
# straddles two lines was timed slower after a mispredicted branch.  So
# does memset's loop, in the *_erms twins too: across two lines it was
# timed slower at the same sizes.
for v in $vector_variants; do
	for f in memcpy memmove memset; do
		if ! split=$(objdump -d --no-show-raw-insn "$lib" | awk "/<memshim_${f}_$v>:/,/^\$/" |
			python3 "$(dirname "$0")/check_ladder_layout.py"); then
			echo "FAIL: cannot disassemble memshim_${f}_$v"; status=1; continue
		fi
		if [ -n "$split" ]; then
			echo "FAIL: memshim_${f}_$v: small blocks or a loop across a 64-byte line: $split"; status=1
		else
			echo "ok: memshim_${f}_$v: no small block or memset loop across a 64-byte line"
		fi
	done
done
# The recording and profiling wrappers (timed or not) of the commonest entry
# points save no register, make no stack frame and call nothing on their
# common path: the slow paths are cold functions reached by a jump
# (preload/record.c, copy_then), so recording costs little (D34).
for w in recording profiling timed_recording timed_profiling; do
	for f in memcpy mempcpy memmove memset; do
		lacks "${w}_$f" '\b(push|call)|sub +\$0x[0-9a-f]+,%rsp' "register save, stack frame or call"
	done
done
relocs=$(readelf -rW "$lib" | grep -E ' (memcpy|memmove|memset|mempcpy|__mem[a-z]*_chk)(@|\b)' || true)
if [ -n "$relocs" ]; then
	echo "FAIL: the library relocates against its own string functions:"; printf '%s\n' "$relocs"; status=1
else
	echo "ok: no relocation against memcpy/memmove/memset in the library"
fi
exported='memcpy|memmove|memset|mempcpy|__mempcpy|bcopy|bzero|explicit_bzero|__[a-z_]*_chk'
calls=$(objdump -d --no-show-raw-insn "$lib" | grep -E "(call|jmp) +[0-9a-f]+ <($exported)(@plt)?>" || true)
if [ -n "$calls" ]; then
	echo "FAIL: the library calls its own string functions:"; printf '%s\n' "$calls"; status=1
else
	echo "ok: no call from the library to its own string functions"
fi
# Indirect functions may be exported only under memshim_ names: only programs
# and libraries linked against libmemshim.so reach those, and the dynamic
# linker relocates them after us.
ifuncs=$(readelf --dyn-syms -W "$lib" | awk '$4 == "IFUNC" && $7 != "UND" && $8 !~ /^memshim_/ { print $8 }')
if [ -n "$ifuncs" ]; then
	echo "FAIL: indirect functions exported under C library names:" $ifuncs; status=1
else
	echo "ok: no indirect function exported under a C library name"
fi
# The string functions: twice a band's compare, a branch and a jump through
# a slot, then the last slot's jump; exec* and _exit: one jump.
band='cmp +0x[0-9a-f]+\(%rip\),%rSIZE ja +[0-9a-f]+ <[^>]*> jmp +\*0x[0-9a-f]+\(%rip\)'
banded_stub="$band $band jmp +\\*0x[0-9a-f]+\\(%rip\\)"
for f in memcpy memmove memset mempcpy __memcpy_chk bzero explicit_bzero execve _exit; do
	case $f in
	execve | _exit) lines=2 shape='jmp +\*0x[0-9a-f]+\(%rip\)' ;;
	*bzero) lines=8 shape=$(echo "$banded_stub" | sed 's/SIZE/si/g') ;; # bzero(s, n): n in %rsi
	*) lines=8 shape=$(echo "$banded_stub" | sed 's/SIZE/dx/g') ;;
	esac
	body=$(objdump -d --no-show-raw-insn "$lib" | awk "/<$f>:/,/^\$/" | sed -n "2,${lines}p" |
		sed -E 's/^ *[0-9a-f]+:[[:space:]]+//; s/ *#.*//' | tr '\n' ' ' | sed 's/ *$//')
	if printf '%s\n' "$body" | grep -Eq "^$shape\$"; then
		echo "ok: $f is the exported stub: [$body]"
	else
		echo "FAIL: $f starts with [$body], not the exported stub (dispatch/export_stub.h)"; status=1
	fi
done
exit $status
