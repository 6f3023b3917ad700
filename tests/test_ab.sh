#!/bin/sh
# memshim ab end to end on a small real command; the shape of the report,
# never a timing.
. "${top_srcdir:-.}/tests/lib.sh"
ab() { "$T_MEMSHIM_TOOL" ab "$@" >"$scratch/out" 2>"$scratch/err"; rc=$?; }
head -c 3000000 /dev/urandom | base64 >"$scratch/small"

ab --runs 2 --impl none,fsrm --env 'MEMSHIM_IMPL=scalar MEMSHIM_VERBOSE=0' -- gzip -c "$scratch/small"
expect_eq "ab runs" "$rc" 0
expect_eq "ab: nothing on stderr" "$(cat "$scratch/err")" ""
expect_match "ab names its clocks" "$(cat "$scratch/out")" 'wall: clock_gettime\(CLOCK_MONOTONIC\)'
expect_eq "ab: a line per setting, in order; a label too long for the table gets a short name" \
	"$(awk '/^(none|fsrm|env1) / { print $1 }' "$scratch/out" | tr '\n' ' ')" "none fsrm env1 "
expect_match "the key below the table says what the short name stands for, in full" "$(cat "$scratch/out")" \
	'^  env1 +the library with MEMSHIM_IMPL=scalar MEMSHIM_VERBOSE=0$'
expect_match "the key names the others too" "$(cat "$scratch/out")" '^  none +without the library$'
expect_eq "no label is cut: no line holds the long setting's text but the key's" \
	"$(grep -c 'MEMSHIM_IMPL=scalar' "$scratch/out")" 1
expect_match "the first setting's ratio is 1" "$(grep '^none ' "$scratch/out")" ' 1\.000 '
expect_eq "the command's output went to /dev/null" "$(LC_ALL=C tr -dc '\037\213' <"$scratch/out" | wc -c)" 0

ab --runs 2 --impl fsrm --show-output -- echo hello-from-ab
expect_match "--show-output keeps it" "$(cat "$scratch/out")" 'hello-from-ab'

ab --runs 2 --impl none,glibc -- sh -c 'exit 3'
expect_eq "a failing command: status 1" "$rc" 1
expect_match "a failing command is reported" "$(cat "$scratch/err")" 'glibc \(the library with MEMSHIM_IMPL=glibc\): the command failed in 2 of 2 runs \(exit status 3\)'

# A command that writes a made-up dump beside the library's: NS ns inside
# 1000000 memcpy calls of 100 B, and 7 ms in memshim's recording; with
# ALTERNATE (a counter file), three times NS and a third of it in turn.  Its
# sleep makes every run long enough to time (sleep waits no less), so that
# what ab decides rests on these made-up figures, never on this machine's
# clock (no test asserts a time).
cat >"$scratch/fake.sh" <<'EOF'
echo "profile=$MEMSHIM_PROFILE"
sleep 0.03
ns=$NS
if [ -n "$ALTERNATE" ]; then
	k=$(cat "$ALTERNATE" 2>/dev/null || echo 0)
	echo $((k + 1)) >"$ALTERNATE"
	if [ $((k % 2)) -eq 0 ]; then ns=$((ns * 3)); else ns=$((ns / 3)); fi
fi
samples=$((ns / 1000000))
printf '%s\n' "memshim-histogram 2" "pid $$" "program fake" "reason exit" "variant memcpy glibc" \
	"function memcpy" "bucket 96 104 1000000 100000000" "profile 1000 3000 3000000000 3000000000 3000000000 0" \
	"function memcpy" "cpu 96 104 $samples $ns" "recording_cpu 7 7000000" "end" >"${MEMSHIM_DUMP%/*}/fake.$$"
EOF
# --runs auto decides on the in-function time with --profile: twice the
# made-up time is resolved at the first look.
ab --runs auto --profile --budget 60 --env NS=1000000000 --env NS=2000000000 -- sh "$scratch/fake.sh"
expect_eq "ab --runs auto: status" "$rc" 0
expect_match "a verdict line per measure" "$(cat "$scratch/out")" '^  NS=2000000000: wall [0-9.]+ \([0-9.]+\.\.[0-9.]+\): [a-z]'
expect_match "twice the made-up in-function time: slower" "$(cat "$scratch/out")" \
	'^  NS=2000000000: in-function per call 2\.00[0-9] \([0-9.]+\.\.[0-9.]+\): slower$'
