#!/usr/bin/env python3
"""What a symbol table taken from a sample of each block would cost in ratio (a CPU study for issue #3).

Why: the GPU encoder reads every block twice, once for the histogram that its table needs and once to code
it, and by the second read the L2 no longer holds the block (bf16 at 1 GiB: 2.1 GB read for 1.07 GB of
input, docs/GPU_CODEC_NOTES.md, sessions 23-24). A table built from the block's first S elements alone would
let one pass code the block while reading it (the sample read twice, from L2), at the cost of symbols the
sample missed: those need an escape code and their raw byte. This script measures that cost; it writes no
stream and changes no format.

For each block of 2^14 elements (bf16: symbol = exponent byte, fp32 the same; remainders raw):
  full     the format's table: the block's counts normalized to 2048 (uzip_normalize_freqs), each symbol
           coded at log2(2048 / f) bits, plus the section's table and segment header bytes;
  sample S the first S elements' counts (or those of every k-th element: 'every k'), normalized to 2048 - fe, where fe is the escape code's frequency
           (Good-Turing: the sample's share of symbols seen once, N1 / S, at least 1 / 2048); a symbol the
           sample saw costs log2(2048 / f), any other log2(2048 / fe) + 8 bits (its raw byte in an escape
           list), plus the table, a 4-byte escape count and the segment header.
Bit costs are ideal code lengths; the 'full' column is checked against the real CPU codec's ratio where --lib
gives libuzip.so, and lies ~0.001 above it (the 32 final states hold part of the message's bits, which this
counts twice): the columns compare with each other, not with the codec.

Usage: scripts/sampled_tables_study.py [--weights DIR] [--lib build/libuzip.so] [--n ELEMENTS] [--seed N]
  --weights: a folder with weights_fp32.bin and weights_bf16.bin (scripts/weights_data.ts OUT_DIR).
"""
import argparse
import ctypes
import math
import os

import numpy as np

M = 2048  # frequency total, 11 bits (UZIP_ANS_PROB_BITS)
BLOCK = 1 << 14
SEG_HEADER = 132  # u32 nwords + 32 u32 states
SAMPLES = (512, 1024, 2048, 4096)  # the block's first S elements
STRIDES = (16, 8, 4)  # every k-th element of the block


