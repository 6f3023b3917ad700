#!/bin/sh
# The layers of tools/ (doc/design.md): the command table, one file per
# command, each command's machinery in its folder, what two share in util/;
# no circle among its modules and no dependency against the layers, in the
# includes and in the symbols the built objects use
# (tests/check_tools_layers.py).  Then the check itself, on a copy of the
# sources with a circle and a back edge put in: it must name both.
. "${top_srcdir:-.}/tests/lib.sh"
need_python "the layers of tools/"
check=$top_srcdir/tests/check_tools_layers.py
run_checker "layers" "$PYTHON" "$check" "$top_srcdir" "$top_builddir"

mkdir "$scratch/tree"
cp -R "$top_srcdir/tools" "$scratch/tree/"
echo '#include "tools/util/progress.h"' >>"$scratch/tree/tools/util/caches.c"
echo '#include "tools/util/caches.h"' >>"$scratch/tree/tools/util/progress.c"
echo '#include "tools/bench/bench.h"' >>"$scratch/tree/tools/util/clock.c"
out=$("$PYTHON" "$check" "$scratch/tree" 2>&1)
expect_eq "a tree with a circle and a back edge fails the check" "$?" 1
expect_match "the circle is named" "$out" \
	'^FAIL: tools/ includes: no circle among the [0-9]+ modules: tools/util/caches -> tools/util/progress -> tools/util/caches$'
expect_match "the back edge is named" "$out" \
	'^FAIL: tools/ includes: nothing against the layers: tools/util/clock -> tools/bench/bench$'
finish
