#!/bin/sh
# memshim record stopped by a signal, and the program's output kept clean:
# SIGTERM or SIGHUP to record reaches the program (a python3 that copies in a
# loop), record waits for it, merges what it dumped and exits with its
# status; a second SIGTERM changes none of that; Ctrl-C on a terminal reaches
# the program once; SIGKILL of record still
# stops the program (SIGTERM, through PR_SET_PDEATHSIG) and leaves a
# directory report reads.  The report goes to stderr or --report FILE, never
# into the command's standard output (gzip -d -c through record, byte for
# byte), and SIGKILL of the command itself is named as the reason nothing
# was recorded.
. "${top_srcdir:-.}/tests/lib.sh"
LC_ALL=C
export LC_ALL
tool=$T_MEMSHIM_TOOL
case $top_builddir in /*) ;; *) top_builddir=$(pwd)/$top_builddir ;; esac
cd "$scratch" || exit 1
python=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -x "$python" ] || { echo "SKIP: no python3"; exit 77; }

# The program writes its pid to $1 once it copies, then copies until a
# signal ends it; with "handle" it leaves by exit(5) on SIGTERM instead.
cat >loop.py <<'EOF'
import os, signal, sys
if len(sys.argv) > 2:
    signal.signal(signal.SIGTERM, lambda *_: os._exit(5))
b = bytearray(1 << 16)
c = bytes(b)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(os.getpid()))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    c = bytes(b)
EOF
pids=""
trap 'for p in $pids; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$scratch"' EXIT
# started NAME: waits (10 s at most) until the program has written NAME; its pid
started() {
	n=0
	while [ ! -s "$1" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	cat "$1" 2>/dev/null
	pids="$pids $(cat "$1" 2>/dev/null)"
}
# gone PID: whether the process has ended within 10 s
gone() {
	n=0
	while kill -0 "$1" 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	kill -0 "$1" 2>/dev/null && echo running || echo gone
}
# record_loop DIR SIGNAL... [-- ARGS]: records loop.py in DIR, sends record
# each SIGNAL once the program copies; $rc record's status, $child the program's pid
record_loop() {
	dir=$1
	shift
	signals=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do signals="$signals $1"; shift; done
	[ "$1" = -- ] && shift
	# the signals at default, as a shell starts a job, even where this test
	# was started with some ignored (nohup): ignored, they would never end it
	env --default-signal=HUP,INT,TERM "$tool" record -o "$dir" -- "$python" loop.py "$dir.pid" "$@" \
		>"$dir.out" 2>"$dir.err" &
	record=$!
	child=$(started "$dir.pid")
	for s in $signals; do kill -"$s" "$record"; done
	wait "$record"
	rc=$?
}

record_loop term TERM
expect_eq "SIGTERM to record: its status is the program's (143), and the program is gone" \
	"$rc:$(gone "$child")" "143:gone"
expect_match "... record says what happened" "$(cat term.err)" \
	'^memshim record: SIGTERM: passed on to the command, which ended by SIGTERM; the recording holds what its processes dumped$'
expect_match "... and reports the recording, on stderr" "$(cat term.err)" '^python3[.0-9]*, 1 process'
"$tool" report term >report.txt 2>report.err
expect_match "... memshim report DIR reads it" "$?:$(cat report.err):$(head -n 1 report.txt)" '^0::python3[.0-9]*, 1 process'
expect_eq "... its stdout is the program's (empty)" "$(cat term.out)" ""

record_loop handled TERM -- handle
expect_eq "SIGTERM, which the program handles by exit(5): record's status is 5" "$rc:$(gone "$child")" "5:gone"
expect_match "... said" "$(cat handled.err)" 'passed on to the command, which exited with status 5;'

record_loop twice TERM TERM
expect_eq "two SIGTERMs: status 143, the program gone" "$rc:$(gone "$child")" "143:gone"
expect_match "... and the recording merged" "$(ls twice):$("$tool" report twice 2>&1 | head -n 1)" '^merged:python3'

record_loop hup HUP
expect_eq "SIGHUP to record: passed on (129)" "$rc:$(gone "$child")" "129:gone"

# Ctrl-C on a terminal (a pty): the terminal's SIGINT reaches the command in
# record's process group directly; record does not send it a second one,
# and says where it came from.
"$python" - "$tool" "$python" >ctrlc.txt 2>&1 <<'EOF'
import os, pty, signal, sys, time
try:
    pid, fd = pty.fork()
except OSError as e:
    sys.exit("no pty: %s" % e)
if pid == 0:
    # As a terminal's shell starts a job: SIGINT not ignored, even where this
    # test runs in the background (an asynchronous list ignores it).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.execv(sys.argv[1], ["memshim", "record", "-o", "ctrlc", "--", sys.argv[2], "loop.py", "ctrlc.pid"])
for _ in range(100):
    if os.path.exists("ctrlc.pid") and open("ctrlc.pid").read():
        break
    time.sleep(0.1)
os.write(fd, b"\x03")
signal.alarm(60)  # a command that outlives the Ctrl-C fails the test, never hangs it
out = b""
while True:
    try:
        got = os.read(fd, 4096)
    except OSError:
        break
    if not got:
        break
    out += got
print("status", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
print("\n".join(l for l in out.decode(errors="replace").splitlines() if l.startswith(("memshim record", "python3"))))
EOF
pids="$pids $(cat ctrlc.pid 2>/dev/null)"
if grep -q '^no pty' ctrlc.txt; then
	skip "Ctrl-C on a terminal: $(cat ctrlc.txt)"
else
expect_match "Ctrl-C on a terminal: record's status 130, and the program gone" \
	"$(head -n 1 ctrlc.txt):$(gone "$(cat ctrlc.pid)")" '^status 130:gone$'
expect_match "... said as the terminal's" "$(cat ctrlc.txt)" \
	'^memshim record: SIGINT from the terminal: the command got it too, and ended by SIGINT; the recording holds'
expect_match "... and reported" "$(cat ctrlc.txt)" '^python3[.0-9]*, 1 process'
fi

# SIGKILL of record: the program still gets SIGTERM, dumps, and the directory
# (processes/, no merged) is read by report, and refused by record -o.
record_loop killed KILL
expect_eq "SIGKILL of record: the program is stopped too" "$(gone "$child")" gone
"$tool" report killed >report.txt 2>report.err
expect_match "... memshim report DIR reads the unmerged dumps" "$?:$(cat report.err):$(head -n 1 report.txt)" \
	'^0::python3[.0-9]*, 1 process'
"$tool" record -o killed -- true >/dev/null 2>record.err
expect_match "... record -o DIR refuses it, and says report reads it" "$?:$(cat record.err)" \
	'^2:memshim record: killed holds a recording already \(memshim report killed reads it\)'

# The program killed by SIGKILL has no chance to dump: said, not "static or Go".
"$tool" record -o sigkill -- "$python" -c 'import os; bytes(bytearray(1 << 16)); os.kill(os.getpid(), 9)' \
	>/dev/null 2>sigkill.err
expect_eq "a command killed by SIGKILL: 137, and the reason named" "$?:$(cat sigkill.err)" \
	"137:memshim record: the command was killed by SIGKILL, which leaves a process no chance to dump: nothing was recorded"

# The report never goes into the command's stdout.
head -c 3000000 "$top_builddir/tools/memshim" | gzip -1 >input.gz
gzip -d -c input.gz >expected
"$tool" record -o gz -- gzip -d -c input.gz >out 2>gz.err
expect_eq "record -- gzip -d -c F >out: out is gzip's own, byte for byte" "$?:$(cmp out expected && echo same)" "0:same"
expect_match "... the report on stderr" "$(cat gz.err)" '^gzip, 1 process'
"$tool" record -o gz-closed -- gzip -d -c input.gz >out 2>&-
expect_eq "... and with stderr closed (2>&-): out is still gzip's alone" "$?:$(cmp out expected && echo same)" "0:same"
"$tool" record -o gz2 --report gz2.txt -- gzip -d -c input.gz >out 2>gz2.err
expect_eq "record --report FILE: out is gzip's, stderr empty, FILE the report" \
	"$?:$(cmp out expected && echo same):$(cat gz2.err):$(head -n 1 gz2.txt | cut -d, -f1)" "0:same::gzip"
"$tool" record -o gz3 --report gz2.txt -- gzip -d -c input.gz >out 2>gz3.err
expect_match "--report of an existing FILE: refused before anything runs" \
	"$?:$(cat out | wc -c):$(ls -d gz3 2>/dev/null):$(head -n 1 gz2.txt | cut -d, -f1):$(cat gz3.err)" \
	'^2:0::gzip:memshim record: cannot write the report to gz2.txt: File exists \(record never replaces a file'
finish
