#!/bin/sh
# Bad values in every variable the library reads, unknown MEMSHIM_* names, and
# bad arguments to the memshim tool.
#
# For a bad variable the program must run as if the variable were not there:
# exit status 0, the same output (so the same bindings: the fallback), and
# exactly one line on stderr,
#     memshim: NAME="value" <problem>; using <fallback>
# with the value cut to 64 characters ("..." after it) and unprintable bytes
# shown as '?'.  Each case runs a -z now program and a lazily bound one, both
# loading a library with dlopen (so a second round of resolvers must not
# report the problem again), and `memshim info`, which reads the same
# configuration and must report the same line and show the fallback.
#
# Bad tool arguments: exit status 2 and one line saying what is wrong.
. "${top_srcdir:-.}/tests/lib.sh"
LC_ALL=C
export LC_ALL
now=$top_builddir/tests/show_binding_now
lazy=$top_builddir/tests/show_binding_lazy
copier=$top_builddir/tests/.libs/libcopier.so
tool=$T_MEMSHIM_TOOL
unset MEMSHIM_IMPL MEMSHIM_MEMCPY MEMSHIM_MEMMOVE MEMSHIM_MEMSET \
	MEMSHIM_MOVSB_THRESHOLD MEMSHIM_STOSB_THRESHOLD MEMSHIM_VERBOSE

default=$(picked_by default memcpy)
default_memset=$(picked_by default memset)
expect_match "memshim info names a default variant or bands" "$default" '^[a-z0-9_]+(:[0-9]+[KMG]?,[a-z0-9_]+)*$'
# What a bad MEMSHIM_IMPL falls back to, as the message says it.
default_all="the default ($("$tool" info | awk '$1 == "default" && $2 == "memcpy" { sub(/^ *default +/, ""); sub(/ \(.*$/, ""); print }'))"

ten_k=$(head -c 10240 /dev/zero | tr '\0' 'x')
ten_k_digits=$(head -c 10240 /dev/zero | tr '\0' '7')
huge=99999999999999999999999

# What the library shows of a value: 64 bytes, '?' for unprintable ones, "..." if cut.
shown() {
	s=$(printf '%s' "$1" | head -c 64 | tr -c ' -~' '?')
	if [ "$(printf '%s' "$1" | wc -c)" -gt 64 ]; then s="$s..."; fi
	printf '%s' "$s"
}

lines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }

# expect_one_line WHAT STDERR PREFIX SUFFIX: stderr is one line, PREFIX...SUFFIX.
expect_one_line() {
	if [ "$(lines "$2")" != 1 ]; then
		fail "$1: stderr has $(lines "$2") lines, expected 1: [$2]"
		return
	fi
	case $2 in
	"$3"*"$4") pass "$1" ;;
	*) fail "$1: stderr [$2], expected [$3...$4]" ;;
	esac
}

# The output of both programs and of `memshim info` with ENV... (which must be good).
reference() {
	for program in "$now" "$lazy"; do
		preloaded env "$@" "$program" dlopen "$copier"
		eval "ref_$(basename "$program")=\$out"
		[ "$rc" = 0 ] && [ -z "$err" ] || fail "reference run env $* $program: rc=$rc stderr=[$err]"
	done
	ref_info=$(env "$@" "$tool" info 2>&1 | sed -n '/^A program started/,$p')
}

# bad NAME VALUE FALLBACK [GOOD_ENV...]: NAME=VALUE, added to GOOD_ENV, is
# reported in one line ending "; using FALLBACK" and changes nothing else.
bad() {
	name=$1 value=$2 fallback=$3
	shift 3
	reference "$@"
	what="$name=\"$(shown "$value" | cut -c1-24)\"${1:+ with $*}"
	prefix="memshim: $name=\"$(shown "$value")\" "
	for program in "$now" "$lazy"; do
		p=$(basename "$program")
		preloaded env "$@" "$name=$value" "$program" dlopen "$copier"
		expect_eq "$p $what: exit status" "$rc" 0
		eval "expected=\$ref_$p"
		expect_eq "$p $what: output and bindings as without it" "$out" "$expected"
		expect_one_line "$p $what: one line on stderr" "$err" "$prefix" "; using $fallback"
	done
	info_out=$(env "$@" "$name=$value" "$tool" info 2>"$scratch/err" | sed -n '/^A program started/,$p')
	expect_eq "memshim info $what: choice as without it" "$info_out" "$ref_info"
	expect_one_line "memshim info $what: one line on stderr" "$(cat "$scratch/err")" "$prefix" \
		"; using $fallback"
}