def normalize(counts, total, m_total):
    """uzip_normalize_freqs (FORMAT.md "Normalization") to m_total instead of 2048."""
    f = np.where(counts > 0, np.maximum(1, (counts.astype(np.int64) * m_total) // total), 0)
    d = m_total - int(f.sum())
    if d >= 0:
        f[int(np.argmax(counts))] += d  # argmax: the lowest symbol on ties
    else:
        while d < 0:
            b = int(np.argmax(f))
            take = min(-d, int(f[b]) - 1)
            f[b] -= take
            d += take
    return f


def table_bytes(k):
    return 4 + 32 + ((2 * k + 3) & ~3)  # uzip_ans_table_bytes: K, bitmap, u16 freqs padded to 4


def block_costs(sym):
    """Coded symbol-plane bytes of one block: the full table, then each sample size."""
    n = len(sym)
    counts = np.bincount(sym, minlength=256)
    out = {}
    if counts.max() == n:  # CONST in either scheme
        out["full"] = 16
        for key in SAMPLES + tuple(f"/{k}" for k in STRIDES):
            out[key] = 16
        return out
    f = normalize(counts, n, M)
    present = counts > 0
    bits = float((counts[present] * np.log2(M / f[present])).sum())
    out["full"] = min(n, table_bytes(int(present.sum())) + SEG_HEADER + math.ceil(bits / 8))
    for key in SAMPLES + tuple(f"/{k}" for k in STRIDES):
        if isinstance(key, str):  # every k-th element of the block
            smp = sym[::int(key[1:])]
        else:  # the block's first elements
            smp = sym[:key]
        s = len(smp)
        sc = np.bincount(smp, minlength=256)
        n1 = int((sc == 1).sum())
        fe = max(1, round(M * n1 / s))
        seen = sc > 0
        fs = normalize(sc, s, M - fe)
        hit = seen & present
        miss = present & ~seen
        b = float((counts[hit] * np.log2(M / fs[hit])).sum())
        b += float(counts[miss].sum()) * (math.log2(M / fe) + 8)
        out[key] = min(n, table_bytes(int(seen.sum()) + 1) + 4 + SEG_HEADER + math.ceil(b / 8))
    return out


def study(name, sym, width):
    """Ratio of a split-layout stream (raw remainders, coded symbols, 8-byte directory, 64-byte header)."""
    n = len(sym)
    totals = {}
    for b0 in range(0, n, BLOCK):
        for k, v in block_costs(sym[b0:b0 + BLOCK]).items():
            totals[k] = totals.get(k, 0) + ((v + 15) & ~15)
    nb = (n + BLOCK - 1) // BLOCK
    fixed = 64 + n * (width - 1) + 8 * nb
    raw = n * width
    row = f"{name:<28} full {(fixed + totals['full']) / raw:.5f}"
    for key in SAMPLES + tuple(f"/{k}" for k in STRIDES):
        row += f"  {('S=' + str(key)) if isinstance(key, int) else 'every ' + key[1:]:<8} {(fixed + totals[key]) / raw:.5f}"
    print(row, flush=True)
    return (fixed + totals["full"]) / raw


def real_ratio(lib, data, dtype_id, count):
    """The CPU codec's split-layout ratio (uzipCompressCpu, flags 0x02) for comparison with 'full'."""
    cap = ctypes.c_uint64()
    lib.uzipMaxCompressedSize(dtype_id, ctypes.c_uint64(count), 2, 14, ctypes.byref(cap))
    dst = (ctypes.c_uint8 * cap.value)()
    out = ctypes.c_uint64()
    buf = np.ascontiguousarray(data)
    st = lib.uzipCompressCpu(buf.ctypes.data_as(ctypes.c_void_p), ctypes.c_uint64(count), dtype_id, 2, 14, dst,
                             cap, ctypes.byref(out))
    return out.value / buf.nbytes if st == 0 else float("nan")


def bf16_of(f32):
    """fp32 -> bf16 bit patterns, round to nearest even (finite inputs)."""
    u = f32.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights")
    ap.add_argument("--lib")
    ap.add_argument("--n", type=int, default=1 << 24)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    lib = ctypes.CDLL(a.lib) if a.lib else None
    sets = [
        ("bf16 Gaussian(0, 0.02)", bf16_of(rng.normal(0, 0.02, a.n)), 2),
        ("bf16 uniform[-1, 1)", bf16_of(rng.uniform(-1, 1, a.n)), 2),
        ("fp32 Gaussian(0, 0.02)", rng.normal(0, 0.02, a.n).astype(np.float32).view(np.uint32), 4),
    ]
    if a.weights:
        w = np.fromfile(os.path.join(a.weights, "weights_fp32.bin"), dtype=np.uint32)
        sets.append(("bf16 real weights", np.fromfile(os.path.join(a.weights, "weights_bf16.bin"), dtype=np.uint16), 2))
        sets.append(("fp32 real weights", w, 4))
    print(f"seed {a.seed}; ratio = stream bytes / raw bytes, split layout, 2^14 blocks; S = sample elements")
    for name, v, width in sets:
        sym = ((v >> 7) & 0xFF).astype(np.uint8) if width == 2 else ((v >> 23) & 0xFF).astype(np.uint8)
        full = study(name, sym, width)
        if lib is not None:
            print(f"{'':<28} CPU codec {real_ratio(lib, v, 1 if width == 2 else 3, len(v)):.5f} (full above: {full:.5f})")


if __name__ == "__main__":
    main()
