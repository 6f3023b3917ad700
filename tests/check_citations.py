#!/usr/bin/env python3
"""Fails on every place in the code (C, assembly, shell, Python, automake,
awk) that cites BENCHMARKS.md by section number: the sections are gone, and
a measurement behind the code is cited by its decision id in
doc/decisions.md ("(D12)"), which stays put; and on every id cited that the
register does not define.  Comment lines that continue
onto the next are read as one, so "BENCHMARKS.md,\n * section 13" counts.

usage: check_citations.py SRCDIR; prints "FAIL: FILE:LINE: TEXT" for each."""
import os
import re
import sys

EXT = (".c", ".h", ".S", ".sh", ".py", ".am", ".awk", ".ac")
# BENCHMARKS, maybe .md, then "section(s)" and a number, or a number alone;
# or a bare "(section 24)" / ", section 24", which meant the same file.
CITE = re.compile(r"BENCHMARKS(\.md)?[\s,(]*(sections?\s+)?\d|[(;,]\s*sections?\s+\d")
# A line break and the comment leader of the next line, read as one space.
JOIN = re.compile(r"\n[ \t]*(\*|#|//)?[ \t]*")


# A decision id as the code cites it, and as doc/decisions.md defines it.
CITED = re.compile(r"\bD(\d{1,3})\b")
DEFINED = re.compile(r"^\*\*D(\d+):", re.M)


def main(srcdir):
    bad = 0
    register = os.path.join(srcdir, "doc/decisions.md")
    ids = set(DEFINED.findall(open(register).read())) if os.path.exists(register) else set()
    for root, dirs, files in os.walk(srcdir):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("autom4te.cache",)]
        for name in sorted(files):
            if not name.endswith(EXT) or name == "check_citations.py":
                continue
            path = os.path.join(root, name)
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            for m in CITE.finditer(JOIN.sub(" ", text)):
                # The line of the match: count the breaks the join took out before it.
                line = text.count("\n", 0, _offset(text, m.start())) + 1
                print("FAIL: %s:%d: cites a BENCHMARKS section: %s" % (
                    os.path.relpath(path, srcdir), line, text.splitlines()[line - 1].strip()))
                bad = 1
            for m in CITED.finditer(text):
                if m.group(1) not in ids:
                    line = text.count("\n", 0, m.start()) + 1
                    print("FAIL: %s:%d: cites D%s, which doc/decisions.md does not define" % (
                        os.path.relpath(path, srcdir), line, m.group(1)))
                    bad = 1
    if not bad:
        print("ok: no code cites a BENCHMARKS section number, and every decision it cites exists")
    return bad


def _offset(text, joined_pos):
    """The offset in TEXT of a position in its joined form."""
    pos = shift = 0
    for m in JOIN.finditer(text):
        if m.start() - shift >= joined_pos:
            break
        shift += len(m.group(0)) - 1
    return joined_pos + shift


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
