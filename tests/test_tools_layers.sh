#!/bin/sh
# The layers of tools/ (doc/design.md): the command table, one file per
# command, each command's machinery in its folder, what two share in util/;
# no circle among its modules and no dependency against the layers, in the
# includes and in the symbols the built objects use
# (tests/check_tools_layers.py).  Then the check itself, on a copy of the
# sources with a circle and a back edge put in: it must name both; and on
# one where the engines' order is broken (measure -> calibrate, util ->
# measure): it must name each; and on one where the tool includes the
# library's recording header and the dump's writer side a tool's header,
# past dump/: it must name both.
. "${top_srcdir:-.}/tests/lib.sh"
need_python "the layers of tools/"
check=$top_srcdir/tests/check_tools_layers.py
run_checker "layers" "$PYTHON" "$check" "$top_srcdir" "$top_builddir"

mkdir "$scratch/tree"
cp -R "$top_srcdir/tools" "$scratch/tree/"
echo '#include "tools/measure/progress.h"' >>"$scratch/tree/tools/measure/caches.c"
echo '#include "tools/measure/caches.h"' >>"$scratch/tree/tools/measure/progress.c"
echo '#include "tools/bench/bench.h"' >>"$scratch/tree/tools/measure/clock.c"
out=$("$PYTHON" "$check" "$scratch/tree" 2>&1)
expect_eq "a tree with a circle and a back edge fails the check" "$?" 1
expect_match "the circle is named" "$out" \
	'^FAIL: tools/ includes: no circle among the [0-9]+ modules: tools/measure/caches -> tools/measure/progress -> tools/measure/caches$'
expect_match "the back edge is named" "$out" \
	'^FAIL: tools/ includes: nothing against the layers: tools/measure/clock -> tools/bench/bench$'

mkdir "$scratch/engines"
cp -R "$top_srcdir/tools" "$scratch/engines/"
echo '#include "tools/calibrate/curves.h"' >>"$scratch/engines/tools/measure/measure.c"
echo '#include "tools/measure/clock.h"' >>"$scratch/engines/tools/util/quantile.c"
out=$("$PYTHON" "$check" "$scratch/engines" 2>&1)
expect_eq "a tree with the engines' order broken fails the check" "$?" 1
expect_match "both edges against the engines' order are named" "$out" \
	'^FAIL: tools/ includes: nothing against the layers: tools/measure/measure -> tools/calibrate/curves; tools/util/quantile -> tools/measure/clock$'
mkdir "$scratch/bypass"
cp -R "$top_srcdir/tools" "$top_srcdir/dump" "$top_srcdir/preload" "$scratch/bypass/"
echo '#include "preload/record.h"' >>"$scratch/bypass/tools/report/text.c"
echo '#include "tools/util/sort.h"' >>"$scratch/bypass/dump/write.c"
out=$("$PYTHON" "$check" "$scratch/bypass" 2>&1)
expect_eq "a tree that reaches past dump/ fails the check" "$?" 1
expect_match "both bypasses are named" "$out" \
	'^FAIL: the library and the tool reach each other only through dump/: dump/write.c -> tools/util/sort.h; tools/report/text.c -> preload/record.h$'
finish
