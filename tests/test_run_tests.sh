#!/bin/sh
# run-tests.sh's count line, on a made-up tree whose make check fails: the
# HOME check (tests/home-check.sh) that make skipped then is run and counted,
# and where it cannot run (no snapshot from before the tests) the count
# line says so.
. "${top_srcdir:-.}/tests/lib.sh"
tree=$scratch/tree
mkdir -p "$tree/tests"
cp "${top_srcdir:-.}/run-tests.sh" "$tree/"
printf '#!/bin/sh\nexit 0\n' >"$tree/configure"
chmod +x "$tree/configure"
printf '#!/bin/sh\necho "ok: the made-up HOME check"\n' >"$tree/tests/home-check.sh"
# make check: one test passes, one fails, so make stops before check-local.
printf 'check:\n\tprintf "# PASS: 1\\n# FAIL: 1\\n# SKIP: 0\\n" >test-suite.log\n\t$(SNAPSHOT)\n\texit 2\n' >"$tree/Makefile"

# Not the outer make check's flags; SNAPSHOT (a make variable from the
# environment) makes the snapshot that make check takes before its tests.
fresh_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$@"; }
fresh_make SNAPSHOT="touch tests/home-before.snapshot" sh "$tree/run-tests.sh" >"$scratch/out" 2>&1
expect_eq "a failed suite: the HOME check still runs and counts" "$(tail -n 1 "$scratch/out")" \
	"2 passed, 1 failed, 0 skipped"
rm -f "$tree/tests/home-before.snapshot" "$tree/tests/home-check.log"
fresh_make sh "$tree/run-tests.sh" >"$scratch/out" 2>&1
expect_eq "no snapshot to compare with: the count line says the HOME check did not run" \
	"$(tail -n 1 "$scratch/out")" "1 passed, 1 failed, 0 skipped (the HOME check did not run)"
finish
