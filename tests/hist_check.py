#!/usr/bin/env python3
"""Checks `memshim report --json` output against the counts that
tests/hist_program's sequence makes.

usage: hist_check.py JSON_FILE SEQUENCES [EXTRA_24_BYTE_COPIES]
Prints one line per mismatch and exits 1 if there is any."""
import json
import sys

report = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
extra24 = int(sys.argv[3]) if len(sys.argv) > 3 else 0
f = report["functions"]
problems = []


def expect(what, got, want):
    if got != want:
        problems.append(f"{what}: got {got}, expected {want}")


def bucket_calls(fn, size):
    return sum(b["calls"] for b in f[fn]["buckets"] if b["lo"] <= size < b["hi"])


expect("memcpy calls", f["memcpy"]["calls"], 3 * n + extra24)
expect("memcpy bytes", f["memcpy"]["bytes"], 4213 * n + 24 * extra24)
expect("memcpy entries", f["memcpy"]["entries"]["memcpy"], 2 * n + extra24)
expect("mempcpy entries", f["memcpy"]["entries"]["mempcpy"], n)
expect("memcpy 100-byte bucket", bucket_calls("memcpy", 100), n)
expect("memcpy 4096-byte bucket", bucket_calls("memcpy", 4096), n)
expect("memcpy 24-byte bucket", bucket_calls("memcpy", 24), extra24)
# alignment is counted for one call in 256 of each thread's entry point and
# size bucket, from a phase drawn at random (preload/record.c): about a 256th
# of the three sizes' and the extra copies' calls, one fewer or more a thread
# that makes some of them (the sequences are split among up to 16 threads)
sampled = sum(f["memcpy"]["dst_mod64"])
least, most = max(0, 3 * (n // 256 - 17)), 3 * (n // 256 + 1) + extra24 // 256 + 1
if not least <= sampled <= most:
    problems.append(f"memcpy dst_mod64 sum: got {sampled}, expected {least}..{most}")
expect("memmove calls", f["memmove"]["calls"], 3 * n)
expect("memmove bytes", f["memmove"]["bytes"], 2450 * n)
expect("memmove overlap dst after src", f["memmove"]["overlap"]["dst_after_src"], n)
expect("memmove overlap dst before src", f["memmove"]["overlap"]["dst_before_src"], n)
alias = {fn: f[fn]["alias4k"] for fn in ("memcpy", "memmove")}
expect("memcpy 4 KiB aliasing at 0", alias["memcpy"]["distance_0"]["calls"], 0)
# aliasing is looked at from 2 KiB: the 4096-byte memcpy and the 2050-byte memmove
expect("memcpy 4 KiB aliasing at 1..63", alias["memcpy"]["distance_1_63"]["calls"], n)
expect("memcpy 4 KiB aliasing at 1..63 bytes", alias["memcpy"]["distance_1_63"]["bytes"], 4096 * n)
expect("memcpy 4 KiB aliasing at 1..63 from 2 KiB", alias["memcpy"]["distance_1_63"]["from_2k_calls"], n)
expect("memcpy 4 KiB aliasing at 1..63 from 2 KiB bytes", alias["memcpy"]["distance_1_63"]["from_2k_bytes"], 4096 * n)
expect("memmove 4 KiB aliasing at 1..63", alias["memmove"]["distance_1_63"]["calls"], n)
expect("memmove 4 KiB aliasing at 1..63 bytes", alias["memmove"]["distance_1_63"]["bytes"], 2050 * n)
expect("memmove 4 KiB aliasing whole window", alias["memmove"]["calls"], n)
expect("memset calls", f["memset"]["calls"], 4 * n)
expect("memset bytes", f["memset"]["bytes"], 21038 * n)
expect("memset 20000-byte bucket", bucket_calls("memset", 20000), n)
expect("memset zero calls", f["memset"]["zero"]["calls"], 2 * n)
expect("memset zero bytes", f["memset"]["zero"]["bytes"], 1005 * n)
expect("bzero entries", f["memset"]["entries"]["bzero"], n)
expect("memmove entries", f["memmove"]["entries"]["memmove"], 3 * n)
expect("memset entries", f["memset"]["entries"]["memset"], 3 * n)
for p in problems:
    print("mismatch:", p)
sys.exit(1 if problems else 0)
