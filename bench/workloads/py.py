# Bytes work of many sizes: slices a 64 KiB random blob into 4096 pieces of
# 8 B to 4 KB, joins, copies and rewrites them, 250 times (bench/proof-chain.sh).
import random
random.seed(1)
blob = bytes(random.getrandbits(8) for _ in range(1 << 16))
sizes = [random.choice((8, 16, 24, 40, 64, 100, 200, 500, 1500, 4000)) for _ in range(4096)]
total = 0
for round in range(250):
    parts = [blob[i % 60000:i % 60000 + n] for i, n in enumerate(sizes)]
    joined = b"".join(parts)
    total += len(joined) + len(bytearray(joined)) + len(joined.replace(b"\x00", b"\x01"))
    buf = bytearray(1 << 16)
    for i, n in enumerate(sizes):
        buf[i % 1000:i % 1000 + n] = parts[i]
print(total)
