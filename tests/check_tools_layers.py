#!/usr/bin/env python3
"""The layers of tools/ (doc/design.md): the command table (memshim.c) and
one file per command at the top, each command's machinery in a folder of its
own (tools/bench/ ...), what two commands share in tools/util/.  Dependencies
go one way: table -> commands -> their folder -> util, and never back.

Two graphs are checked, each at the level of modules (a .c or .cc file and
the .h of the same name are one module):
  - includes: the #include "tools/..." lines of every file under tools/;
  - links: which object of the memshim program uses a symbol another one
    defines (nm), when the objects are given: a header that declares what
    another file defines (record.h declaring cmd_run of memshim.c) is a
    dependency the includes do not show.
Each graph must have no circle (a strongly connected component of more than
one module) and no edge against the layers; and a module that uses another's
symbols includes a header that may declare them: that module's own, its
folder's (tools/bench/bench.h), or for a command tools/commands.h (a header
that declares what a module of another layer defines hides a dependency).  Prints one line per problem and
exits 1 if there is any; else prints what it checked.

usage: check_tools_layers.py SRCDIR [BUILDDIR]  (BUILDDIR: where the objects are)
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"(tools/[^"]+)"', re.M)


def module_of(path):
    """tools/bench/plan.c -> tools/bench/plan"""
    return os.path.splitext(path)[0]


def layer_of(module):
    """(rank, folder): 0 the table, 1 a command, 2 a command's folder, 3 util."""
    parts = module.split('/')
    if parts[:2] == ['tools', 'util']:
        return 3, 'util'
    if len(parts) == 2:
        return (0 if parts[1] == 'memshim' else 1), parts[1]
    return 2, parts[1]


def allowed(a, b):
    """Whether module a may depend on module b."""
    (ra, fa), (rb, fb) = layer_of(a), layer_of(b)
    if b == 'tools/commands':  # the commands' declarations: for the table and the command files
        return ra <= 1
    if ra == 0:
        return rb in (1, 3)
    if ra == 1:  # a command: its own folder, and util
        return rb == 3 or (rb == 2 and fb == fa.replace('-', '_'))
    if ra == 2:  # a command's folder: itself, and util
        return rb == 3 or (rb == 2 and fb == fa)
    return rb == 3


def include_graph(srcdir):
    graph = {}
    for root, _, files in os.walk(os.path.join(srcdir, 'tools')):
        for name in files:
            if not name.endswith(('.c', '.cc', '.h')) or '.pb-c.' in name:
                continue
            path = os.path.relpath(os.path.join(root, name), srcdir)
            with open(os.path.join(srcdir, path), encoding='utf-8') as f:
                text = f.read()
            a = module_of(path)
            graph.setdefault(a, set())
            for target in INCLUDE.findall(text):
                b = module_of(target)
                if b != a and '.pb-c' not in target:
                    graph[a].add(b)
    return graph


def link_graph(builddir):
    """module -> modules whose symbols it uses, from the objects of tools/memshim."""
    objects = []
    for root, _, files in os.walk(os.path.join(builddir, 'tools')):
        for name in files:
            if name.startswith('memshim-') and name.endswith('.o') and '.pb-c' not in name:
                objects.append(os.path.join(root, name))
    defined, used = {}, {}
    for obj in objects:
        rel = os.path.relpath(os.path.dirname(obj), builddir)
        module = rel + '/' + os.path.basename(obj)[len('memshim-'):-2]
        out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
        used[module] = set()
        for line in out.splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[1] in 'TDBRV':
                defined[fields[2]] = module
            elif len(fields) == 2 and fields[0] == 'U':
                used[module].add(fields[1])
    return {a: {defined[s] for s in syms if s in defined and defined[s] != a} for a, syms in used.items()}


def circles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def check(kind, graph):
    problems = []
    for component in circles(graph):
        problems.append('%s: a circle: %s' % (kind, ' <-> '.join(component)))
    for a in sorted(graph):
        for b in sorted(graph[a]):
            if not allowed(a, b):
                problems.append('%s: %s depends on %s, against the layers' % (kind, a, b))
    return problems


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


def reachable(includes, a):
    seen, todo = set(), [a]
    while todo:
        for b in includes.get(todo.pop(), ()):
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def owners(includes, links, headers):
    """A module using another's symbols without including a header that may
    declare them.  A utility with no header of its own in tools/ is declared
    outside it (the dump reader, util/histogram_read.c, in the dump format's
    preload/histogram_format.h, shared with the writer): it is left out."""
    problems = []
    for a in sorted(links):
        seen = reachable(includes, a)
        for b in sorted(links[a]):
            if layer_of(b)[0] == 3 and b not in headers:
                continue
            if not declaring_headers(b) & seen:
                problems.append('links: %s uses symbols of %s but includes no header of it (%s)' %
                                (a, b, ', '.join(h + '.h' for h in sorted(declaring_headers(b)))))
    return problems


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1])
    srcdir = sys.argv[1]
    graphs = [('includes', include_graph(srcdir))]
    if len(sys.argv) == 3:
        graphs.append(('links', link_graph(sys.argv[2])))
    problems = []
    for kind, graph in graphs:
        if not graph:
            problems.append('%s: no modules found' % kind)
        problems += check(kind, graph)
    if len(graphs) == 2:
        headers = {module_of(os.path.relpath(os.path.join(root, name), srcdir))
                   for root, _, files in os.walk(os.path.join(srcdir, 'tools')) for name in files if name.endswith('.h')}
        problems += owners(graphs[0][1], graphs[1][1], headers)
    for p in problems:
        print(p)
    if not problems:
        print('no circle and no edge against the layers: %s' %
              ', '.join('%s of %d modules, %d edges' % (k, len(g), sum(map(len, g.values()))) for k, g in graphs))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
