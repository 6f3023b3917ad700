#!/bin/sh
# No circle between the compiled files of shim/, dispatch/ and preload/: a
# file needs another when its object uses a symbol the other's defines
# (tests/check_object_cycles.py reads them with nm).  Then the check
# itself, on a copy of the symbol tables with one need put in that closes
# a circle: it must fail and name it.
. "${top_srcdir:-.}/tests/lib.sh"
need_python "circles between compiled files"
check=$top_srcdir/tests/check_object_cycles.py
run_checker "objects" "$PYTHON" "$check" "$top_srcdir" "$top_builddir"

"$PYTHON" "$check" "$top_srcdir" "$top_builddir" --print >"$scratch/tables"
defines() { awk -v s="$1" '$2 == "D" && $3 == s { print $1 }' "$scratch/tables"; }
# The configuration uses the start-up environment's reader; planted: that
# reader uses config_get.
low=$(defines early_getenv) high=$(defines config_get)
expect_match "the tables hold the environment's reader and the configuration" "$low $high" '^dispatch/[a-z_]+ dispatch/[a-z_]+$'
uses=$(awk -v h="$high" -v l="$low" 'FNR == NR { if ($1 == l && $2 == "D") d[$3] = 1; next }
	$1 == h && $2 == "U" && ($3 in d)' "$scratch/tables" "$scratch/tables" | wc -l)
expect_match "the configuration uses the reader's symbols" "$uses" '^ *[1-9][0-9]*$'
echo "$low U config_get" >>"$scratch/tables"
out=$("$PYTHON" "$check" --tables "$scratch/tables" 2>&1)
expect_eq "tables with a circle planted fail the check" "$?" 1
expect_match "the circle is named, through the planted need" "$out" \
	"^FAIL: no circle between the [0-9]+ compiled files of shim, dispatch, dump, preload: .*$low -> $high( |\$)"
finish
