#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a small SentencePiece model for the tokenizer-spm fuzzer's corpus.

    shrink_spm.py IN.model OUT.model [NORMAL_PIECES]

Keeps every field of IN except its pieces, of which it keeps the control,
unknown, user-defined and byte pieces and the first NORMAL_PIECES (default
200) normal ones: a model of a few KiB that still loads and encodes, so
the fuzzer mutates a valid model quickly instead of a 100 KiB one.
"""
import sys


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    """Yields (field number, wire type, raw bytes of the whole field)."""
    i = 0
    while i < len(b):
        st = i
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            _, i = varint(b, i)
        elif wt == 1:
            i += 8
        elif wt == 5:
            i += 4
        elif wt == 2:
            n, i = varint(b, i)
            i += n
        else:
            raise ValueError("wire type %d" % wt)
        yield f, wt, b[st:i]


def piece_type(raw):
    """The type (field 3) of a serialized ModelProto.pieces entry."""
    _, i = varint(raw, 0)
    n, i = varint(raw, i)
    for f, wt, fr in fields(raw[i:i + n]):
        if f == 3 and wt == 0:
            return varint(fr, 1)[0]
    return 1  # NORMAL


def main():
    src, dst = sys.argv[1], sys.argv[2]
    keep_normal = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    out = bytearray()
    normal = 0
    for f, wt, raw in fields(open(src, "rb").read()):
        if f == 1 and wt == 2 and piece_type(raw) == 1:
            normal += 1
            if normal > keep_normal:
                continue
        out += raw
    with open(dst, "wb") as fh:
        fh.write(out)


if __name__ == "__main__":
    main()
