#!/usr/bin/env python3
"""Scoreboard barriers of a kernel's SASS, from `cuobjdump -sass -fun KERNEL lib.so` output.

Usage: sass_barriers.py FILE [FROM_ADDR TO_ADDR] [--loads]

Volta-and-later instructions are 128 bits; cuobjdump prints them as two 64-bit words, and the control
bits sit in the top of the second: stall cycles (4 bits), yield (1), the write barrier an instruction
of variable latency sets (3 bits, 7 = none), its read barrier (3), the barriers it waits for (6-bit
mask), operand reuse (4). A warp has six such barriers, and waiting for one waits for every instruction
that set it: loads of a prefetch ring that share a barrier cannot land one at a time. --loads prints
only global and shared loads and the instructions that wait, with the count of global loads per barrier.
"""
import re
import sys


def parse(path):
    lines = open(path).read().split("\n")
    out, i = [], 0
    while i < len(lines) - 1:
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);\s*/\* (0x[0-9a-f]+) \*/", lines[i])
        m2 = re.search(r"/\* (0x[0-9a-f]+) \*/", lines[i + 1]) if m else None
        if m and m2:
            ctrl = int(m2.group(1), 16) >> 41
            out.append({
                "addr": int(m.group(1), 16),
                "ins": m.group(2).strip(),
                "stall": ctrl & 0xF,
                "wb": (ctrl >> 5) & 7,
                "rb": (ctrl >> 8) & 7,
                "wait": (ctrl >> 11) & 0x3F,
            })
            i += 2
        else:
            i += 1
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    loads_only = "--loads" in sys.argv
    if not args:
        print(__doc__)
        sys.exit(2)
    ins = parse(args[0])
    lo = int(args[1], 16) if len(args) > 2 else 0
    hi = int(args[2], 16) if len(args) > 2 else 1 << 62
    per_barrier = {}
    for x in ins:
        if not lo <= x["addr"] <= hi:
            continue
        is_load = "LDG" in x["ins"] or "LDS" in x["ins"] or "LDL" in x["ins"]
        if "LDG" in x["ins"] and x["wb"] != 7:
            per_barrier[x["wb"]] = per_barrier.get(x["wb"], 0) + 1
        if loads_only and not is_load and not x["wait"]:
            continue
        wait = "".join(str(k) for k in range(6) if x["wait"] >> k & 1) or "-"
        wb = x["wb"] if x["wb"] != 7 else "-"
        rb = x["rb"] if x["rb"] != 7 else "-"
        print(f"{x['addr']:06x} {x['ins'][:64]:64s} S{x['stall']:<2d} set={wb} read={rb} wait={wait}")
    print("global loads per write barrier:", dict(sorted(per_barrier.items())))


if __name__ == "__main__":
    main()
