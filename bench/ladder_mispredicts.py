#!/usr/bin/env python3
"""How often a ladder of size tests mispredicts on a call-size distribution.

usage: bench/ladder_mispredicts.py [--order TESTS]... DISTRIBUTION.csv...

Each TESTS is a comma-separated list of size tests in the order a ladder
makes them from its entry, each one of >N, >=N, <N, <=N (a call leaves
the ladder at the first test that holds).  Without --order, the shipped
copy ladder's order (64, 32, then 16 bytes) and the one with 16 first.

Sizes drawn independently from the distribution give a branch predictor
nothing to learn from the calls before, so a test predicted its likelier
way mispredicts, per call, P(reaching it) * min(P(holds | reached),
P(fails | reached)).  Printed per distribution and order: that sum over
the tests, the expected mispredictions a call (decision D9 in
doc/decisions.md compares them with the bench).  The distributions are files in the
one-line-per-field format of data/distributions/fleetbench (sizes on the
first line as size:probability).
"""
import argparse
import operator
import re
import sys

OPERATORS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}
DEFAULT_ORDERS = [">=64,>=32,>16", "<=16,>=64,>=32"]


def parse_test(text):
    m = re.fullmatch(r"\s*(>=|<=|>|<)\s*(\d+)\s*", text)
    if not m:
        raise ValueError("not a size test: %r (want >N, >=N, <N or <=N)" % text)
    op, bound = OPERATORS[m.group(1)], int(m.group(2))
    return lambda n: op(n, bound)


def load_sizes(path):
    with open(path) as f:
        first = f.readline().strip()
    weights = {}
    for item in first.split(","):
        size, weight = item.split(":")
        weights[int(size)] = weights.get(int(size), 0.0) + float(weight)
    total = sum(weights.values())
    if total <= 0:
        raise ValueError("%s: no sizes with weight on its first line" % path)
    return {size: w / total for size, w in weights.items()}


def mispredictions(sizes, tests):
    remaining, expected = dict(sizes), 0.0
    for test in tests:
        reached = sum(remaining.values())
        holds = sum(p for n, p in remaining.items() if test(n))
        expected += min(holds, reached - holds)
        remaining = {n: p for n, p in remaining.items() if not test(n)}
    return expected


def main():
    parser = argparse.ArgumentParser(description="Expected mispredictions a call of a ladder of size tests.")
    parser.add_argument("--order", action="append", help="tests from the entry, e.g. '>=64,>=32,>16'")
    parser.add_argument("distributions", nargs="+")
    args = parser.parse_args()
    orders = args.order or DEFAULT_ORDERS
    try:
        parsed = [[parse_test(t) for t in order.split(",")] for order in orders]
        rows = [(path, load_sizes(path)) for path in args.distributions]
    except (OSError, ValueError) as e:
        print("ladder_mispredicts: %s" % e, file=sys.stderr)
        return 2
    print("distribution".ljust(24) + "".join(order.ljust(18) for order in orders))
    for path, sizes in rows:
        name = path.rsplit("/", 1)[-1].removesuffix(".csv")
        print(name.ljust(24) + "".join(("%.3f" % mispredictions(sizes, tests)).ljust(18) for tests in parsed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
