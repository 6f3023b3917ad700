"""Fails when a place that spells setting names by hand disagrees with the
settings' table (dispatch/settings.c):

    check_setting_names.py TOP

- dispatch/cpu_rows.awk, which compiles the shipped CPU rows: the keys its
  "thresholds" line takes (threshold_c["KEY"], and KEY=BYTES in its
  messages) must be the table's threshold row keys, all of them, and its
  "choice" lines' function names, in order, the variant settings' row keys;
- memshim bench --help (tools/bench.c): every threshold column of the CSV
  (tools/bench/csv.h's header) that the table names must be in the help,
  every auto_* word of the help a threshold's name, and every MEMSHIM_*
  variable it gives for a variant setting one of the table's."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_lines import check, status  # noqa: E402
from check_manpage_env import table_rows, VARIANT_SETTINGS  # noqa: E402

FUNCTION_SETTINGS = ("S_MEMCPY", "S_MEMMOVE", "S_MEMSET")


def read(top, path):
    with open(os.path.join(top, path), encoding="utf-8") as f:
        return f.read()


def check_awk(top, rows):
    awk = read(top, "dispatch/cpu_rows.awk")
    wanted = {r[4] for r in rows if "T_" in r[0] and r[4]}
    taken = set(re.findall(r'threshold_c\["(\w+)"\]', awk))
    told = set(re.findall(r"(\w+)=(?:N|BYTES)\b", awk))
    check("dispatch/cpu_rows.awk takes the table's threshold row keys", taken == wanted,
          "awk: %s; table: %s" % (", ".join(sorted(taken)), ", ".join(sorted(wanted))))
    check("dispatch/cpu_rows.awk's messages name the table's threshold row keys", told == wanted,
          "awk: %s; table: %s" % (", ".join(sorted(told)), ", ".join(sorted(wanted))))
    by_setting = {r[0]: r[4] for r in rows}
    names = re.findall(r'names\[\d\] = "(\w+)"', awk)
    expected = [by_setting.get(s) for s in FUNCTION_SETTINGS]
    check("dispatch/cpu_rows.awk's choice names are the table's row keys, in order", names == expected,
          "awk: %s; table: %s" % (names, expected))


def help_text(top):
    """The text of bench's help string (tools/bench.c's bench_help)."""
    source = read(top, "tools/bench.c")
    m = re.search(r"bench_help\[\] =(.*?);\n", source, re.S)
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))) if m else ""


def check_bench_help(top, rows):
    text = help_text(top)
    check("tools/bench.c has bench_help", text != "", "not found")
    names = {r[2] for r in rows if "T_" in r[0]}
    header = re.search(r'#define BENCH_CSV_HEADER((?:[^\n]*\\\n)*[^\n]*)', read(top, "tools/bench/csv.h"))
    joined = "".join(re.findall(r'"([^"]*)"', header.group(1))) if header else ""
    columns = set(joined.replace("\\n", "").split(",")) - {""}
    check("tools/bench/csv.h has the CSV header", columns != set(), "not found")
    for column in sorted(columns & names):
        check("bench --help names the CSV's threshold column %s" % column,
              re.search(r"\b%s\b" % column, text) is not None, "missing")
    for word in sorted(set(re.findall(r"\bauto_\w+", text))):
        check("bench --help's %s is a threshold of the table" % word, word in names, "not in dispatch/settings.c")
    variables = {r[1] for r in rows if r[0] in VARIANT_SETTINGS}
    for word in sorted(set(re.findall(r"\bMEMSHIM_(?:IMPL|MEM[A-Z]+)\b", text))):
        check("bench --help's %s is a variant setting of the table" % word, word in variables,
              "not in dispatch/settings.c")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rows = table_rows(sys.argv[1])
    check_awk(sys.argv[1], rows)
    check_bench_help(sys.argv[1], rows)
    return status()


if __name__ == "__main__":
    sys.exit(main())
