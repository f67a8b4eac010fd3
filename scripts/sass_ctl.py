#!/usr/bin/env python3
"""Reads `cuobjdump -sass` output (sm_90) on stdin and prints one line per instruction with its control bits:
address, stall cycles (the scheduler waits this long before the warp's next instruction), yield, the
scoreboard it writes (w) and reads (r), the scoreboards it waits on (mask m), then the instruction.
Usage: cuobjdump -sass x.cubin | scripts/sass_ctl.py   (scripts/sass_kernel.sh does this with SASS_CTL=1)

The bits sit in the second 64-bit word of each 128-bit instruction: stall 41-44, yield 45, write barrier
46-48, read barrier 49-51, wait mask 52-57 (7 means none for the barriers). Why it helps: a warp issues in
order, so the stall counts of a loop's instructions are a floor under its time per iteration, and they
show latencies that ptxas knows, e.g. 13 cycles from an ISETP to an instruction guarded by its predicate
against 4 to a SEL that reads it (docs/GPU_CODEC_NOTES.md, twenty-second section)."""
import re
import sys

lines = sys.stdin.read().split("\n")
i = 0
while i < len(lines):
    m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\* 0x([0-9a-f]{16}) \*/", lines[i])
    if m and i + 1 < len(lines):
        m2 = re.search(r"/\* 0x([0-9a-f]{16}) \*/", lines[i + 1])
        if m2:
            hi = int(m2.group(1), 16)
            stall, yld = (hi >> 41) & 0xF, (hi >> 45) & 1
            wb, rb, wm = (hi >> 46) & 7, (hi >> 49) & 7, (hi >> 52) & 0x3F
            print(f"{m.group(1)} s{stall:2d} {'Y' if yld else ' '} w{wb if wb != 7 else '-'} "
                  f"r{rb if rb != 7 else '-'} m{wm:02x}  {m.group(2)}")
            i += 2
            continue
    i += 1
