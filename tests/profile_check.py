#!/usr/bin/env python3
"""Checks a dump's profile against the shares tests/profile_program measured.

usage: profile_check.py DUMP PROGRAM_OUTPUT [TOLERANCE]
The program prints "share SIZE FRACTION" lines: its CPU time in copies of
SIZE bytes over the process's CPU time, the calls' whole cost.  The dump
must give each back, from its "cpu" records in memcpy's size bucket of
SIZE (the copies alone) over its profile's process CPU time, within
TOLERANCE (default 0.05) or a quarter of the share, whichever is more: a
30% share of 64 KiB copies read 24% twice running on a Zen 5 while the
other core was busy, which is sampling on a shared machine, not a wrong
attribution (one would read near 0 or near the whole); to the smallest SIZE, whose many calls take
nearly all of the recording's time, memcpy's "recording_cpu" is added.
Prints one line per share and exits 1 if any is off, the dump has no
profile, or it counts no recording apart."""
import sys

tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
process_cpu = None
function = None
recording = None
cpu = []  # (lo, hi, ns) for memcpy
for line in open(sys.argv[1]):
    words = line.split()
    if words[0] == "profile":
        process_cpu = int(words[4])
    elif words[0] == "function":
        function = words[1]
    elif words[0] == "cpu" and function == "memcpy":
        cpu.append((int(words[1]), int(words[2]), int(words[4])))
    elif words[0] == "recording_cpu" and function == "memcpy":
        recording = int(words[2])
if not process_cpu:
    print("the dump has no profile")
    sys.exit(1)
if recording is None:
    print("the dump counts no time in memshim's recording apart")
    sys.exit(1)
shares = [(int(w[1]), float(w[2])) for w in (line.split() for line in open(sys.argv[2])) if w[:1] == ["share"]]
smallest = min(size for size, want in shares)
bad = 0
for size, want in shares:
    copies = sum(ns for lo, hi, ns in cpu if lo <= size < hi) / process_cpu
    got = copies + (recording / process_cpu if size == smallest else 0)
    off = abs(got - want) > max(tolerance, want / 4)
    bad += off
    parts = f" (copies {copies:.3f} + recording {recording / process_cpu:.3f})" if size == smallest else ""
    print(f"{'FAR' if off else 'near'}: {size}-byte copies: profile {got:.3f}{parts}, program {want:.3f}")
sys.exit(1 if bad else 0)
