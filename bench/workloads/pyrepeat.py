# bytes * 32 of a 4097-byte object, 3000 times: CPython doubles its copy
# inside the result, so each memcpy's destination lies 4097 * 2^k past its
# source, 1, 2, 4, 8 or 16 bytes modulo 4 KiB (the 4 KiB-aliasing hazard
# from 4 KiB to 64 KiB; issue 61).  N (default 4097) as the first argument.
import sys
n = int(sys.argv[1]) if len(sys.argv) > 1 else 4097
b = b"x" * n
for _ in range(3000):
    c = b * 32
