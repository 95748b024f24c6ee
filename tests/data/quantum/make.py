#!/usr/bin/env python3
"""Write the profiles of tests/data/quantum (README.md there says why).

    python3 tests/data/quantum/make.py

Each is a CPU profile whose period type is cpu/nanoseconds at a period of
1 s, over samples whose values are whole numbers of 10 ms, as pyroscope's
converter of async-profiler's JFR recordings writes them.  The stacks and
their counts are drawn from a fixed seed, so the bytes are the same on
every run.
"""
import gzip
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def vint(field, n):
    return key(field, 0) + varint(n)


def ld(field, data):
    return key(field, 2) + varint(len(data)) + data


def packed(field, nums):
    return ld(field, b"".join(varint(n) for n in nums))


class Profile:
    def __init__(self):
        self.strings = [""]
        self.funcs = {}

    def s(self, text):
        if text not in self.strings:
            self.strings.append(text)
        return self.strings.index(text)

    def fid(self, name):
        if name not in self.funcs:
            self.funcs[name] = len(self.funcs) + 1
        return self.funcs[name]

    def encode(self, samples, quantum, period, jitter):
        out = bytearray()
        out += ld(1, vint(1, self.s("cpu")) + vint(2, self.s("nanoseconds")))
        for stack, n in samples:
            ids = [self.fid(f) for f in reversed(stack)]
            value = n * quantum + (jitter(n) if jitter else 0)
            out += ld(2, packed(1, ids) + packed(2, [value]))
        for name, i in self.funcs.items():
            out += ld(4, vint(1, i) + ld(4, vint(1, i)))
        for name, i in self.funcs.items():
            out += ld(5, vint(1, i) + vint(2, self.s(name)))
        pt = ld(11, vint(1, self.s("cpu")) + vint(2, self.s("nanoseconds")))
        tail = vint(9, 1708078384699000000) + pt + vint(12, period)
        strings = b"".join(ld(6, t.encode()) for t in self.strings)
        return bytes(out) + strings + tail


STACKS = [
    ["Thread.run", "Worker.run", "Handler.handle", "Parser.parse"],
    ["Thread.run", "Worker.run", "Handler.handle", "Codec.encode"],
    ["Thread.run", "Worker.run", "Handler.handle", "Codec.encode",
     "Buffer.grow"],
    ["Thread.run", "Worker.run", "Cache.lookup"],
    ["Thread.run", "Worker.run", "Cache.lookup", "Hash.mix"],
    ["Thread.run", "Log.append", "Log.flush"],
]


def draw(rng, weights, total):
    """total samples over STACKS by weights, as records of 1 to 4 each."""
    counts = [0] * len(STACKS)
    for _ in range(total):
        counts[rng.choices(range(len(STACKS)), weights)[0]] += 1
    records = []
    for i, c in enumerate(counts):
        while c > 0:
            k = min(c, rng.choice([1, 1, 1, 1, 2, 3, 4]))
            records.append((STACKS[i], k))
            c -= k
    rng.shuffle(records)
    return records


def write(name, weights, total, seed, jitter=None):
    rng = random.Random(seed)
    data = Profile().encode(draw(rng, weights, total), 10_000_000,
                            1_000_000_000, jitter)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(gzip.compress(data, mtime=0))


# Codec.encode's own work doubles in the new window; the rest as it was.
write("base.pb.gz", [30, 15, 5, 20, 10, 20], 600, 1)
write("new.pb.gz", [30, 30, 5, 20, 10, 20], 600, 2)
# The same, but each value a measured time, off a whole 10 ms by a few
# microseconds: no interval divides them.
write("measured.pb.gz", [30, 15, 5, 20, 10, 20], 600, 3,
      jitter=lambda n: 1 + 7 * n)
