#!/usr/bin/env python3
"""CPU replay of the remainder-plane mode rule (FORMAT.md "Choosing a mode" steps 2-3) on real weights,
for each margin d (a remainder plane is ANS only when its estimate is under (1 - d) * raw, its sample
likewise): how many blocks count their whole remainder plane (the sample does not settle it), how many
code it ANS, and the remainder bytes those save. Session 12 chose d = 1/16 from this (GPU_CODEC_NOTES).

Usage: python3 scripts/rem_margin_replay.py DIR   (DIR: weights_{bf16,fp16,fp32}.bin of
scripts/weights_data.ts; needs numpy). The file is tiled 3 times so that blocks straddle its ends, as in
the GPU benches.
"""
import re
import sys

import numpy as np

COST = np.array([int(x) for x in re.findall(r"\d+", open("cuda/uzip_cost_table.h").read().split("{", 1)[1].split("}")[0])])


def normalize(c, m):  # FORMAT.md "Normalization"
    c = np.asarray(c, dtype=np.int64)
    f = np.where(c > 0, np.maximum(1, (c * 2048) // m), 0)
    d = 2048 - f.sum()
    if d >= 0:
        f[int(np.argmax(c))] += d
    while d < 0:
        b = int(np.argmax(f))
        dec = min(-d, f[b] - 1)
        f[b] -= dec
        d += dec
    return f


def estimate(sample, plane_bytes):  # table + segment headers + the sample's cost scaled to the plane
    c = np.bincount(sample, minlength=256)
    f = normalize(c, len(sample))
    nz = c > 0
    bits = int((c[nz] * COST[f[nz] - 1]).sum())
    k = int(nz.sum())
    nseg = (plane_bytes + 16383) // 16384
    return ((4 + 32 + 2 * k + 3) & ~3) + nseg * 132 + (bits * plane_bytes + 2048 * len(sample) - 1) // (2048 * len(sample))


def remainders(blk, name):
    if name == "fp32":
        r = ((blk >> 8) & 0x800000) | (blk & 0x7FFFFF)
        return np.stack([(r >> (8 * j)) & 0xFF for j in range(3)], 1).astype(np.uint8)
    return (((blk >> 8) & 0x80) | (blk & 0x7F)).astype(np.uint8)[:, None]


def main(folder):
    for name, dt in (("bf16", np.uint16), ("fp16", np.uint16), ("fp32", np.uint32)):
        a = np.fromfile(f"{folder}/weights_{name}.bin", dtype=dt).astype(np.uint64)
        a = np.concatenate([a] * 3)
        for log2 in (13, 14):
            L = 1 << log2
            rows = []
            for b in range(len(a) // L):
                rem = remainders(a[b * L:(b + 1) * L], name)
                if (rem == rem[0]).all():
                    continue  # CONST
                plane = rem.size
                rows.append((estimate(rem[:1024].reshape(-1), plane) / plane, estimate(rem.reshape(-1), plane) / plane))
            rows = np.array(rows)
            for d in (0, 1 / 32, 1 / 16, 1 / 8):
                counted = rows[:, 0] < 1 - d
                ans = counted & (rows[:, 1] < 1 - d)
                saved = np.sum(np.where(ans, 1 - rows[:, 1], 0)) / len(rows)
                print(f"{name} 2^{log2} d={d:.4f}: {counted.sum()} of {len(rows)} blocks count the whole plane, "
                      f"{ans.sum()} code it ANS, saving {100 * saved:.4f}% of remainder bytes")


if __name__ == "__main__":
    main(sys.argv[1])