expect_eq "one basis: the table's in-function ratio is the verdict's" \
	"$(awk '/^NS=2000000000 / { print $NF }' "$scratch/out")" \
	"$(sed -n 's/^  NS=2000000000: in-function per call \([0-9.]*\) .*/\1/p' "$scratch/out")"
expect_match "the basis is stated once, in the header" "$(cat "$scratch/out")" \
	'^  over the same round.s run of NS=1000000000, the geometric mean of those ratios$'
expect_match "--runs auto stops once resolved, and says so" "$(cat "$scratch/out")" \
	'--runs auto: stopped after [0-9]+ rounds \([0-9.]+ s\): every verdict is resolved'
# Made-up times three times apart in turn, and a budget no round fits in.
ab --runs auto --profile --budget 0.01 --env NS=100000000 --env "NS=100000000 ALTERNATE=$scratch/count" -- sh "$scratch/fake.sh"
expect_match "--runs auto: at its first look, the smallest difference the budget would resolve" \
	"$(sed -n 1,2p "$scratch/out")" "^memshim ab: --runs auto: at the spread of the first 3 rounds, its last look within the budget,
  after [0-9]+ rounds, would resolve a difference of [0-9.]+% or more \(in-function\)$"
expect_match "--runs auto: a budget that runs out stops it" "$(cat "$scratch/out")" \
	'--runs auto: stopped after [0-9]+ rounds \([0-9.]+ s\): the rounds to the next look would overrun the budget'
expect_match "an unresolved verdict says how many runs would resolve it" "$(cat "$scratch/out")" \
	'^  env2: in-function per call [0-9.]+ \([0-9.]+\.\.[0-9.]+\): not resolved with [0-9]+ runs; about [0-9]+ runs would resolve [0-9.]+%$'

# A run of true is too short to time (under 20 ms) unless a busy machine
# kept every one of its runs waiting that long: then only its CPU time,
# which waiting does not add to, is too little (no test asserts a time).
ab --runs 9 --impl none,glibc -- true
if grep -q '^  none: too short to time:' "$scratch/out"; then
	expect_match "too short to time: said" "$(cat "$scratch/out")" '^  none: too short to time: [0-9.]+ ms per run; give it more work$'
	expect_eq "too short to time: no ratio" "$(awk '/^glibc / { print $4, $7 }' "$scratch/out")" "- -"
	expect_eq "too short to time: no verdict" "$(grep -c '^  glibc: \(wall\|cpu\)' "$scratch/out")" 0
else
	expect_match "too little CPU time to time: said" "$(cat "$scratch/out")" '^  none: cpu: too little CPU time to time: '
	skip "too short to time: every run of true waited 20 ms or more here (a busy machine)"
fi

# --tunables: the command runs without the library, with GLIBC_TUNABLES.
ab --runs 1 --show-output --tunables glibc.cpu.x86_rep_movsb_threshold=4096 --impl glibc -- \
	sh -c 'echo "tunables=$GLIBC_TUNABLES"; grep -c libmemshim /proc/self/maps || true'
expect_eq "--tunables: the child sees GLIBC_TUNABLES and no libmemshim; the library's settings see it" \
	"$(head -n 4 "$scratch/out" | tr '\n' ' ' | sed 's/[1-9][0-9]* $/N /')" "tunables=glibc.cpu.x86_rep_movsb_threshold=4096 0 tunables= N "
expect_match "--tunables: the setting's label" "$(cat "$scratch/out")" '^tunables1 '
expect_match "--tunables: the key says what it is" "$(cat "$scratch/out")" \
	'^  tunables1 +without the library, with GLIBC_TUNABLES=glibc\.cpu\.x86_rep_movsb_threshold=4096$'

loader=$(ldd "$T_MEMSHIM_TOOL" | awk '$1 ~ /^\/.*ld-linux/ { print $1 }')
if "$loader" --list-tunables >/dev/null 2>&1; then
	ab --tunables glibc.cpu.x86_rep_movsb_threshol=4096 -- true
	expect_match "--tunables: a name glibc does not list is refused" "$rc $(cat "$scratch/err")" \
		'^2 memshim ab: --tunables glibc does not know the tunable glibc\.cpu\.x86_rep_movsb_threshol \('
fi

