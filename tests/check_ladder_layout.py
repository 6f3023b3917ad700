"""Reads `objdump -d` of one function on stdin; prints what lies across a
64-byte line that should not, as START..END in hex: the runs of code from
one return to the next (blocks only a branch reaches) that are 32 bytes or
shorter, and the loops (a conditional jump back to an address within the
function) of 40 bytes or less, as memset's are at every width.  Exits 1 if it found no
instruction at all."""
import re
import sys

line = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)(?:\s+([0-9a-f]+)\b)?")
instructions = []
for text in sys.stdin:
    m = line.match(text)
    if m:
        instructions.append((int(m.group(1), 16), m.group(2), m.group(3)))
if not instructions:
    sys.exit(1)

first = instructions[0][0]
after_ret, start, split = False, None, []
for i, (at, op, target) in enumerate(instructions):
    if after_ret and not op.startswith(("nop", "xchg", "data16", "cs")):
        start, after_ret = at, False
    if op == "ret":
        if start is not None and at + 1 - start <= 32 and start // 64 != at // 64:
            split.append(f"{start:x}..{at:x}")
        after_ret, start = True, None
    if op.startswith("j") and op != "jmp" and target and first <= int(target, 16) < at:
        # The loop ends where the next instruction starts.
        head = int(target, 16)
        end = instructions[i + 1][0] if i + 1 < len(instructions) else at + 2
        if end - head <= 40 and head // 64 != (end - 1) // 64:
            split.append(f"{head:x}..{end - 1:x}")
print(" ".join(split))
