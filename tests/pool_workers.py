"""A multiprocessing.Pool of 3 workers, for tests/test_signals.sh: 12 tasks,
each 100 memmoves of 77777 bytes (ctypes calls the C library's memmove), then
the pool ends its workers with SIGTERM (Pool.__exit__ is terminate()).
Prints "worker PID MEMMOVES" for each worker: the 77777-byte memmoves it
made, which its dump must count."""
import ctypes
import multiprocessing
import os

CALLS = 100
SIZE = 77777


def work(_):
    a = ctypes.create_string_buffer(SIZE)
    b = ctypes.create_string_buffer(SIZE)
    for _ in range(CALLS):
        ctypes.memmove(a, b, SIZE)
    return os.getpid()


if __name__ == "__main__":
    multiprocessing.set_start_method("fork")
    with multiprocessing.Pool(3) as pool:
        workers = [w.pid for w in pool._pool]
        done = pool.map(work, range(12), chunksize=1)
    for pid in workers:
        print("worker", pid, done.count(pid) * CALLS)
