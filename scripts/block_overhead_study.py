#!/usr/bin/env python3
"""What each block's fixed bytes cost in ratio, and what a leaner section would save (a CPU study, issue #3).

Why: a small call's latency is one block's serial work (docs/GPU_CODEC_NOTES.md, fifth and eighteenth
sections), so 2^12-element blocks would cut the 1 MiB call's time by about a third, but they cost Gaussian
bf16 ~+0.011 of ratio and go over DietGPU's 0.674 bar. That cost is the bytes every ANS section carries whatever
its length: the table (u16 K, u16 0, a 32-byte bitmap, u16 freq[K]) and the segment header (u32 nwords, 32 u32
final states). This script measures the real CPU codec's split-layout ratio at log2Block 11..14 and models two
leaner sections on the same blocks, changing no format:

  range   the table as u8 lo, u8 hi, u16 0 and a u16 frequency for every symbol lo..hi (0 for an absent
          one), instead of the bitmap and the present symbols' frequencies: min(range, today) bytes;
  seeded  each lane's encoder state starts at 2^30 + p instead of 2^15, p the next 30 bits of the block's
          raw remainder bytes, which the decoder takes back from the state it ends on: the lane's stream
          grows by log2(2^30 / 2^15) = 15 bits and carries 30 bits that leave the raw plane, 15 bits saved
          a lane, 60 bytes a segment (a counted estimate, not coded here).

Both are computed from the block's exponent counts (K, lo, hi), as the codec would see them.

Usage: scripts/block_overhead_study.py --lib build/libuzip.so [--weights DIR] [--n ELEMENTS] [--seed N]
  --weights: a folder with weights_bf16.bin (scripts/weights_data.ts OUT_DIR).
"""
import argparse
import ctypes
import os

import numpy as np

from sampled_tables_study import bf16_of, table_bytes  # the same conversion and table size

SEGMENT = 16384  # symbols a segment


def codec_bytes(lib, data, dtype_id, log2, flags=2):
    """The CPU codec's stream size (uzipCompressCpu; flags 0x02: split layout, 0x12: split with lean sections)."""
    count = len(data)
    cap = ctypes.c_uint64()
    assert lib.uzipMaxCompressedSize(dtype_id, ctypes.c_uint64(count), flags, log2, ctypes.byref(cap)) == 0
    dst = (ctypes.c_uint8 * cap.value)()
    out = ctypes.c_uint64()
    buf = np.ascontiguousarray(data)
    st = lib.uzipCompressCpu(buf.ctypes.data_as(ctypes.c_void_p), ctypes.c_uint64(count), dtype_id, flags, log2,
                             dst, cap, ctypes.byref(out))
    assert st == 0, st
    return out.value


def rans_words(syms, f, cum, x):
    """16-bit words the format's encoder (FORMAT.md "ANS section") emits for one lane from state x."""
    words = 0
    for s in syms[::-1]:
        fs = int(f[s])
        if x >= fs << 20:
            x >>= 16
            words += 1
        x = (x // fs) * 2048 + x % fs + int(cum[s])
    return words


def seed_saving(rng, lanes=2000, steps=128):
    """Bytes a 32-lane segment saves when each lane starts at 2^30 + 30 raw bits instead of 2^15."""
    p = np.array([.3, .25, .15, .1, .07, .04, .03, .02, .015, .01, .007, .005, .003, .002, .0015, .0015])
    f = np.maximum(1, np.floor(p / p.sum() * 2048)).astype(int)
    f[0] += 2048 - f.sum()
    cum = np.concatenate([[0], np.cumsum(f)[:-1]])
    grown = 0
    for _ in range(lanes):
        syms = rng.choice(16, size=steps, p=f / 2048)
        grown += 16 * (rans_words(syms, f, cum, (1 << 30) + int(rng.integers(0, 1 << 30))) -
                       rans_words(syms, f, cum, 1 << 15))
    bits = 30 - grown / lanes
    return bits, 32 * bits / 8


def table_range(lo, hi):
    return 4 + ((2 * (hi - lo + 1) + 3) & ~3)


def savings(sym, log2, seeded_saving):
    """Bytes the leaner sections would save over the blocks of one symbol plane (ANS blocks only: a block
    whose plane is constant is not coded; one near-uniform enough to go RAW is rare for exponents), and the
    mean count of present symbols and of lo..hi span over those blocks."""
    block = 1 << log2
    table = seeded = 0
    ks, spans = [], []
    for b0 in range(0, len(sym), block):
        s = sym[b0:b0 + block]
        present = np.nonzero(np.bincount(s, minlength=256))[0]
        if len(present) <= 1:
            continue
        k, span = len(present), int(present[-1] - present[0] + 1)
        ks.append(k)
        spans.append(span)
        table += table_bytes(k) - min(table_bytes(k), table_range(present[0], present[-1]))
        seeded += seeded_saving * ((len(s) + SEGMENT - 1) // SEGMENT)
    return table, seeded, np.mean(ks), np.mean(spans)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--weights")
    ap.add_argument("--n", type=int, default=1 << 24)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    lib = ctypes.CDLL(a.lib)
    rng = np.random.default_rng(a.seed)
    sets = [
        ("bf16 Gaussian(0, 0.02)", bf16_of(rng.normal(0, 0.02, a.n))),
        ("bf16 uniform[-1, 1)", bf16_of(rng.uniform(-1, 1, a.n))),
    ]
    if a.weights:
        sets.append(("bf16 real weights", np.fromfile(os.path.join(a.weights, "weights_bf16.bin"), dtype=np.uint16)))
    bits, seg = seed_saving(np.random.default_rng(a.seed + 1))
    print(f"seeded states: {bits:.2f} bits saved a lane, {seg:.1f} bytes a segment (simulated)")
    print(f"seed {a.seed}; split layout; ratio = stream bytes / raw bytes; 'range', 'seeded' and 'both' modeled from"
          " 'codec'; 'lean' coded (flag 0x10, FORMAT.md \"Lean sections\")")
    print(f"{'data':<24} {'log2':>4} {'codec':>8} {'+range':>8} {'+seeded':>8} {'both':>8} {'lean':>8} {'K avg':>6} "
          f"{'span avg':>8}")
    for name, v in sets:
        sym = ((v >> 7) & 0xFF).astype(np.uint8)
        raw = v.nbytes
        for log2 in (11, 12, 13, 14):
            n = codec_bytes(lib, v, 1, log2)
            lean = codec_bytes(lib, v, 1, log2, 0x12)
            t, s, k_avg, span_avg = savings(sym, log2, seg)
            print(f"{name:<24} {log2:>4} {n / raw:>8.5f} {(n - t) / raw:>8.5f} {(n - s) / raw:>8.5f} "
                  f"{(n - t - s) / raw:>8.5f} {lean / raw:>8.5f} {k_avg:>6.1f} {span_avg:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
