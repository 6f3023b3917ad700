#!/bin/sh
# The round trip dump -> memshim report --fleetbench-csv -> memshim bench
# --draws (tests/fleetbench_check.py): the CSV files as google/fleetbench's
# reader takes them, holding what report --json says was recorded, and the
# sizes, alignments and overlaps bench draws from them within sampling error
# of it; for a program with known calls and for sqlite3 (SKIP of that part
# without sqlite3).
. "${top_srcdir:-.}/tests/lib.sh"
LC_ALL=C
export LC_ALL
tool=$T_MEMSHIM_TOOL
top_builddir=$(cd "$top_builddir" && pwd)
top_srcdir=$(cd "$top_srcdir" && pwd)
cd "$scratch" || exit 1
draws=200000

# round_trip WHAT DUMP...: report's CSV files, bench's draws from each, the checks.
round_trip() {
	what=$1
	shift
	"$tool" report --json "$@" >"$what.json"
	"$tool" report --fleetbench-csv "$what-" "$@" >/dev/null
	expect_eq "$what: report --fleetbench-csv writes three files" "$?:$(ls "$what"-*.csv | wc -l)" 0:3
	for f in Memcpy Memmove Memset; do
		"$tool" bench --distribution "$what-$f.csv" --draws $draws >"$what-draws-$f.txt" 2>err
		expect_eq "$what: bench --draws reads $what-$f.csv" "$?:$(cat err)" "0:"
	done
	run_checker "$what" python3 "$top_srcdir/tests/fleetbench_check.py" "$what.json" "$what-" "$what-draws-"
}

# Known calls: memcpy 100, 4096 and 17 bytes, memmove 200 bytes overlapping
# both ways and 50 not, memset 1000, 33 and 5 (tests/hist_program.c).
preloaded env MEMSHIM_DUMP="$scratch/known" "$top_builddir/tests/hist_program" calls 1000
round_trip known known
expect_match "known: memmove's overlap line says 2 calls in 3" "$(sed -n 2p known-Memmove.csv)" '^0:0\.33[0-9]*,1:0\.66[0-9]*$'
"$tool" bench --distribution known-Memmove.csv --draws 0 >/dev/null 2>err
expect_match "bench --draws 0 is a usage error" "$?:$(cat err)" '^2:.*--draws "0" is not a whole number'

# A real program: sqlite3 building, scanning and indexing a table of blobs.
if command -v sqlite3 >/dev/null; then
	cat >sq.sql <<'SQL'
CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, data BLOB);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000)
INSERT INTO t SELECT x, 'row-' || x, randomblob(100 + (x * 7919) % 1900) FROM c;
SELECT sum(length(substr(data, 10, 500))) FROM t;
CREATE INDEX ti ON t(name);
UPDATE t SET data = substr(data, 50) WHERE id % 3 = 0;
SQL
	"$tool" record -o sqlite -- sh -c 'sqlite3 :memory: <sq.sql' >/dev/null 2>&1
	round_trip sqlite sqlite/merged
else
	echo "SKIP: sqlite3 is not installed (the real-program round trip)"
fi

# A function with no calls gets no file (an empty distribution is a line
# fleetbench's reader refuses), and one line says so.
cat >"$scratch/nomemset.c" <<'C'
#include <string.h>
int main(void) { static char a[64], b[64]; volatile size_t n = 40; memcpy(a, b, n); memmove(a + 1, a, n); return a[0]; }
C
if ${CC:-cc} -O0 -fno-builtin -o "$scratch/nomemset" "$scratch/nomemset.c" 2>/dev/null; then
	mkdir "$scratch/nm"
	MEMSHIM_DUMP="$scratch/nm/h.%p" LD_PRELOAD="$MEMSHIM_LIBRARY" "$scratch/nomemset"
	"$tool" report --fleetbench-csv "$scratch/nm/out-" "$scratch"/nm/h.* >/dev/null 2>"$scratch/nm.err"
	expect_eq "no memset calls: status 0, one line" "$?:$(wc -l <"$scratch/nm.err")" "0:1"
	expect_match "it names the file not written" "$(cat "$scratch/nm.err")" 'no memset calls recorded: .*out-Memset\.csv not written$'
	expect_eq "and writes the others only" "$(cd "$scratch/nm" && ls out-*)" "$(printf 'out-Memcpy.csv\nout-Memmove.csv')"
else
	skip "no C compiler: a function without calls in --fleetbench-csv"
fi
finish
