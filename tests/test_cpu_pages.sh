#!/bin/sh
# Each CPU page (data/cpu-rows/measurements/*.md), and doc/variants.md's
# table of why each variant stays, is what bench/cpu-page.py makes of the
# rows and the CSVs they name, so a figure edited by hand, or a row or CSV
# changed without the page, fails here.  Then the check
# itself: a page with one generated figure changed must fail, naming the
# page; a change below the page's hand-written marker must not.
. "${top_srcdir:-.}/tests/lib.sh"
need_python "the CPU pages"
gen=$top_srcdir/bench/cpu-page.py
"$PYTHON" "$gen" --check "$top_srcdir" >"$scratch/check.out" 2>&1
expect_eq "every CPU page matches its row and CSVs (bench/cpu-page.py --check)" "$?" 0
sed 's/^/  /' "$scratch/check.out"

mkdir -p "$scratch/tree/data" "$scratch/tree/doc" "$scratch/tree/shim" "$scratch/tree/dispatch"
cp -R "$top_srcdir/data/cpu-rows" "$scratch/tree/data/"
cp "$top_srcdir/doc/variants.md" "$scratch/tree/doc/"
cp "$top_srcdir/shim/memshim_variants.h" "$scratch/tree/shim/"
cp "$top_srcdir/dispatch/variants.c" "$top_srcdir/dispatch/builtin.c" "$scratch/tree/dispatch/"
page=$scratch/tree/data/cpu-rows/measurements/amd-zen4-model17.md
# One figure of the generated part, as a hand might "correct" it.
awk '!done && /^\| `avx512` \|/ { sub(/\| [0-9.]+ \|/, "| 0.50 |"); done = 1 } { print }' \
	"$top_srcdir/data/cpu-rows/measurements/amd-zen4-model17.md" >"$page"
out=$("$PYTHON" "$gen" --check "$scratch/tree" 2>&1)
expect_eq "a generated figure edited by hand fails the check" "$?" 1
expect_match "the page is named" "$out" '^FAIL: .*amd-zen4-model17\.md differs'

cp "$top_srcdir/data/cpu-rows/measurements/amd-zen4-model17.md" "$page"
echo "A line a person added to the notes." >>"$page"
"$PYTHON" "$gen" --check "$scratch/tree" >/dev/null 2>&1
expect_eq "the hand-written notes are the page's own" "$?" 0
# A variant retired, or its lead edited, without the data saying so.
sed 's/^| `avx2_xmm_erms` | none | [0-9]* |/| `avx2_xmm_erms` | none | 7 |/' "$top_srcdir/doc/variants.md" >"$scratch/tree/doc/variants.md"
out=$("$PYTHON" "$gen" --check "$scratch/tree" 2>&1)
expect_eq "doc/variants.md's table edited by hand fails the check" "$?" 1
expect_match "and names doc/variants.md" "$out" '^FAIL: .*doc/variants\.md differs'
finish
