"""Fails on a circle of #include "..." among the project's modules (a
module: foo.c, foo.h and its private foo_internal.h together, so that foo.c
including bar.h while bar.c includes foo.h is a circle), and on a circle among its folders (shim/ including dispatch/ while dispatch/ includes
shim/, say): the layers are shim (the copy routines) <- dispatch <- preload
<- tools, and nothing includes upward.

    include_cycles.py TOP [--folders-only] [FOLDER...]

TOP is the source tree; the FOLDERs (relative to it, default: every folder
with C sources) are the ones checked, each with its subfolders.  An include
is looked up as the compiler does with -I TOP: beside the including file,
then from TOP; one found in neither (config.h, generated files) is outside
the graph.  --folders-only: the circles among folders only."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_lines import check, status  # noqa: E402

SOURCE = re.compile(r"\.(c|h|cc)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(top, folders):
    for folder in folders:
        for root, dirs, files in os.walk(os.path.join(top, folder)):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for name in files:
                if SOURCE.search(name):
                    yield os.path.relpath(os.path.join(root, name), top)


def includes(top, path):
    with open(os.path.join(top, path), errors="replace") as f:
        text = f.read()
    for name in INCLUDE.findall(text):
        for candidate in (os.path.join(os.path.dirname(path), name), name):
            candidate = os.path.normpath(candidate)
            if os.path.isfile(os.path.join(top, candidate)):
                yield candidate
                break


def module_of(path):
    base = os.path.splitext(path)[0]
    return base[: -len("_internal")] if base.endswith("_internal") else base


def find_cycle(graph):
    """One circle of the graph as a list of nodes, or None (depth-first)."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def main():
    top, args = sys.argv[1], sys.argv[2:]
    folders_only = "--folders-only" in args
    args = [a for a in args if a != "--folders-only"]
    folders = args or sorted({p.split(os.sep)[0] for p in sources(top, ["."]) if os.sep in p})
    files = sorted(set(sources(top, folders)))
    inside = tuple(f.rstrip("/") + "/" for f in folders)
    graph, folder_graph = {}, {}
    for path in files:
        targets = [t for t in includes(top, path) if t.startswith(inside)]
        module = module_of(path)
        graph.setdefault(module, set()).update(module_of(t) for t in targets if module_of(t) != module)
        here = os.path.dirname(path)
        for t in targets:
            if os.path.dirname(t) != here:
                folder_graph.setdefault(here, set()).add(os.path.dirname(t))
    cycle = None if folders_only else find_cycle(graph)
    if not folders_only:
        check("no circle of includes among the %d modules of %s" % (len(graph), " ".join(folders)), cycle is None,
              " -> ".join(cycle or []))
    cycle = find_cycle(folder_graph)
    check("no circle of includes among the folders %s" % " ".join(sorted(folder_graph)), cycle is None,
          " -> ".join(cycle or []))
    return status()


if __name__ == "__main__":
    sys.exit(main())
