"""Checks memshim bench --path tables: in every size class up to 1 KiB, each
vector variant takes no more branches than glibc's function of the same
width, and runs at most 3 instructions more (shim/vector_ladder.S).

path_check.py OURS.csv GLIBC.csv...: OURS.csv holds our variants' paths;
each GLIBC.csv one run under a glibc.cpu.hwcaps setting, its first line
"# glibc: memcpy NAME memmove NAME memset NAME" saying what glibc picked.
Prints what could not be compared as "SKIP: ..." lines."""
import csv
import sys

from check_lines import check, status

CLASSES = [(0, 16), (17, 32), (33, 64), (65, 128), (129, 256), (257, 512), (513, 1024)]
# Our variants by the width of glibc's function they answer to, named as in
# glibc's own (__memmove_avx_unaligned_erms, __memset_avx2_unaligned_erms...).
WIDTHS = {
    "sse2": ["sse2", "sse2_erms"],
    "avx": ["avx2", "avx2_erms", "avx2_xmm", "avx2_xmm_erms"],
    "evex": ["evex", "evex_mask_erms"],
    "avx512": ["avx512", "avx512_erms", "avx512_mask", "avx512_mask_erms", "avx512_mask64_erms"],
}
# Variants that copy below one vector with no branch on the size: one path
# at every size below it, taking at most the entry's branch; from the first
# class above it on, the rule of the others.
BRANCH_FREE_BELOW = {"avx512_mask64_erms": 64}
MORE_INSTRUCTIONS = 3.0
EPSILON = 1e-9


# How glibc spells each width in its function names (memset's AVX2 one is
# __memset_avx2_unaligned_erms, memmove's __memmove_avx_unaligned_erms).
SPELLINGS = {"sse2": ["sse2"], "avx": ["avx", "avx2"], "evex": ["evex"], "avx512": ["avx512"]}


def width_of(glibc_name):
    for width, spellings in SPELLINGS.items():
        if any("_%s_" % spelling in glibc_name for spelling in spellings):
            return width
    return None


def paths(records):
    """{(function, variant): {size: (instructions, taken)}}"""
    per_size = {}
    for r in records:
        per_size.setdefault((r["function"], r["variant"]), {})[int(r["size"])] = (
            int(r["instructions"]), int(r["taken"]))
    return per_size


def class_means(per_size):
    """{(function, variant): [(instructions, taken) per class]}"""
    means = {}
    for key, sizes in per_size.items():
        means[key] = []
        for lo, hi in CLASSES:
            paths = [sizes[n] for n in range(lo, hi + 1)]
            means[key].append((sum(p[0] for p in paths) / len(paths), sum(p[1] for p in paths) / len(paths)))
    return means


def read(path):
    with open(path) as f:
        first = f.readline()
        per_size = paths(csv.DictReader(f))
        return first, class_means(per_size), per_size


def glibc_by_width(files):
    """{(function, width): (glibc's name, its class means)}"""
    found = {}
    for path in files:
        first, means, _ = read(path)
        names = first.split()[2:]
        for function, name in zip(names[0::2], names[1::2]):
            width = width_of(name)
            if width and (function, width) not in found and (function, "glibc") in means:
                found[(function, width)] = (name, means[(function, "glibc")])
    return found


def compare(function, variant, ours, glibc_name, theirs):
    for (lo, hi), (ins, taken), (g_ins, g_taken) in zip(CLASSES, ours, theirs):
        if lo < BRANCH_FREE_BELOW.get(variant, 0):
            continue
        what = "%s %s at %d-%d B against %s" % (function, variant, lo, hi, glibc_name)
        check(what + ": branches taken %.2f, glibc %.2f" % (taken, g_taken), taken <= g_taken + EPSILON,
              "more than glibc's")
        check(what + ": instructions %.1f, glibc %.1f" % (ins, g_ins), ins <= g_ins + MORE_INSTRUCTIONS + EPSILON,
              "more than %g over glibc's" % MORE_INSTRUCTIONS)


def check_branch_free(function, variant, sizes, below):
    below_paths = set(sizes[n] for n in range(below))
    what = "%s %s at 0-%d B: %s" % (function, variant, below - 1,
                                   ", ".join("%d instructions, %d taken" % p for p in sorted(below_paths)))
    check(what, len(below_paths) == 1 and max(p[1] for p in below_paths) <= 1,
          "not one path with at most one branch taken")


def main():
    _, ours, ours_sizes = read(sys.argv[1])
    for (function, variant), sizes in sorted(ours_sizes.items()):
        if variant in BRANCH_FREE_BELOW:
            check_branch_free(function, variant, sizes, BRANCH_FREE_BELOW[variant])
    glibc = glibc_by_width(sys.argv[2:])
    for width, variants in WIDTHS.items():
        for function in ("memcpy", "memmove", "memset"):
            present = [v for v in variants if (function, v) in ours]
            if not present:
                print("SKIP: %s at the %s width: this CPU runs none of %s" % (function, width, ", ".join(variants)))
            elif (function, width) not in glibc:
                print("SKIP: %s at the %s width: no glibc.cpu.hwcaps setting made glibc pick its own" % (function, width))
            else:
                name, theirs = glibc[(function, width)]
                for v in present:
                    compare(function, v, ours[(function, v)], name, theirs)
    return status()


if __name__ == "__main__":
    sys.exit(main())
