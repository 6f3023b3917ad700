#!/usr/bin/env python3
"""Checks a dump's profile against the shares tests/profile_program measured.

usage: profile_check.py DUMP PROGRAM_OUTPUT [TOLERANCE]
The program prints "share SIZE FRACTION" lines: its CPU time in copies of
SIZE bytes over the process's CPU time.  The dump must give each back, from
its "cpu" records in memcpy's size bucket of SIZE over its profile's
process CPU time, within TOLERANCE (default 0.05).  Prints one line per
share and exits 1 if any is off or the dump has no profile."""
import sys

tolerance = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
process_cpu = None
function = None
cpu = []  # (lo, hi, ns) for memcpy
for line in open(sys.argv[1]):
    words = line.split()
    if words[0] == "profile":
        process_cpu = int(words[4])
    elif words[0] == "function":
        function = words[1]
    elif words[0] == "cpu" and function == "memcpy":
        cpu.append((int(words[1]), int(words[2]), int(words[4])))
if not process_cpu:
    print("the dump has no profile")
    sys.exit(1)
bad = 0
for line in open(sys.argv[2]):
    words = line.split()
    if words[:1] != ["share"]:
        continue
    size, want = int(words[1]), float(words[2])
    got = sum(ns for lo, hi, ns in cpu if lo <= size < hi) / process_cpu
    off = abs(got - want) > tolerance
    bad += off
    print(f"{'FAR' if off else 'near'}: {size}-byte copies: profile {got:.3f}, program {want:.3f}")
sys.exit(1 if bad else 0)
