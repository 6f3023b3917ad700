#!/bin/sh
# Every environment variable the library and the memshim command read, as
# the sources name them (tests/check_manpage_env.py: MEMSHIM_* names in the
# code's strings, and every getenv's argument), has its place in the man
# page's ENVIRONMENT section, and each MEMSHIM_* one a row in the README's
# table.  Then the check itself: a man page without one variable, a README
# without one row, and a source that reads a new variable must each fail,
# naming the variable; a name only in a comment must not count; and a
# shipped row with a thresholds key the thresholds' table lacks must fail;
# and so must a man page without a variant variable of the settings' table,
# and a table without one variant setting.
. "${top_srcdir:-.}/tests/lib.sh"
need_python "the man page's variables"
check=$top_srcdir/tests/check_manpage_env.py
run_checker "variables" "$PYTHON" "$check" "$top_srcdir"

# A man page without MEMSHIM_DUMP_INTERVAL.
sed '/MEMSHIM_DUMP_INTERVAL/d' "$top_srcdir/doc/memshim.1" >"$scratch/memshim.1"
out=$("$PYTHON" "$check" "$top_srcdir" "$scratch/memshim.1" 2>&1)
expect_eq "a man page without one variable fails the check" "$?" 1
expect_match "the missing variable is named" "$out" \
	'^FAIL: man page, ENVIRONMENT: MEMSHIM_DUMP_INTERVAL \(named in [a-z/_]+\.[ch]\): missing$'
expect_eq "and only that one" "$(printf '%s\n' "$out" | grep -c '^FAIL')" 1

# A README whose table lacks MEMSHIM_BIND's row.
grep -v '^| `MEMSHIM_BIND`' "$top_srcdir/README.md" >"$scratch/README.md"
out=$("$PYTHON" "$check" "$top_srcdir" "$top_srcdir/doc/memshim.1" "$scratch/README.md" 2>&1)
expect_eq "a README without one variable's row fails the check" "$?" 1
expect_match "its variable is named" "$out" '^FAIL: README, the table of variables: MEMSHIM_BIND '

# Sources that read two new variables, one of them with getenv, and name a
# third in a comment only.
mkdir "$scratch/tree"
cp -R "$top_srcdir/shim" "$top_srcdir/dispatch" "$top_srcdir/dump" "$top_srcdir/preload" "$top_srcdir/tools" "$scratch/tree/"
cat >>"$scratch/tree/tools/measure/caches.c" <<'C'
/* MEMSHIM_ONLY_IN_A_COMMENT is not read. */
static const char *planted(void) { return getenv("PLANTED_VARIABLE") ? "MEMSHIM_PLANTED" : ""; }
C
out=$("$PYTHON" "$check" "$scratch/tree" "$top_srcdir/doc/memshim.1" "$top_srcdir/README.md" 2>&1)
expect_eq "a source that reads a new variable fails the check" "$?" 1
expect_match "the new MEMSHIM_* variable is named, with its file" "$out" \
	'^FAIL: man page, ENVIRONMENT: MEMSHIM_PLANTED \(named in tools/measure/caches\.c\): missing$'
expect_match "the new getenv is named" "$out" '^FAIL: man page, ENVIRONMENT: PLANTED_VARIABLE '
# A shipped row with a thresholds key the thresholds' table does not know.
mkdir -p "$scratch/rows/data" "$scratch/rows/dispatch"
cp -R "$top_srcdir/data/cpu-rows" "$scratch/rows/data/"
cp "$top_srcdir/dispatch/read_thresholds.c" "$top_srcdir/dispatch/calibration.h" "$scratch/rows/dispatch/"
cp -R "$top_srcdir/shim" "$top_srcdir/dump" "$top_srcdir/preload" "$top_srcdir/tools" "$scratch/rows/"
cp "$top_srcdir"/dispatch/*.[ch] "$scratch/rows/dispatch/"
row=$(ls "$scratch/rows/data/cpu-rows/"*.row | head -n 1)
echo 'thresholds planted_key=4096' >>"$row"
out=$("$PYTHON" "$check" "$scratch/rows" "$top_srcdir/doc/memshim.1" "$top_srcdir/README.md" 2>&1)
expect_eq "a row key missing from the thresholds' table fails the check" "$?" 1
expect_match "the key and its row are named" "$out" \
	"^FAIL: the thresholds' table: row key planted_key \\(in $(basename "$row")\\): missing\$"

# A man page without MEMSHIM_MEMMOVE, a variable of the settings' table.
sed '/MEMSHIM_MEMMOVE/d' "$top_srcdir/doc/memshim.1" >"$scratch/memmove.1"
out_man=$("$PYTHON" "$check" "$top_srcdir" "$scratch/memmove.1" 2>&1)
expect_eq "a man page without a variant variable fails the check" "$?" 1
expect_match "the table's setting and variable are named" "$out_man" \
	"^FAIL: the settings' table: S_MEMMOVE's variable MEMSHIM_MEMMOVE in the man page: missing\$"
# A settings' table without memset's entry.
sed '/\[S_MEMSET\]/d' "$top_srcdir/dispatch/settings.c" >"$scratch/rows/dispatch/settings.c"
out_table=$("$PYTHON" "$check" "$scratch/rows" "$top_srcdir/doc/memshim.1" "$top_srcdir/README.md" 2>&1)
expect_eq "a settings' table without a variant setting fails the check" "$?" 1
expect_match "the missing setting is named" "$out_table" \
	"^FAIL: the settings' table gives the variant settings: missing from dispatch/settings.c: S_MEMSET\$"

case $out in
*MEMSHIM_ONLY_IN_A_COMMENT*) fail "a name in a comment was taken for a variable" ;;
*) pass "a name in a comment is not a variable" ;;
esac
finish
