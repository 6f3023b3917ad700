#!/bin/sh
# No comment in the code cites a BENCHMARKS.md section number: the evidence
# behind a choice in the code is a decision of doc/decisions.md, cited by
# its id ("(D12)"), one the register defines.  Then the check itself: a
# source with such a citation, even one split across two comment lines, or
# with an id the register lacks, must fail, naming the file.
. "${top_srcdir:-.}/tests/lib.sh"
need_python "the code's citations"
check=$top_srcdir/tests/check_citations.py
run_checker "citations" "$PYTHON" "$check" "$top_srcdir"

mkdir -p "$scratch/tree/shim" "$scratch/tree/doc"
cp "$top_srcdir/doc/decisions.md" "$scratch/tree/doc/"
log=BENCHMARKS
printf '/* Tests 16 bytes last (%s.md,\n * section 24). */\n' "$log" >"$scratch/tree/shim/planted.c"
out=$("$PYTHON" "$check" "$scratch/tree" 2>&1)
expect_eq "a citation split over two comment lines fails the check" "$?" 1
expect_match "the file and line are named" "$out" '^FAIL: shim/planted\.c:1: '
printf '/* Tests 16 bytes last (D12). */\n' >"$scratch/tree/shim/planted.c"
"$PYTHON" "$check" "$scratch/tree" >/dev/null 2>&1
expect_eq "a decision id passes" "$?" 0
printf '/* Tests 16 bytes last (D%s). */\n' 999 >"$scratch/tree/shim/planted.c"
out=$("$PYTHON" "$check" "$scratch/tree" 2>&1)
expect_eq "an id the register does not define fails" "$?" 1
expect_match "the id is named" "$out" '^FAIL: shim/planted\.c:1: cites D9{3}, '
finish