# ---- the variables that name a variant ----
bad_names="'' FSRM Fsrm ERMS Scalar MOVSQ GLIBC Glibc 'fsrm ' ' fsrm' 'fsrm,erms' fsr fsrmx \
	rep_movsb Default fastest Auto AUTO KERNEL none -1 0 1 $huge 2048x"
eval "set -- $bad_names"
for value in "$@" "$ten_k" "$(printf 'fs\001rm\t\377')"; do
	bad MEMSHIM_IMPL "$value" "$default_all"
done
preloaded env MEMSHIM_IMPL=FSRM "$now"
expect_eq "MEMSHIM_IMPL=FSRM: memcpy on the default" "$(bound memcpy)" "$(binding_of memcpy "$default")"
# A name in the wrong case: the line names the right one.
for pair in FSRM:fsrm Scalar:scalar AVX2:avx2 Default:default; do
	preloaded env MEMSHIM_IMPL="${pair%%:*}" "$now"
	expect_match "MEMSHIM_IMPL=${pair%%:*}: suggests ${pair#*:}" "$err" "did you mean ${pair#*:}\\? "
done
# A misspelt name, an edit from a variant: the line names it too.
for pair in avx22:avx2 ermss:erms sse:sse2 kernal:kernel; do
	preloaded env MEMSHIM_IMPL="${pair%%:*}" "$now"
	expect_match "MEMSHIM_IMPL=${pair%%:*}: suggests ${pair#*:}" "$err" "did you mean ${pair#*:}\\? "
done
preloaded env MEMSHIM_MEMSET=Erms "$now"
expect_match "MEMSHIM_MEMSET=Erms: suggests erms" "$err" "did you mean erms\\? "
preloaded env MEMSHIM_IMPL=frobnicate "$now"
expect_eq "MEMSHIM_IMPL=frobnicate: no suggestion" "$(printf '%s' "$err" | grep -c 'did you mean')" 0

