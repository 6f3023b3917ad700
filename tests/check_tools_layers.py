"""The layers of tools/ (doc/design.md): the command table (memshim.c) and
one file per command at the top, each command's machinery in a folder of its
own (tools/bench/ ...), then the engines that several commands drive, each a
folder ranked by what it uses: the calibration (tools/calibrate/) over the
measuring engine (tools/measure/) over what two commands share (tools/util/).
Dependencies go one way: table -> commands -> their folder -> calibrate ->
measure -> util, and never back; a command reaches another's folder only
for a file format the other writes (FORMATS: the bench CSV).

Two graphs are checked, each at the level of modules (a .c or .cc file and
the .h of the same name are one module, as tests/include_cycles.py counts
them, whose graph and circle finder this uses):
  - includes: the #include "tools/..." lines of every file under tools/;
  - links: which object of the memshim program uses a symbol another one
    defines (nm), when the objects are given: a header that declares what
    another file defines (a record.h declaring cmd_run of memshim.c) is a
    dependency the includes do not show.
Each graph must have no circle and no edge against the layers; and a module
that uses another's symbols includes a header that may declare them: that
module's own, its folder's (tools/bench/bench.h), or for a command
tools/commands.h.

The dump is the contract between the library and the tool (dump/README.md):
each reaches the other only through dump/.  No file of the tool includes the
library's (preload/), none of the library's (preload/, dispatch/, shim/)
includes the tool's, and dump/ includes neither preload/ nor, on the side
the library builds (DUMP_LIBRARY_SIDE), tools/.
One "ok: ..." or "FAIL: ..." line per check.

usage: check_tools_layers.py SRCDIR [BUILDDIR]  (BUILDDIR: where the objects are)
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_lines import check, status  # noqa: E402
from include_cycles import find_cycle, includes, module_of, sources  # noqa: E402


def generated(path):
    return '.pb-c.' in path


# The engines, lowest first: each may use those before it, none after.
ENGINES = ['util', 'measure', 'calibrate']

# Modules of a command's folder that the other commands may use too: a file
# one command writes and another reads, the contract between them (bench
# writes its CSV, cpu-row reads it), kept beside its writer.
FORMATS = {'tools/bench/csv'}


def layer_of(module):
    """(rank, folder): 0 the table, 1 a command, 2 a command's folder, then
    the engines, calibrate above measure above util."""
    parts = module.split('/')
    if len(parts) > 2 and parts[1] in ENGINES:
        return 3 + len(ENGINES) - 1 - ENGINES.index(parts[1]), parts[1]
    if len(parts) == 2:
        return (0 if parts[1] == 'memshim' else 1), parts[1]
    return 2, parts[1]


def allowed(a, b):
    """Whether module a may depend on module b."""
    (ra, fa), (rb, fb) = layer_of(a), layer_of(b)
    if b == 'tools/commands':  # the commands' declarations: for the table and the command files
        return ra <= 1
    if b in FORMATS:  # a file format: for every command and command's folder
        return ra in (1, 2)
    if rb >= 3:  # an engine: for anything above it, and itself
        return rb > ra or fb == fa
    if ra == 0:
        return rb == 1
    if ra in (1, 2):  # a command or its folder: that folder
        return rb == 2 and fb == fa
    return False


# What the library builds of dump/ (Makefile.am's libdump_write); the rest,
# dump/reader/, is the tool's reader, which may use the tool's lowest layer
# (tools/util/).
DUMP_LIBRARY_SIDE = {'dump/format.h', 'dump/counts.h', 'dump/size_classes.h', 'dump/write.c'}
LIBRARY = ['preload', 'dispatch', 'shim']


def dump_bypasses(top):
    """Includes that reach across the dump boundary: 'file -> included'."""
    def forbidden(path, target):
        side = path.split('/')[0]
        if side == 'tools':
            return target.startswith('preload/')
        if side in LIBRARY:
            return target.startswith('tools/')
        if path in DUMP_LIBRARY_SIDE:
            return target.startswith(('preload/', 'tools/'))
        return target.startswith('preload/') or (target.startswith('tools/') and
                                                 not target.startswith('tools/util/'))
    return ['%s -> %s' % (path, target)
            for path in sorted(sources(top, ['tools', 'dump'] + LIBRARY))
            for target in includes(top, path) if forbidden(path, target)]


def include_graph(top):
    graph = {}
    for path in sources(top, ['tools']):
        if generated(path):
            continue
        a = module_of(path)
        graph.setdefault(a, set()).update(
            module_of(t) for t in includes(top, path)
            if t.startswith('tools/') and not generated(t) and module_of(t) != a)
    return graph


def link_graph(top, builddir):
    """module -> modules whose symbols it uses, from the objects of tools/memshim
    (those of a source that is in the tree: a build folder may keep the
    objects of files since moved or removed)."""
    defined, used = {}, {}
    for root, _, files in os.walk(os.path.join(builddir, 'tools')):
        for name in files:
            if not name.startswith('memshim-') or not name.endswith('.o') or generated(name):
                continue
            module = os.path.relpath(root, builddir) + '/' + name[len('memshim-'):-2]
            if not any(os.path.exists(os.path.join(top, module + ext)) for ext in ('.c', '.cc')):
                continue
            out = subprocess.run(['nm', os.path.join(root, name)], capture_output=True, text=True,
                                 check=True).stdout
            used[module] = set()
            for line in out.splitlines():
                fields = line.split()
                if len(fields) == 3 and fields[1] in 'TDBRV':
                    defined[fields[2]] = module
                elif len(fields) == 2 and fields[0] == 'U':
                    used[module].add(fields[1])
    return {a: {defined[s] for s in syms if s in defined and defined[s] != a} for a, syms in used.items()}


def declaring_headers(module):
    """Where module's functions may be declared: its own header, its
    folder's (tools/bench/bench.h), or for a command tools/commands.h."""
    parts = module.split('/')
    found = {module}
    if len(parts) == 3:
        found.add('/'.join(parts[:2] + [parts[1]]))
    if layer_of(module)[0] == 1:
        found.add('tools/commands')
    return found


def reachable(graph, a):
    seen, todo = set(), [a]
    while todo:
        for b in graph.get(todo.pop(), ()):
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def undeclared(includes_graph, links):
    """A module using another's symbols without including a header that may
    declare them."""
    problems = []
    for a in sorted(links):
        seen = reachable(includes_graph, a)
        for b in sorted(links[a]):
            if not declaring_headers(b) & seen:
                problems.append('%s uses %s, includes none of %s' %
                                (a, b, ', '.join(h + '.h' for h in sorted(declaring_headers(b)))))
    return problems


def check_graph(kind, graph):
    cycle = find_cycle(graph)
    check('tools/ %s: no circle among the %d modules' % (kind, len(graph)), graph and cycle is None,
          ' -> '.join(cycle or []) or 'no modules found')
    against = ['%s -> %s' % (a, b) for a in sorted(graph) for b in sorted(graph[a]) if not allowed(a, b)]
    check('tools/ %s: nothing against the layers' % kind, not against, '; '.join(against))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1])
    top = sys.argv[1]
    includes_graph = include_graph(top)
    check_graph('includes', includes_graph)
    bypasses = dump_bypasses(top)
    check('the library and the tool reach each other only through dump/', not bypasses, '; '.join(bypasses))
    if len(sys.argv) == 3:
        links = link_graph(top, sys.argv[2])
        check_graph('links', links)
        problems = undeclared(includes_graph, links)
        check('tools/ links: each module\'s symbols reached through a header of it', not problems,
              '; '.join(problems))
    return status()


if __name__ == '__main__':
    sys.exit(main())
