# Bytes work of small sizes: 2048 slices of twelve sizes from 1 to 63 B,
# in a fixed order, joined, 8000 times (bench/proof-chain.sh).
import random
random.seed(2)
blob = bytes(random.getrandbits(8) for _ in range(4096))
sizes = [random.choice((1, 3, 7, 8, 12, 16, 20, 24, 31, 40, 48, 63)) for _ in range(2048)]
total = 0
for round in range(8000):
    parts = [blob[i % 4000:i % 4000 + n] for i, n in enumerate(sizes)]
    joined = b"".join(parts)
    total += len(joined) + len(bytes(bytearray(joined[:64])))
print(total)