for name in MEMSHIM_MEMCPY MEMSHIM_MEMMOVE MEMSHIM_MEMSET; do
	eval "set -- $bad_names"
	for value in "$@" "$ten_k"; do
		# The fallback is what MEMSHIM_IMPL chose, or the default without it.
		bad "$name" "$value" scalar MEMSHIM_IMPL=scalar
	done
	fn_default=$(picked_by default "$(echo "${name#MEMSHIM_}" | tr A-Z a-z)")
	bad "$name" Erms "$fn_default"
	bad "$name" Erms movsq MEMSHIM_IMPL=movsq MEMSHIM_VERBOSE=0
done
preloaded env MEMSHIM_IMPL=scalar MEMSHIM_MEMSET=Movsq "$now"
expect_eq "MEMSHIM_MEMSET=Movsq falls back to MEMSHIM_IMPL" "$(bound memset)" "memshim_memset_scalar"
expect_eq "MEMSHIM_MEMSET=Movsq leaves memcpy alone" "$(bound memcpy)" "memshim_memcpy_scalar"

# Size bands: one clear message for each mistake, the same wherever in the
# list it is; a bound of 0 (a band of empty calls, a slip for "from 0") is one.
for value in glibc:abc glibc:abc,sse2 sse2:1K,glibc:x,scalar; do
	bad MEMSHIM_MEMCPY "$value" scalar MEMSHIM_IMPL=scalar
	expect_match "MEMSHIM_MEMCPY=$value: says the bound is not a byte count" "$err" \
		'" has a band bound that is not a byte count \(VARIANT:BYTES, bytes with K, M or G, up to 1T\); using scalar$'
done
bad MEMSHIM_MEMCPY sse2:0,glibc scalar MEMSHIM_IMPL=scalar
expect_match "MEMSHIM_MEMCPY=sse2:0,glibc: refused, and why" "$err" '" has a band bound of 0 \(a band serves sizes up to its bound'
bad MEMSHIM_IMPL sse2:0,glibc "$default_all"

# A variant this CPU cannot run is a bad value too, with its own reason.
unusable=$("$tool" info | awk '/^Variants:/ { on = 1; next } on && /^[^ ]/ { on = 0 }
		on && $2 == "NOT" { print $1 }')
for v in $unusable; do
	bad MEMSHIM_IMPL "$v" "$default_all"
	expect_match "MEMSHIM_IMPL=$v (not usable here): the reason" "$err" 'is not supported'
done
[ -n "$unusable" ] || skip "MEMSHIM_IMPL naming a variant the CPU cannot run: this CPU runs every variant"

# ---- MEMSHIM_HWCAPS: a bad list hides nothing (the reference runs without
# any mask, so that this holds in run-tests.sh's masked pass too) ----
for value in avx2 +fsrm -sse2 -AVX1024 "-avx2," ",-erms" "-avx2 -erms" - "$ten_k" "$(printf '\055av\001x2')"; do
	bad MEMSHIM_HWCAPS "$value" "every feature the CPU has" -u MEMSHIM_HWCAPS
done

# ---- thresholds: bytes, with K/M/G/T, at most 1 TiB ----
threshold_of() { # threshold_of memcpy|memset ENV...: the threshold memshim info shows
	fn=$1
	shift
	env MEMSHIM_IMPL=erms "$@" "$tool" info 2>/dev/null |
		awk -v f="$fn" '$1 == f && $2 == "->" { sub(/ B\).*/, ""); sub(/.* from /, ""); print }'
}
# The defaults are this CPU's (its row's, else built in): what a bad value
# leaves in place.
movsb_default=$(threshold_of memcpy) stosb_default=$(threshold_of memset)
expect_match "erms copy threshold default: a size" "$movsb_default" '^[0-9]+$'
expect_match "erms set threshold default: a size" "$stosb_default" '^[0-9]+$'
for name in MEMSHIM_MOVSB_THRESHOLD MEMSHIM_STOSB_THRESHOLD; do
	fn=memcpy kept=$movsb_default
	[ $name = MEMSHIM_STOSB_THRESHOLD ] && fn=memset kept=$stosb_default
	for value in '' -1 -0 - "$huge" 18446744073709551616 abc 2048x 2048K5 4KB 4k0 2kk 0x10 \
		' 2048' '2048 ' +5 1.5K 1e3 2T 1025G 1048577M 1099511627777 "$ten_k_digits" "$ten_k" \
		"$(printf '20\n48')"; do
		bad $name "$value" "$kept" MEMSHIM_IMPL=erms
		expect_eq "$name=\"$(shown "$value" | cut -c1-24)\": threshold stays $kept" \
			"$(threshold_of $fn "$name=$value")" "$kept"
	done
	# The good ones around the limit really apply (so the checks above can fail).
	for pair in 4k:4096 4K:4096 1m:1048576 1T:1099511627776 1024G:1099511627776 \
		1099511627776:1099511627776 007:7 1:1; do
		value=${pair%%:*}
		preloaded env MEMSHIM_IMPL=erms "$name=$value" "$now"
		expect_eq "$name=$value accepted silently" "$err" ""
		expect_eq "$name=$value applies" "$(threshold_of $fn "$name=$value")" "${pair#*:}"
	done
	# 0 applies too, but is more likely a slip: one line says what it does.
	preloaded env MEMSHIM_IMPL=erms "$name=0" "$now"
	expect_one_line "$name=0: one line" "$err" "memshim: $name=\"0\" is 0: " " of every size, the smallest too, take rep $(
		[ $fn = memcpy ] && echo movsb || echo stosb); using 0"
	expect_eq "$name=0 applies" "$(threshold_of $fn "$name=0")" 0
done
# Retired variants (D50): the name still parses, as the nearest variant
# that remains, with one line saying so, in a variable and in bands.
for retired in evex_erms evex_mask; do
	preloaded env MEMSHIM_MEMCPY=$retired "$now"
	said="memshim: $retired was retired (doc/variants.md); using evex_mask_erms, the nearest variant"
	expect_eq "MEMSHIM_MEMCPY=$retired: one line naming evex_mask_erms" "$(printf '%s\n' "$err" | head -1)" "$said"
	if usable_here evex_mask_erms; then
		expect_eq "MEMSHIM_MEMCPY=$retired: memcpy on evex_mask_erms" "$(bound memcpy)" "memshim_memcpy_evex_mask_erms"
		expect_eq "MEMSHIM_MEMCPY=$retired: nothing else said" "$err" "$said"
	fi
	preloaded env MEMSHIM_MEMSET="glibc:256,$retired" "$now"
	expect_eq "MEMSHIM_MEMSET=glibc:256,$retired: the same line" "$(printf '%s\n' "$err" | head -1)" "$said"
done
preloaded env MEMSHIM_MEMCPY=evex_erms MEMSHIM_MEMMOVE=evex_erms "$now"
expect_eq "a retired name in two variables: said once" "$(printf '%s\n' "$err" | grep -c 'was retired')" 1

# The old names: read as the new one, with one line naming it; ignored
# where the new one is set; unsaid where memshim run said it already.
for pair in ERMS_THRESHOLD:MOVSB_THRESHOLD:memcpy AUTO_STOSB_THRESHOLD:STOSB_THRESHOLD:memset \
	CONFIG:CALIBRATION:; do
	old=MEMSHIM_${pair%%:*} rest=${pair#*:}
	new=MEMSHIM_${rest%%:*} fn=${rest#*:}
	preloaded env MEMSHIM_IMPL=erms "$old=4096" "$now"
	[ "$old" = MEMSHIM_CONFIG ] && err=$(printf '%s\n' "$err" | grep -v 'calibration file')
	expect_eq "$old: one line naming $new" "$err" "memshim: $old is read as $new, its new name"
	[ -n "$fn" ] && expect_eq "$old: applies as $new" "$(threshold_of $fn "$old=4096")" 4096
	preloaded env MEMSHIM_IMPL=erms "$old=4096" "$new=8192" "$now"
	[ "$old" = MEMSHIM_CONFIG ] && err=$(printf '%s\n' "$err" | grep -v 'calibration file')
	expect_eq "$old with $new set: one line, ignored" "$err" \
		"memshim: $old is ignored: it is the old name of $new, which is set"
	[ -n "$fn" ] && expect_eq "$old with $new set: $new applies" "$(threshold_of $fn "$old=4096" "$new=8192")" 8192
	preloaded env MEMSHIM_WARNED="$old" MEMSHIM_IMPL=erms "$old=4096" "$now"
	[ "$old" = MEMSHIM_CONFIG ] && err=$(printf '%s\n' "$err" | grep -v 'calibration file')
	expect_eq "$old listed in MEMSHIM_WARNED: unsaid" "$err" ""
done
# The dump's old name: the program records there, with one line naming the new.
preloaded env MEMSHIM_HIST="$scratch/old-name.%p" "$now"
expect_eq "MEMSHIM_HIST: one line naming MEMSHIM_DUMP" "$err" "memshim: MEMSHIM_HIST is read as MEMSHIM_DUMP, its new name"
expect_eq "MEMSHIM_HIST: the dump is written there" "$(ls "$scratch" | grep -c '^old-name\.')" 1

# The non-temporal threshold: 0, or below glibc's least (16448 B), is said too.
nt_of() { env "$@" "$tool" info 2>/dev/null | sed -n 's/.*, nt \([0-9]*\) B \[environment\].*/\1/p'; }
for pair in 0:0 4K:4096 16447:16447; do
	value=${pair%%:*}
	preloaded env MEMSHIM_NT_THRESHOLD="$value" "$now"
	expect_one_line "MEMSHIM_NT_THRESHOLD=$value: one line" "$err" "memshim: MEMSHIM_NT_THRESHOLD=\"$value\" is " \
		"; using ${pair#*:}"
	expect_eq "MEMSHIM_NT_THRESHOLD=$value applies" "$(nt_of MEMSHIM_NT_THRESHOLD="$value")" "${pair#*:}"
done
expect_match "MEMSHIM_NT_THRESHOLD=16447: why" "$err" "is below 16448 B, glibc's least"
preloaded env MEMSHIM_NT_THRESHOLD=16448 "$now"
expect_eq "MEMSHIM_NT_THRESHOLD=16448 accepted silently" "$err" ""

# ---- MEMSHIM_VERBOSE: 0 or 1 ----
for value in '' 2 -1 yes no true TRUE on 01 00 '1 ' ' 1' 1x "$huge" "$ten_k"; do
	bad MEMSHIM_VERBOSE "$value" 0
done
bad MEMSHIM_VERBOSE Yes 0 MEMSHIM_IMPL=movsq

# ---- unknown MEMSHIM_* names: one line each, and otherwise ignored ----
# unknown NAME_AS_SHOWN ENTRY: the environment entry ENTRY ("NAME=value").
unknown() {
	reference
	what="unknown $(printf '%s' "$2" | cut -c1-30)"
	preloaded env "$2" "$now" dlopen "$copier"
	expect_eq "$what: exit status" "$rc" 0
	expect_eq "$what: output as without it" "$out" "$ref_show_binding_now"
	expect_one_line "$what: one line on stderr" "$err" "memshim: unknown variable $1 ignored" ""
}
for name in MEMSHIM_FOO MEMSHIM_ MEMSHIM_impl MEMSHIM_Impl MEMSHIM_IMPLS MEMSHIM_MEMCP \
	MEMSHIM_MEMCPY_ MEMSHIM_ERMS MEMSHIM_ERMS_THRESH MEMSHIM_STOSB MEMSHIM_VERBOSE_ MEMSHIM_MEMSHIM_IMPL; do
	unknown $name "$name=erms"
done
unknown MEMSHIM_FOO "MEMSHIM_FOO="
unknown MEMSHIM_FOO "MEMSHIM_FOO=$ten_k"
# A long name is cut, visibly.
long_name=MEMSHIM_$ten_k
unknown "$(printf '%s' "$long_name" | head -c 83)..." "$long_name=1"
# Names that are not MEMSHIM_* are not the library's business.
reference
preloaded env memshim_impl=erms Memshim_Impl=erms MEMSHIMIMPL=erms "$now" dlopen "$copier"
expect_eq "lower-case memshim_impl: ignored" "$out$err" "$ref_show_binding_now"

# ---- everything wrong at once: one line per problem, nothing twice ----
reference MEMSHIM_IMPL=scalar
preloaded env MEMSHIM_IMPL=Scalar MEMSHIM_MEMCPY='' MEMSHIM_MEMMOVE=x MEMSHIM_MEMSET=- \
	MEMSHIM_MOVSB_THRESHOLD=2048x MEMSHIM_STOSB_THRESHOLD="$huge" MEMSHIM_VERBOSE=2 MEMSHIM_FOO=1 \
	"$lazy" dlopen "$copier"
expect_eq "everything wrong: exit status" "$rc" 0
expect_eq "everything wrong: eight lines" "$(lines "$err")" 8
for name in IMPL MEMCPY MEMMOVE MEMSET MOVSB_THRESHOLD STOSB_THRESHOLD VERBOSE FOO; do
	expect_eq "everything wrong: MEMSHIM_$name reported once" \
		"$(printf '%s\n' "$err" | grep -c "MEMSHIM_$name[= ]")" 1
done
preloaded env "$lazy" dlopen "$copier"
expect_eq "everything wrong: bindings are the defaults" "$(bound memcpy) $(bound dlopen-memset)" \
	"$(binding_of memcpy "$default") $(binding_of memset "$default_memset")"

# ---- the memshim tool's arguments ----
# cli WHAT STATUS FIRST_LINE_GLOB ARGS...: status, empty stdout, and stderr
# whose first line matches (exactly one line unless WHAT starts with "usage").
cli() {
	what=$1 status=$2 glob=$3
	shift 3
	"$tool" "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
	err=$(cat "$scratch/err")
	expect_eq "memshim $what: exit status" "$rc" "$status"
	expect_eq "memshim $what: nothing on stdout" "$(cat "$scratch/out")" ""
	first=$(printf '%s\n' "$err" | head -n 1)
	case $first in
	$glob) pass "memshim $what: says [$first]" ;;
	*) fail "memshim $what: stderr [$err], expected a first line like [$glob]" ;;
	esac
	case $what in
	usage*) ;;
	*) expect_eq "memshim $what: one line on stderr" "$(lines "$err")" 1 ;;
	esac
}
cli "usage: no command" 2 "usage: memshim *"
cli "usage: unknown command" 2 'memshim: unknown command "frobnicate"*' frobnicate
cli "usage: unknown option" 2 'memshim: unknown command "--frobnicate"*' --frobnicate
cli "usage: case of the command" 2 'memshim: unknown command "INFO"*' INFO
cli "info unknown option" 2 "memshim info: *--frobnicate*" info --frobnicate
cli "info extra argument" 2 "memshim info: *extra*" info extra
cli "run, nothing" 2 "memshim run: no command given after --*" run
cli "run --, nothing after" 2 "memshim run: no command given after --*" run --
cli "run options, no --" 2 "memshim run: no command given after --*" run --impl erms
cli "run --verbose, nothing after" 2 "memshim run: no command given after --*" run --verbose --
cli "run unknown option" 2 "memshim run: unknown option --frobnicate*" run --frobnicate 1 -- true
cli "run unknown option before --" 2 "memshim run: unknown option --frobnicate*" run --frobnicate -- true
cli "run --verbose=1" 2 "memshim run: --verbose takes no value*" run --verbose=1 -- true
cli "run --auto (ambiguous)" 2 "memshim run: option --auto is ambiguous*" run --auto 1K -- true
cli "run -x" 2 "memshim run: unknown option -x*" run -x -- true
cli "run --impl= (empty)" 2 "memshim run: --impl \"\" is not a variant*" run --impl= -- true
cli "run --erms-threshold=12Q" 2 "memshim run: --erms-threshold \"12Q\" *" run --erms-threshold=12Q -- true
cli "run command without --" 2 "memshim run: \"true\" is not an option; put -- before the command*" run true
cli "run --impl without value" 2 "memshim run: --impl needs a value*" run --impl
cli "run --impl then --" 2 "memshim run: --impl needs a value*" run --impl -- true
cli "run --erms-threshold then --" 2 "memshim run: --erms-threshold needs a value*" run --erms-threshold -- true
cli "run --stosb-threshold without value" 2 "memshim run: --stosb-threshold needs a value*" run --stosb-threshold
for v in frobnicate FSRM Erms '' 'fsrm '; do
	cli "run --impl \"$v\"" 2 "memshim run: --impl \"$v\" is not a variant*" run --impl "$v" -- true
