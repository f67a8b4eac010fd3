#!/usr/bin/env python3
"""Data of session 31's pair-coding proxy (scripts/gpu_s31a_h200.sh): the pair-code planes of bf16 data, one
byte per two elements (low nibble the first element's code, high nibble the second's), where an element's
code is its exponent's rank among the 15 most frequent exponents of its 2^14-element block (by count, the
lower exponent first on ties) and 15 stands for any other exponent. Compressed as fp8 e4m3 (every byte
entropy-coded) by main's kernels, such a plane shows how fast a coder of half as many, wider symbols runs.

Writes OUT/gauss_pairs.bin (2^25 Gaussian(0, 0.02) elements rounded to bf16 by round-to-nearest-even, seed
1234) and OUT/w_pairs.bin (from WEIGHTS, the real bf16 weights of scripts/weights_data.ts, whole blocks).

Usage: scripts/pair_proxy_data.py OUT WEIGHTS_BF16_BIN"""
import sys

import numpy as np


def bf16(a):
    u = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def pairs(x16, block=1 << 14):
    e = ((x16 >> 7) & 0xFF).astype(np.int64)
    out = np.empty(len(x16) // 2, np.uint8)
    for i in range(0, len(x16), block):
        s = e[i:i + block]
        c = np.bincount(s, minlength=256)
        order = np.lexsort((np.arange(256), -c))
        code = np.full(256, 15, np.int64)
        for k, v in enumerate(order[:15]):
            if c[v]:
                code[v] = k
        cd = code[s]
        out[i // 2:(i + len(s)) // 2] = (cd[0::2] | (cd[1::2] << 4)).astype(np.uint8)
    return out


if len(sys.argv) != 3:
    sys.exit(__doc__)
out, weights = sys.argv[1:]
g = bf16(np.random.default_rng(1234).normal(0, 0.02, 1 << 25))
pairs(g).tofile(f"{out}/gauss_pairs.bin")
w = np.fromfile(weights, dtype=np.uint16)
w = w[:len(w) // (1 << 14) * (1 << 14)]
pairs(w).tofile(f"{out}/w_pairs.bin")
for f in ("gauss_pairs.bin", "w_pairs.bin"):
    d = np.fromfile(f"{out}/{f}", np.uint8)
    c = np.bincount(d, minlength=256)
    p = c[c > 0] / c.sum()
    print(f, len(d), "bytes, order-0 entropy %.3f bits a pair" % -(p * np.log2(p)).sum())
