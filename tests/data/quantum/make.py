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
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
from pbwire import field, num, packed  # noqa: E402


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
        cpu = num(1, self.s("cpu")) + num(2, self.s("nanoseconds"))
        out += field(1, cpu)
        for stack, n in samples:
            ids = [self.fid(f) for f in reversed(stack)]
            value = n * quantum + (jitter(n) if jitter else 0)
            out += field(2, packed(1, ids) + packed(2, [value]))
        for name, i in self.funcs.items():
            out += field(4, num(1, i) + field(4, num(1, i)))
        for name, i in self.funcs.items():
            out += field(5, num(1, i) + num(2, self.s(name)))
        pt = field(11, cpu)
        tail = num(9, 1708078384699000000) + pt + num(12, period)
        strings = b"".join(field(6, t.encode()) for t in self.strings)
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