done
# size bands, as MEMSHIM_IMPL takes them
"$tool" run --impl glibc:256,sse2 --verbose -- true >/dev/null 2>"$scratch/err"
expect_match "run --impl glibc:256,sse2: taken, as MEMSHIM_IMPL takes it" "$?:$(head -n 1 "$scratch/err")" \
	'^0:memshim: memcpy -> up to 256 B: glibc; above 256 B: sse2 .*\[MEMSHIM_IMPL\]'
cli "run --impl glibc:abc,sse2" 2 "memshim run: --impl \"glibc:abc,sse2\" has a band bound that is not a byte count*" \
	run --impl glibc:abc,sse2 -- true
cli "run --impl sse2:0,glibc" 2 "memshim run: --impl \"sse2:0,glibc\" has a band bound of 0*" run --impl sse2:0,glibc -- true
cli "run --impl Erms: suggests erms" 2 "memshim run: --impl \"Erms\" *(did you mean erms?)*" run --impl Erms -- true
cli "ab --impl AVX2: suggests avx2" 2 "memshim ab: --impl: \"AVX2\" *(did you mean avx2?)*" ab --impl AVX2 -- true
cli "run --impl avx22: suggests avx2" 2 "memshim run: --impl \"avx22\" *(did you mean avx2?)*" run --impl avx22 -- true
cli "ab --impl glibc,avx22: suggests avx2" 2 "memshim ab: --impl: \"avx22\" *(did you mean avx2?)*" ab --impl glibc,avx22 -- true
for opt in --erms-threshold --stosb-threshold; do
	for v in 2048x -1 '' "$huge" 2T 1025G abc 0x10; do
		cli "run $opt \"$v\"" 2 "memshim run: $opt \"$v\" *" run $opt "$v" -- true
	done
