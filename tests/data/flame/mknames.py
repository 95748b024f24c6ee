#!/usr/bin/env python3
# Usage: python3 tests/data/flame/mknames.py tests/data/flame/names.pb
# (the flame-*-names CLI cases read it; no protobuf library needed).
# Writes tests/data/flame/names.pb: a CPU profile whose function names
# hold ';', a newline, XML markup, a control byte and invalid UTF-8.
import sys
def varint(n):
    out=b''
    while True:
        b=n&0x7f; n>>=7
        if n: out+=bytes([b|0x80])
        else: return out+bytes([b])
def key(f,wt): return varint(f<<3|wt)
def ld(f,data): return key(f,2)+varint(len(data))+data
def vi(f,n): return key(f,0)+varint(n)
def packed(f,ns): return ld(f,b''.join(varint(n) for n in ns))
strs=[b'',b'samples',b'count',b'cpu',b'nanoseconds',b'main',
      b'semi;colon',b'new\nline',b'<tag a="1">&amp;\'',b'ctrl\x01byte',b'bad\xff\xfeutf8',b'x.go']
S={s:i for i,s in enumerate(strs)}
funcs=[b'main',b'semi;colon',b'new\nline',b'<tag a="1">&amp;\'',b'ctrl\x01byte',b'bad\xff\xfeutf8']
p=b''
p+=ld(1,vi(1,S[b'samples'])+vi(2,S[b'count']))
p+=ld(1,vi(1,S[b'cpu'])+vi(2,S[b'nanoseconds']))
counts=[40,30,20,10,5]
for i,c in enumerate(counts):
    # leaf first: function i+2 (1-based ids), then main (id 1)
    p+=ld(2,packed(1,[i+2,1])+packed(2,[c,c*10000000]))
for i,f in enumerate(funcs):
    p+=ld(4,vi(1,i+1)+ld(4,vi(1,i+1)+vi(2,10+i)))
for i,f in enumerate(funcs):
    p+=ld(5,vi(1,i+1)+vi(2,S[f])+vi(3,S[f])+vi(4,S[b'x.go']))
for s in strs: p+=ld(6,s)
p+=vi(9,1700000000000000000)+vi(10,1000000000)
p+=ld(11,vi(1,S[b'cpu'])+vi(2,S[b'nanoseconds']))
p+=vi(12,10000000)
open(sys.argv[1],'wb').write(p)
