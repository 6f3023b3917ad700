#!/bin/sh
# The places that spell setting names by hand agree with the settings'
# table (tests/check_setting_names.py): dispatch/cpu_rows.awk and memshim
# bench --help.  Then the check itself, on copies in the scratch directory:
# an awk that takes a threshold key the table lacks, a help without a
# threshold column of the CSV, and a table without a variable the help
# gives must each fail, naming what disagrees.
. "${top_srcdir:-.}/tests/lib.sh"
need_python "the setting names"
check=$top_srcdir/tests/check_setting_names.py
run_checker "setting names" "$PYTHON" "$check" "$top_srcdir"

# tree: a fresh copy of the four files the check reads.
tree() {
	rm -rf "$scratch/tree"
	mkdir -p "$scratch/tree/dispatch" "$scratch/tree/tools/bench"
	cp "$top_srcdir/dispatch/settings.c" "$top_srcdir/dispatch/cpu_rows.awk" "$scratch/tree/dispatch/"
	cp "$top_srcdir/tools/bench.c" "$scratch/tree/tools/"
	cp "$top_srcdir/tools/bench/csv.h" "$scratch/tree/tools/bench/"
}
tree
sed 's/threshold_c\["stosb"\]/threshold_c["auto_setsb"]/' "$top_srcdir/dispatch/cpu_rows.awk" \
	>"$scratch/tree/dispatch/cpu_rows.awk"
out=$("$PYTHON" "$check" "$scratch/tree" 2>&1)
expect_eq "an awk key the table lacks fails the check" "$?" 1
expect_match "the keys are named" "$out" \
	'^FAIL: dispatch/cpu_rows.awk takes the table.s threshold row keys: awk: .*auto_setsb.*; table: '

tree
sed 's/movsb_stop/where_it_stops/g' "$top_srcdir/tools/bench.c" >"$scratch/tree/tools/bench.c"
out=$("$PYTHON" "$check" "$scratch/tree" 2>&1)
expect_eq "a help without a threshold column fails the check" "$?" 1
expect_match "the column is named" "$out" '^FAIL: bench --help names the CSV.s threshold column movsb_stop: missing$'

tree
sed 's/"MEMSHIM_MEMCPY"/"MEMSHIM_COPY"/' "$top_srcdir/dispatch/settings.c" >"$scratch/tree/dispatch/settings.c"
out=$("$PYTHON" "$check" "$scratch/tree" 2>&1)
expect_eq "a variable of the help the table lacks fails the check" "$?" 1
expect_match "the variable is named" "$out" '^FAIL: bench --help.s MEMSHIM_MEMCPY is a variant setting of the table'
finish
