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
expect_eq "ab: a row per setting, in order" "$(awk '/^(none|fsrm|MEMSHIM_IMPL=scalar) / { print $1 }' "$scratch/out" | tr '\n' ' ')" \
	"none fsrm MEMSHIM_IMPL=scalar "
expect_match "the first setting's ratio is 1" "$(grep '^none ' "$scratch/out")" ' 1\.000 '
expect_eq "the command's output went to /dev/null" "$(LC_ALL=C tr -dc '\037\213' <"$scratch/out" | wc -c)" 0

ab --runs 2 --impl fsrm --show-output -- echo hello-from-ab
expect_match "--show-output keeps it" "$(cat "$scratch/out")" 'hello-from-ab'

ab --runs 2 --impl none,glibc -- sh -c 'exit 3'
expect_eq "a failing command: status 1" "$rc" 1
expect_match "a failing command is reported" "$(cat "$scratch/err")" 'glibc: the command failed in 2 of 2 runs \(exit status 3\)'

# Work that takes tens of ms: $WORK loop turns; with ALTERNATE (a counter
# file), three times that and a third of it in turn.
cat >"$scratch/work.sh" <<'EOF'
n=$WORK
if [ -n "$ALTERNATE" ]; then
	k=$(cat "$ALTERNATE" 2>/dev/null || echo 0)
	echo $((k + 1)) >"$ALTERNATE"
	if [ $((k % 2)) -eq 0 ]; then n=$((n * 3)); else n=$((n / 3)); fi
fi
exec awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) s += i }'
EOF
ab --runs auto --budget 60 --env WORK=3000000 --env WORK=6000000 -- sh "$scratch/work.sh"
expect_eq "ab --runs auto: status" "$rc" 0
expect_match "a verdict line per measure" "$(cat "$scratch/out")" '^  WORK=6000000: wall [0-9.]+ \([0-9.]+\.\.[0-9.]+\): [a-z]'
expect_match "twice the work: slower" "$(cat "$scratch/out")" '^  WORK=6000000: cpu [0-9.]+ \([0-9.]+\.\.[0-9.]+\): slower$'
expect_match "--runs auto stops once resolved, and says so" "$(cat "$scratch/out")" \
	'--runs auto: stopped after [0-9]+ rounds \([0-9.]+ s\): every verdict is resolved'
ab --runs auto --budget 1 --env WORK=3000000 --env "WORK=3000000 ALTERNATE=$scratch/count" -- sh "$scratch/work.sh"
expect_match "--runs auto: a budget that runs out stops it" "$(cat "$scratch/out")" \
	'--runs auto: stopped after [0-9]+ rounds \([0-9.]+ s\): the rounds to the next look would overrun the budget'
expect_match "an unresolved verdict says how many runs would resolve it" "$(cat "$scratch/out")" \
	'ALTERNATE=.*: cpu [0-9.]+ \([0-9.]+\.\.[0-9.]+\): no difference resolvable with [0-9]+ runs; about [0-9]+ runs would resolve [0-9.]+%$'

ab --runs 3 --impl none,glibc -- true
expect_match "too short to time: said" "$(cat "$scratch/out")" '^  none: too short to time: [0-9.]+ ms per run; give it more work$'
expect_eq "too short to time: no ratio" "$(awk '$1 == "glibc" { print $4, $7 }' "$scratch/out")" "- -"
expect_eq "too short to time: no verdict" "$(grep -c '^  glibc: \(wall\|cpu\)' "$scratch/out")" 0

# --tunables: the command runs without the library, with GLIBC_TUNABLES.
ab --runs 1 --show-output --tunables glibc.cpu.x86_rep_movsb_threshold=4096 --impl glibc -- \
	sh -c 'echo "tunables=$GLIBC_TUNABLES"; grep -c libmemshim /proc/self/maps || true'
expect_eq "--tunables: the child sees GLIBC_TUNABLES and no libmemshim; the library's settings see it" \
	"$(head -n 4 "$scratch/out" | tr '\n' ' ' | sed 's/[1-9][0-9]* $/N /')" "tunables=glibc.cpu.x86_rep_movsb_threshold=4096 0 tunables= N "
expect_match "--tunables: the setting's label" "$(cat "$scratch/out")" '^tunables:glibc\.cpu\.x86_r'

loader=$(ldd "$T_MEMSHIM_TOOL" | awk '$1 ~ /^\/.*ld-linux/ { print $1 }')
if "$loader" --list-tunables >/dev/null 2>&1; then
	ab --tunables glibc.cpu.x86_rep_movsb_threshol=4096 -- true
	expect_match "--tunables: a name glibc does not list is refused" "$rc $(cat "$scratch/err")" \
		'^2 memshim ab: --tunables glibc does not know the tunable glibc\.cpu\.x86_rep_movsb_threshol \('
fi

# --profile: each run's dumps are read back.  The command writes one of its
# own beside the library's: NS ns inside 1000000 memcpy calls of 100 B.
cat >"$scratch/fake.sh" <<'EOF'
echo "profile=$MEMSHIM_PROFILE"
samples=$((NS / 1000000))
printf '%s\n' "memshim-histogram 2" "pid $$" "program fake" "reason exit" "variant memcpy glibc" \
	"function memcpy" "bucket 96 104 1000000 100000000" "profile 1000 3000 3000000000 3000000000 3000000000 0" \
	"function memcpy" "cpu 96 104 $samples $NS" "end" >"${MEMSHIM_HIST%/*}/fake.$$"
EOF
before=$(ls "${TMPDIR:-/tmp}" | grep -c '^memshim-ab\.')
ab --runs 3 --profile=500 --show-output --impl none --env NS=1000000000 --env NS=2000000000 -- sh "$scratch/fake.sh"
expect_eq "--profile: status" "$rc" 0
expect_eq "--profile: nothing on stderr" "$(cat "$scratch/err")" ""
expect_eq "--profile=HZ reaches the library's settings only" \
	"$(grep -c '^profile=500$' "$scratch/out") $(grep -c '^profile=$' "$scratch/out")" "6 3"
expect_match "--profile: in-function ns per call in the table" "$(cat "$scratch/out")" \
	'^NS=2000000000 .* [0-9]{4}\.[0-9]{2} \([0-9.]+\.\.[0-9.]+\) +2\.00[0-9]$'
expect_match "--profile: twice the in-function time per call: slower" "$(cat "$scratch/out")" \
	'^  NS=2000000000: in-function per call 2\.00[0-9] \([0-9.]+\.\.[0-9.]+\): slower$'
expect_match "--profile: the setting without the library says why it has none" "$(cat "$scratch/out")" \
	'^  none: in-function: not measured: the setting runs without the library'
expect_eq "--profile: the dump folder is removed" "$(ls "${TMPDIR:-/tmp}" | grep -c '^memshim-ab\.')" "$before"
ab --runs 3 --profile --show-output --impl none --env NS=1000000000 -- sh "$scratch/fake.sh"
expect_eq "--profile without a rate: status, and the library's default rate" \
	"$rc $(grep -c '^profile=on$' "$scratch/out")" "0 3"

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