done
cli "run a program that does not exist" 127 "memshim run: cannot run $scratch/none:*" run -- "$scratch/none"
cli "run a command not on PATH" 127 "memshim run: cannot run memshim-no-such-command:*" run -- memshim-no-such-command
: >"$scratch/not-executable"
cli "run a file that is not executable" 126 "memshim run: cannot run $scratch/not-executable:*" run -- "$scratch/not-executable"
cli "run a directory" 126 "memshim run: cannot run $scratch:*" run -- "$scratch"
for cmd in report bench tune ab info; do
	cli "$cmd --bogus (the option is blamed, not a file)" 2 "memshim $cmd: unknown option --bogus *" $cmd --bogus FILE
done
cli "report --top without a value" 2 "memshim report: --top needs a value*" report --top
cli "report --top=x" 2 "memshim report: --top \"x\" is not a whole number*" report --top=x FILE
cli "report --top beyond any count (no wrap to a small one)" 2 "memshim report: --top \"4294967297\" is not a whole number from 0 to 1000000*" report --top=4294967297 FILE
cli "report --json=1" 2 "memshim report: --json takes no value*" report --json=1 FILE
cli "bench --rounds= (the option named in full)" 2 "memshim bench: --rounds needs a value*" bench --roun=
cli "usage: help bogus" 2 'memshim: unknown command "bogus"*' help bogus

