#!/bin/sh
# run-tests.sh on a made-up tree whose make check prints make's chatter and
# automake's per-test lines, one test failing: the output is one line per
# test, the failed test's log, what was not checked (each reason once) and
# the count, which is automake's summary;
# the chatter is kept in tests/run-tests.make.log and shown with --verbose;
# a build that fails says so in the count line.
. "${top_srcdir:-.}/tests/lib.sh"
tree=$scratch/tree
mkdir -p "$tree/tests"
cp "${top_srcdir:-.}/run-tests.sh" "$tree/"
printf '#!/bin/sh\nexit 0\n' >"$tree/configure"
chmod +x "$tree/configure"
: >"$tree/tests/install-packages.sh"
# make check (TESTS= on the command line: the build only, no test).
cat >"$tree/Makefile" <<'MAKE'
TESTS = tests/a tests/b tests/c
all:
	@echo "make[1]: Entering directory '/made-up'"
	@echo "gcc -c -o x.o x.c"
	@$(FAIL_BUILD)
check: all
	@if [ -n "$(TESTS)" ]; then \
		echo "make[2]: Entering directory '/made-up'"; \
		echo "PASS: tests/a"; echo "FAIL: tests/b"; echo "PASS: tests/c"; \
		printf ':global-test-result: PASS\n' >tests/a.trs; printf 'ok: a\nSKIP: no frob\nSKIP: no frob\n' >tests/a.log; \
		printf ':global-test-result: FAIL\n' >tests/b.trs; echo "FAIL: the detail of b" >tests/b.log; \
		printf ':global-test-result: PASS\n' >tests/c.trs; printf 'ok: c\nSKIP: no frob\nSKIP: no bar\n' >tests/c.log; \
		printf '# TOTAL: 3\n# PASS:  2\n# SKIP:  0\n# XFAIL: 0\n# FAIL:  1\n# XPASS: 0\n# ERROR: 0\n' >test-suite.log; \
		echo "make: *** [Makefile:1: check] Error 2"; exit 2; \
	fi
MAKE

# Not the outer make check's flags.
fresh_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$@"; }
fresh_make sh "$tree/run-tests.sh" >"$scratch/out" 2>&1
expect_eq "the count is automake's summary" "$(tail -n 1 "$scratch/out")" "2 passed, 1 failed, 0 skipped"
expect_eq "one line per test, in the order they ended" "$(grep -E '^(PASS|FAIL): tests/' "$scratch/out")" \
	"PASS: tests/a
FAIL: tests/b
PASS: tests/c"
expect_match "the failed test's log, under its name" "$(cat "$scratch/out")" '---- tests/b\.log
FAIL: the detail of b'
expect_eq "no other test's log" "$(grep -c '^ok: ' "$scratch/out")" 0
expect_eq "what was not checked: each reason once, with the tests that gave it" \
	"$(sed -n '/^Not checked on /,/^this machine/p' "$scratch/out" | grep '^  ')" "  no bar (tests/c)
  no frob (tests/a, tests/c)"
expect_eq "no make chatter" "$(grep -c 'make\[\|gcc\|\*\*\*' "$scratch/out")" 0
expect_match "the chatter is kept in tests/run-tests.make.log" "$(cat "$tree/tests/run-tests.make.log")" 'Entering directory'
fresh_make sh "$tree/run-tests.sh" --verbose >"$scratch/out" 2>&1
expect_match "--verbose: the chatter shown" "$(cat "$scratch/out")" 'gcc -c -o x\.o x\.c'
expect_eq "--verbose: the same count" "$(tail -n 1 "$scratch/out")" "2 passed, 1 failed, 0 skipped"
fresh_make sh "$tree/run-tests.sh" --frobnicate >"$scratch/out" 2>&1
expect_eq "an unknown option: status 2" "$?" 2
fresh_make FAIL_BUILD=false sh "$tree/run-tests.sh" >"$scratch/out" 2>&1
expect_eq "a failed build: status 1" "$?" 1
expect_eq "a failed build: the count line says so" "$(tail -n 1 "$scratch/out")" \
	"0 passed, 1 failed (the build failed before any test ran)"
finish