# --profile: each run's dumps are read back (fake.sh's beside the library's).
before=$(ls "${TMPDIR:-/tmp}" | grep -c '^memshim-ab\.')
ab --runs 3 --profile=500 --show-output --impl none --env NS=1000000000 --env NS=2000000000 -- sh "$scratch/fake.sh"
expect_eq "--profile: status" "$rc" 0
expect_eq "--profile: nothing on stderr" "$(cat "$scratch/err")" ""
expect_eq "--profile=HZ reaches the library's settings only" \
	"$(grep -c '^profile=500$' "$scratch/out") $(grep -c '^profile=$' "$scratch/out")" "6 3"
expect_match "--profile: the recording's cost is the one measured (7 ms in a million calls), not a constant" \
	"$(cat "$scratch/out")" "cost, measured in these runs' profiles: 7\.[0-9] ns per call \(the mean over 6 runs\), which"
expect_match "--profile: the in-function time per call in the table" "$(cat "$scratch/out")" \
	'^NS=2000000000 .* [0-9]{4}\.[0-9]{2} \([0-9.]+\.\.[0-9.]+\) +2\.00[0-9]$'
expect_match "--profile: twice the in-function time per call: slower" "$(cat "$scratch/out")" \
	'^  NS=2000000000: in-function per call 2\.00[0-9] \([0-9.]+\.\.[0-9.]+\): slower$'
expect_match "--profile: the setting without the library says why it has none" "$(cat "$scratch/out")" \
	'^  none: in-function: not measured: the setting runs without the library'
expect_eq "--profile: the in-function heading names its basis, and only in-function lines follow it" \
	"$(sed -n '/^In-function time per call against NS=1000000000, the first setting run under the library:$/,$p' "$scratch/out" |
		sed 1d | grep -c -e ': wall ' -e ': cpu ')" 0
expect_eq "--profile: the wall and cpu headings name the first setting" \
	"$(grep -c -e '^Wall time against none:$' -e '^CPU time (user+system) against none:$' "$scratch/out")" 2
expect_eq "--profile: the dump folder is removed" "$(ls "${TMPDIR:-/tmp}" | grep -c '^memshim-ab\.')" "$before"
ab --runs 3 --profile --show-output --impl none --env NS=1000000000 -- sh "$scratch/fake.sh"
expect_eq "--profile without a rate: status, and the library's default rate" \
	"$rc $(grep -c '^profile=on$' "$scratch/out")" "0 3"

# A program that is not there: one line, the shell's status, before any run.
for case in "nosuchprog:127:there is no such command in PATH" "$scratch/nosuch:127:there is no such file" \
	"$scratch/small:126:it is not an executable file"; do
	prog=${case%%:*} rest=${case#*:}
	ab --runs 1 -- "$prog"
	expect_eq "ab -- ${prog##*/}: status ${rest%%:*}" "$rc" "${rest%%:*}"
	expect_eq "ab -- ${prog##*/}: says why, in one line" "$(cat "$scratch/err")" "memshim ab: cannot run $prog: ${rest#*:}"
	expect_eq "ab -- ${prog##*/}: no round ran, no table" "$(cat "$scratch/out")" ""
done
# A static program: the warning memshim run gives.
if printf 'int main(void) { return 0; }\n' >"$scratch/static.c" && $CC -static -o "$scratch/static" "$scratch/static.c" 2>/dev/null; then
	ab --runs 1 -- "$scratch/static"
	expect_match "ab -- a static program: run's warning" "$(cat "$scratch/err")" \
		"^memshim ab: $scratch/static is statically linked: LD_PRELOAD cannot reach it"
else
	echo "skip: no static C library to link a static program with"
fi

for args in "--runs 0 -- true" "--runs" "--impl nosuch -- true" "--env NOEQUALS -- true" "--frob -- true" "--runs 2" "true" \
	"--runs autox -- true" "--budget 0 -- true" "--profile=1 -- true" "--profile=fast -- true" "--tunables foo=1 -- true" \
	"--tunables glibc.=1 -- true" "--tunables glibc.cpu.x -- true" "--tunables glibc.a=1:: -- true" \
	"--tunables glibc.cpu.x86_rep_movsb_threshol=4096 -- true"; do
	# shellcheck disable=SC2086
	ab $args
	expect_eq "ab $args: exit status" "$rc" 2
	expect_eq "ab $args: one line on stderr" "$(wc -l <"$scratch/err")" 1
done
finish
