"""Reads `objdump -d` of one function on stdin; prints the runs of code from
one return to the next (blocks only a branch reaches) that are 32 bytes or
shorter and lie across a 64-byte line, as START..END in hex; exits 1 if it
found no instruction at all."""
import re
import sys

line = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)")
found, after_ret, start, split = False, False, None, []
for text in sys.stdin:
    m = line.match(text)
    if not m:
        continue
    found = True
    at, op = int(m.group(1), 16), m.group(2)
    if after_ret and not op.startswith(("nop", "xchg", "data16", "cs")):
        start, after_ret = at, False
    if op == "ret":
        if start is not None and at + 1 - start <= 32 and start // 64 != at // 64:
            split.append(f"{start:x}..{at:x}")
        after_ret, start = True, None
print(" ".join(split))
sys.exit(0 if found else 1)
