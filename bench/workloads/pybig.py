# Frames of 40 MiB go round three buffers, as in a video or snapshot
# pipeline: each step copies the newest frame into the oldest buffer,
# patches a few bytes of it and checksums its first 64 KiB.
# (Copies beyond the last-level cache, for bench/proof-chain.sh.)
import zlib
frame = 40 << 20
seed = bytes(range(256)) * 4096
buffers = [bytearray(seed * (frame // len(seed))) for _ in range(3)]
total = 0
for step in range(450):
    new, old = buffers[step % 3], buffers[(step + 2) % 3]
    new[:] = old                          # one 40 MiB memcpy
    new[step * 4096:step * 4096 + 16] = b"step %10d\n" % step
    total = zlib.crc32(memoryview(new)[:1 << 16], total)
print(total)
