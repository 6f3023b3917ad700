# Helpers for the shell tests: each check prints "ok: ..." or "FAIL: ...",
# and a part this machine cannot check prints "SKIP: ..." (skip), so that a
# pass on one CPU never hides what went unchecked there (run-tests.sh lists
# the SKIP lines of every test); finish() exits non-zero if any failed.
: "${MEMSHIM_LIBRARY:?run through make check}"
: "${T_MEMSHIM_TOOL:?run through make check}"
: "${top_builddir:=.}"
passed=0
failed=0
skipped=0
scratch=$(mktemp -d "${TMPDIR:-/tmp}/memshim-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

pass() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
# skip WHAT: a part of the test left unchecked on this machine, and why.
skip() { skipped=$((skipped + 1)); echo "SKIP: $*"; }

# expect_eq WHAT ACTUAL EXPECTED
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got [$2], expected [$3]"; fi
}

# expect_match WHAT TEXT REGEX
expect_match() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then pass "$1"; else fail "$1: [$2] does not match /$3/"; fi
}

# Runs a command with the library preloaded; stdout in $out, stderr in $err, status in $rc.
preloaded() {
	LD_PRELOAD="$MEMSHIM_LIBRARY" "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	out=$(cat "$scratch/out")
	err=$(cat "$scratch/err")
}

# The seconds one run of a program under test may take (T_MEMSHIM_TIMEOUT
# overrides); run ENV... PROGRAM ARGS... runs it preloaded under that limit.
limit=${T_MEMSHIM_TIMEOUT:-60}
run() { preloaded timeout -k 5 "$limit" env "$@"; }
# have_config NAME: whether the build found NAME (config.h defines it to 1).
have_config() { grep -q "^#define $1 1" "$top_builddir/config.h"; }
# The symbol a call to FUNCTION was bound to, in the last output.
bound() { printf '%s\n' "$out" | awk -v f="$1" '$1 == f { print $2 }'; }

finish() {
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
}

# The variant or bands (text form) preset $1 picks for function $2 (default
# memcpy) on this CPU, as `memshim info` lists the presets.
picked_by() {
	"$T_MEMSHIM_TOOL" info | awk -v p="$1" -v f="${2:-memcpy}" \
		'$1 == p && $2 == "memcpy" { for (i = 2; i < NF; i++) if ($i == f) { v = $(i + 1); sub(/,$/, "", v); print v } }'
}

# Whether this CPU, less what MEMSHIM_HWCAPS hides, runs variant $1, as
# `memshim info` lists the variants.
usable_here() {
	"$T_MEMSHIM_TOOL" info | awk -v v="$1" '/^Variants/ { on = 1; next } /^[^ ]/ { on = 0 }
		on && $1 == v { usable = $2 == "usable" } END { exit !usable }'
}

# What show_binding prints for function $1 bound to variant or bands $2:
# memshim_FN_VARIANT (libc for glibc's), and for bands the exported stub's
# "bands:FIRST|SECOND[|REST]" (dispatch/export_stub.h), the rest from the
# fourth band on being the library's band dispatcher.
binding_of() {
	variant_binding() { if [ "$2" = glibc ]; then echo libc; else echo "memshim_$1_$2"; fi; }
	fn=$1
	# shellcheck disable=SC2046
	set -- $(printf '%s\n' "$2" | sed 's/:[0-9][0-9]*[KMG]\{0,1\}//g' | tr ',' ' ')
	case $# in
	1) variant_binding "$fn" "$1" ;;
	2) echo "bands:$(variant_binding "$fn" "$1")|$(variant_binding "$fn" "$2")" ;;
	3) echo "bands:$(variant_binding "$fn" "$1")|$(variant_binding "$fn" "$2")|$(variant_binding "$fn" "$3")" ;;
	*) echo "bands:$(variant_binding "$fn" "$1")|$(variant_binding "$fn" "$2")|$MEMSHIM_LIBRARY" ;;
	esac
}

# Runs a checker that prints "ok: ..." and "FAIL: ..." lines (the Python
# ones, tests/check_lines.py) and counts them as this test's, each with
# WHAT before it; a checker that fails without a FAIL line fails too.
# run_checker WHAT COMMAND...
run_checker() {
	what=$1
	shift
	"$@" >"$scratch/checker.out" 2>&1
	status=$?
	while IFS= read -r line; do
		case $line in
		"ok: "*) pass "$what: ${line#ok: }" ;;
		"FAIL: "*) fail "$what: ${line#FAIL: }" ;;
		*) echo "$line" ;;
		esac
	done <"$scratch/checker.out"
	[ $status -eq 0 ] || grep -q '^FAIL' "$scratch/checker.out" || fail "$what: the checker failed (status $status)"
}

# need_python WHAT: $PYTHON (python3 unless set) for a checker; without
# one, WHAT is skipped and the test ends there.
need_python() {
	PYTHON=${PYTHON:-python3}
	command -v "$PYTHON" >/dev/null && return 0
	skip "$1: no $PYTHON"
	finish
	exit
}