# --opt=value and --opt value alike, in every subcommand that takes values.
for form in "--impl=scalar" "--impl scalar"; do
	# shellcheck disable=SC2086
	"$tool" run $form --movsb-threshold=4K -- sh -c 'echo "$MEMSHIM_IMPL $MEMSHIM_MOVSB_THRESHOLD"' >"$scratch/out" 2>"$scratch/err"
	expect_eq "memshim run $form: status, variables, stderr" "$?:$(cat "$scratch/out"):$(cat "$scratch/err")" "0:scalar 4K:"
done
MEMSHIM_DUMP=$scratch/dump LD_PRELOAD=$MEMSHIM_LIBRARY "$now" >/dev/null
for form in "--top=3 --svg=$scratch/a.svg" "--top 3 --svg $scratch/b.svg"; do
	# shellcheck disable=SC2086
	"$tool" report "$scratch/dump" $form >"$scratch/out" 2>"$scratch/err"
	expect_eq "memshim report $form: status, stderr" "$?:$(cat "$scratch/err")" "0:"
done
expect_eq "memshim report --svg=FILE and --svg FILE: both plots written" "$(ls "$scratch"/?.svg | wc -l)" 2
"$tool" bench --rounds=3 --functions=memcpy --cases=sweep --sizes=64 --variants=scalar --csv="$scratch/b.csv" \
	>/dev/null 2>"$scratch/err"
