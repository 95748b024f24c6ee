#!/usr/bin/env python3
"""Write the profiles of tests/data/waits (README.md says what each is).

Each is a pprof protobuf with Go's header of its mutex and block
profiles (contentions/count and delay/nanoseconds, period type
contentions/count, period 1), gzipped with no name and no time, so that
the bytes depend on this script alone.  Usage: python3 make.py
"""
import gzip
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tools"))
from pbwire import field, num, packed  # noqa: E402


def profile(stacks, seconds):
    """stacks: (leaf-first function names, contentions, delay ns)."""
    strings = [""]

    def s(x):
        if x not in strings:
            strings.append(x)
        return strings.index(x)

    funcs, out = {}, bytearray()
    for t, u in (("contentions", "count"), ("delay", "nanoseconds")):
        out += field(1, num(1, s(t)) + num(2, s(u)))
    for names, count, delay in stacks:
        ids = []
        for name in names:
            if name not in funcs:
                funcs[name] = len(funcs) + 1
            ids.append(funcs[name])
        out += field(2, packed(1, ids) + packed(2, [count, delay]))
    for name, fid in funcs.items():
        # A location per function, at its own address.
        line = num(1, fid) + num(2, 10 * fid)
        out += field(4, num(1, fid) + num(3, 0x401000 + 0x40 * fid) +
                     field(4, line))
    for name, fid in funcs.items():
        out += field(5, num(1, fid) + num(2, s(name)) + num(3, s(name)) +
                     num(4, s("main.go")))
    out += num(9, 1796140800000000000)          # 2026-12-01 UTC
    out += num(10, seconds * 1000000000)
    out += field(11, num(1, s("contentions")) + num(2, s("count")))
    out += num(12, 1)
    for x in strings:
        out += field(6, x.encode())
    return bytes(out)


def write(path, stacks, seconds=4):
    with open(path, "wb") as f:
        f.write(gzip.compress(profile(stacks, seconds), mtime=0))


UNLOCK = ["sync.(*Mutex).Unlock", "main.handleQuote", "main.serve"]
SELECT = ["runtime.selectgo", "main.sendEvent", "main.serve"]
RECV = ["runtime.chanrecv1", "main.waitForWork", "main.serve"]
OTHER = ["main.spin", "main.serve"]

# A mutex profile whose leaves lean mutex, not surely: 70% Unlock.
write("mutex-leaning.pb.gz", [(UNLOCK, 707, 7070000),
                              (SELECT, 203, 9030000),
                              (OTHER, 101, 1010000)])
# A block profile, surely one: every contention in chan or select.
write("block-sure.pb.gz", [(SELECT, 901, 40100000),
                           (RECV, 299, 11900000)])
# A mutex profile, surely one.
write("mutex-sure.pb.gz", [(UNLOCK, 953, 9530000),
                           (OTHER, 19, 190000)])
