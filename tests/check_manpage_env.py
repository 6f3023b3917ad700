"""Fails when an environment variable that the library or the memshim
command reads is missing from the ENVIRONMENT section of the man page, or a
MEMSHIM_* one from the README's table of variables.

    check_manpage_env.py TOP [MAN_PAGE [README]]

Then the settings' table (dispatch/settings.c: each variant setting's and
threshold's variable, calibration-file key and row key): it must give the
variant settings (MEMSHIM_IMPL and each function's), each of its variables
must be in the man page, every key of a shipped CPU row's thresholds and
choice lines (TOP/data/cpu-rows/*.row) must be a row key of the table, and
every key the calibration file's writer and reader use one of its file
keys, so that a setting read from a row or a file has its place in the one
table.

The variables are collected from the sources themselves (every .c, .h and
.cc under TOP's shim/, dispatch/, dump/, preload/ and tools/), not from a list that
could fall behind them:
- every MEMSHIM_* name inside a string literal of the code, comments left
  out (the library reads its variables with early_getenv("MEMSHIM_..."),
  lists them for the unknown-name warning, and the tools pass them to
  helpers such as cli_locate), and
- the literal argument of every getenv, secure_getenv and early_getenv
  call, whatever its name (HOME, LD_PRELOAD, ...).
A name followed by "/" is an abbreviation of two names
("MEMSHIM_MOVSB/STOSB_THRESHOLD" in a variant's summary), and is left
out: each of the two is a literal of its own where it is read."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_lines import check, status  # noqa: E402

FOLDERS = ("shim", "dispatch", "dump", "preload", "tools")
SOURCE = re.compile(r"\.(c|h|cc)$")
MEMSHIM_NAME = re.compile(r"MEMSHIM_[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_/])")
GETENV = re.compile(r'\b(?:secure_|early_)?getenv\s*\(\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*\)')


def code_and_literals(text):
    """The text with comments blanked, and the contents of its string
    literals (escapes kept as written)."""
    code, literals, i, n = [], [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            code.append(" ")
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            if c == '"':
                literals.append(text[i + 1:j])
            code.append(text[i:j + 1])
            i = j + 1
        else:
            code.append(c)
            i += 1
    return "".join(code), literals


def variables(top):
    """{name: first file that reads it}"""
    found = {}
    for folder in FOLDERS:
        for root, dirs, files in os.walk(os.path.join(top, folder)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if not SOURCE.search(name):
                    continue
                path = os.path.join(root, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    code, literals = code_and_literals(f.read())
                where = os.path.relpath(path, top)
                names = [m.group(0) for s in literals for m in MEMSHIM_NAME.finditer(s)]
                names += GETENV.findall(code)
                for v in names:
                    found.setdefault(v, where)
    return found


def roff_text(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return re.sub(r"\\f[BIRP]", "", text.replace("\\-", "-"))


def section(text, title):
    m = re.search(r"^\.SH \"?%s\"?\n(.*?)(?=^\.SH |\Z)" % re.escape(title), text, re.M | re.S)
    return m.group(1) if m else ""


def names_word(text, name):
    return re.search(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(name), text) is not None


TABLE_ROW = re.compile(r'\[(S_\w+(?: \+ T_\w+)?)\] = \{\s*"(MEMSHIM_\w+)",\s*"(\w+)",\s*(?:NULL|"(\w+)"),'
                       r'\s*(?:NULL|"(\w+)")\s*[,}]')
VARIANT_SETTINGS = ("S_IMPL", "S_MEMCPY", "S_MEMMOVE", "S_MEMSET")


def table_rows(top):
    """[(setting, variable, name, file key, row key)] of the settings' table."""
    with open(os.path.join(top, "dispatch", "settings.c"), encoding="utf-8") as f:
        return TABLE_ROW.findall(f.read())


def shipped_row_keys(top, kind):
    """{key: row file} of every `kind` line ("thresholds", "choice") of the shipped rows."""
    found, folder = {}, os.path.join(top, "data", "cpu-rows")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".row"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                for line in f:
                    words = line.split()
                    if words and words[0] == kind:
                        keys = [w.split("=")[0] for w in words[1:]] if kind == "thresholds" else words[1:2]
                        for key in keys:
                            found.setdefault(key, name)
    return found


def check_table(top, environment):
    rows = table_rows(top)
    file_keys, row_keys = {r[3] for r in rows if r[3]}, {r[4] for r in rows if r[4]}
    check("the thresholds' table gives file keys and row keys", file_keys and row_keys,
          "none found in dispatch/settings.c")
    settings = {r[0] for r in rows}
    check("the settings' table gives the variant settings", all(s in settings for s in VARIANT_SETTINGS),
          "missing from dispatch/settings.c: " + ", ".join(s for s in VARIANT_SETTINGS if s not in settings))
    for setting, variable, *_ in rows:
        check("the settings' table: %s's variable %s in the man page" % (setting, variable),
              names_word(environment, variable), "missing")
    for key, row in sorted(shipped_row_keys(top, "thresholds").items()):
        check("the thresholds' table: row key %s (in %s)" % (key, row), key in row_keys, "missing")
    for key, row in sorted(shipped_row_keys(top, "choice").items()):
        check("the settings' table: choice row key %s (in %s)" % (key, row), key in row_keys, "missing")
    with open(os.path.join(top, "dispatch", "calibration.h"), encoding="utf-8") as f:
        text = f.read()
    for key in re.findall(r"^ \*   (\w+) \d+ ", text, re.M):
        check("the thresholds' table: calibration-file key %s (dispatch/calibration.h)" % key,
              key in file_keys, "missing")
    for key in re.findall(r"^ \*   choice (\w+) ", text, re.M):
        check("the settings' table: calibration-file choice key %s (dispatch/calibration.h)" % key,
              key in file_keys, "missing")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    top = sys.argv[1]
    man = sys.argv[2] if len(sys.argv) > 2 else os.path.join(top, "doc", "memshim.1")
    readme = sys.argv[3] if len(sys.argv) > 3 else os.path.join(top, "README.md")
    found = variables(top)
    # The collection itself works: the library's main variable and one the
    # tools read with getenv are among what it found.
    check("the sources name MEMSHIM_IMPL and MEMSHIM_CACHE_SIZES",
          "MEMSHIM_IMPL" in found and "MEMSHIM_CACHE_SIZES" in found, ", ".join(sorted(found)))
    environment = section(roff_text(man), "ENVIRONMENT")
    check("the man page has an ENVIRONMENT section", environment != "", man)
    with open(readme, encoding="utf-8") as f:
        table = "\n".join(line for line in f if line.startswith("| `"))
    for name in sorted(found):
        check("man page, ENVIRONMENT: %s (named in %s)" % (name, found[name]),
              names_word(environment, name), "missing")
        if name.startswith("MEMSHIM_"):
            check("README, the table of variables: %s (named in %s)" % (name, found[name]),
                  names_word(table, name), "missing")
    check_table(top, environment)
    return status()


if __name__ == "__main__":
    sys.exit(main())