expect_eq "memshim bench --opt=value: status, stderr" "$?:$(cat "$scratch/err")" "0:"
expect_match "memshim bench --variants=scalar --csv=FILE: scalar timed" "$(cat "$scratch/b.csv")" '^memcpy,scalar,sweep,64,'
"$tool" ab --runs=1 --impl=glibc -- true >"$scratch/out" 2>"$scratch/err"
expect_eq "memshim ab --runs=1 --impl=glibc: status, stderr" "$?:$(cat "$scratch/err")" "0:"
expect_match "memshim ab --runs=1: one run" "$(cat "$scratch/out")" '^memshim ab: 1 runs of each of 1 settings'
for form in "--calibration=$scratch/no-calibration" "--calibration $scratch/no-calibration"; do
	# shellcheck disable=SC2086
	"$tool" tune "$scratch/dump" $form >/dev/null 2>"$scratch/err"
	expect_match "memshim tune $form: the file is the one named (status 1)" "$?:$(cat "$scratch/err")" \
		"^1:memshim tune: .*$scratch/no-calibration"
done

# --help everywhere: status 0, text on stdout, nothing on stderr.
for args in --help -h help "info --help" "info -h" "run --help" "run -h" "run --impl erms --help" \
	"help info" "help run" "help report" "help bench" "help tune" "help ab" "help help" "help --help" "help -h"; do
	# shellcheck disable=SC2086
	"$tool" $args >"$scratch/out" 2>"$scratch/err"
	rc=$?
	expect_eq "memshim $args: exit status" "$rc" 0
	expect_match "memshim $args: usage on stdout" "$(cat "$scratch/out")" '^usage: memshim'
	expect_eq "memshim $args: nothing on stderr" "$(cat "$scratch/err")" ""
