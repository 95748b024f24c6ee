"""The few pieces of the protobuf wire format the test data generators
write pprof profiles with (tests/data/*/make.py): varints, varint fields,
length-delimited fields and packed repeated varints."""


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


def field(num_, payload):
    """A length-delimited field (wire type 2)."""
    return varint(num_ << 3 | 2) + varint(len(payload)) + payload


def num(num_, v):
    """A varint field (wire type 0)."""
    return varint(num_ << 3) + varint(v)


def packed(num_, vals):
    return field(num_, b"".join(varint(v) for v in vals))
