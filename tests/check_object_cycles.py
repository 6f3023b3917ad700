"""Fails on a circle between the compiled files of shim/, dispatch/ and
preload/: file a needs file b when a's object uses a symbol b's object
defines (read with nm from the built objects, as check_tools_layers.py does
for tools/), and no chain of such needs may come back to where it started.
The includes (tests/include_cycles.py) do not show a header that declares
what a file of a higher layer defines, nor two files that call each other
through one header; the objects do.

    check_object_cycles.py SRCDIR BUILDDIR            check the built objects
    check_object_cycles.py SRCDIR BUILDDIR --print    their symbol tables
    check_object_cycles.py --tables FILE              check tables so printed

A table line is "FILE U SYMBOL" (used) or "FILE D SYMBOL" (defined), FILE
the source without its suffix (dispatch/config).  An object whose source is
no longer in SRCDIR (a build folder keeps those of files moved or removed)
is left out."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_lines import check, status  # noqa: E402
from include_cycles import find_cycle  # noqa: E402

FOLDERS = ('shim', 'dispatch', 'dump', 'preload')
SUFFIXES = ('.c', '.S', '.cc')


def objects(top, builddir):
    """(file, object path) of each object libtool built for a source of the
    folders: FOLDER/.libs/TARGET-NAME.o, or NAME.o without per-target flags."""
    for folder in FOLDERS:
        libs = os.path.join(builddir, folder, '.libs')
        for name in sorted(os.listdir(libs)) if os.path.isdir(libs) else ():
            if not name.endswith('.o'):
                continue
            source = folder + '/' + name[:-2].split('-', 1)[-1]
            if any(os.path.isfile(os.path.join(top, source + s)) for s in SUFFIXES):
                yield source, os.path.join(libs, name)


def tables_of_objects(top, builddir):
    """[(file, 'U' or 'D', symbol)] from nm."""
    entries = []
    for source, path in objects(top, builddir):
        out = subprocess.run(['nm', path], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[1] in 'TDBRVWC':
                entries.append((source, 'D', fields[2]))
            elif len(fields) == 2 and fields[0] in 'Uw':
                entries.append((source, 'U', fields[1]))
    return entries


def graph_of(entries):
    """file -> the files whose symbols it uses."""
    defined = {sym: f for f, kind, sym in entries if kind == 'D'}
    graph = {f: set() for f, _, _ in entries}
    for f, kind, sym in entries:
        if kind == 'U' and sym in defined and defined[sym] != f:
            graph[f].add(defined[sym])
    return graph


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == '--tables':
        with open(args[1]) as f:
            entries = [tuple(line.split()) for line in f if line.strip()]
    elif len(args) in (2, 3) and args[2:] in ([], ['--print']):
        entries = tables_of_objects(args[0], args[1])
        if args[2:]:
            for entry in entries:
                print(' '.join(entry))
            return 0
    else:
        sys.exit(__doc__.strip().split('\n\n')[1])
    graph = graph_of(entries)
    cycle = find_cycle(graph)
    check('no circle between the %d compiled files of %s' % (len(graph), ', '.join(FOLDERS)),
          graph and cycle is None, ' -> '.join(cycle or []) or 'no objects found')
    return status()


if __name__ == '__main__':
    sys.exit(main())