done
# help CMD is CMD --help
for cmd in info run report bench tune ab; do
	expect_eq "memshim help $cmd is memshim $cmd --help" "$("$tool" help $cmd)" "$("$tool" $cmd --help)"
done
for args in --version -V; do
	"$tool" $args >"$scratch/out" 2>"$scratch/err"
	expect_eq "memshim $args: status, version, stderr" "$?:$(cat "$scratch/out"):$(cat "$scratch/err")" \
		"0:memshim $(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h"):"
done
# --help after -- belongs to the command.
"$tool" run -- sh -c 'echo "$1"' sh --help >"$scratch/out" 2>&1
expect_eq "memshim run -- CMD --help runs CMD" "$?:$(cat "$scratch/out")" "0:--help"
# and the exit status of the command is kept
"$tool" run --impl scalar -- sh -c 'exit 3' >/dev/null 2>&1
expect_eq "memshim run keeps the command's exit status" "$?" 3

# The recording variables are for the programs the tool runs: its own
# process neither warns that they need MEMSHIM_DUMP (record sets it for its
# command) nor says a bad one's problem twice.
hist_program=$top_builddir/tests/hist_program
MEMSHIM_DUMP_INTERVAL=1 "$tool" record -o "$scratch/rec-interval" --report "$scratch/report" -- "$hist_program" calls 3 \
	>/dev/null 2>"$scratch/err"
expect_eq "MEMSHIM_DUMP_INTERVAL=1 memshim record: nothing on stderr" "$?:$(cat "$scratch/err")" "0:"
MEMSHIM_DUMP_INTERVAL=1 "$tool" info >/dev/null 2>"$scratch/err"
expect_eq "MEMSHIM_DUMP_INTERVAL=1 memshim info: nothing on stderr" "$?:$(cat "$scratch/err")" "0:"
MEMSHIM_DUMP_INTERVAL=x "$tool" record -o "$scratch/rec-bad" --report "$scratch/report2" -- "$hist_program" calls 3 \
	>/dev/null 2>"$scratch/err"
expect_match "MEMSHIM_DUMP_INTERVAL=x memshim record: one line, from the program" "$(wc -l <"$scratch/err"):$(cat "$scratch/err")" \
	'^1:memshim: MEMSHIM_DUMP_INTERVAL="x" is not a whole number'

finish
