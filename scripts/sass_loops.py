#!/usr/bin/env python3
"""Lists the loops of one kernel in `cuobjdump -sass` output (sm_90): for each backward branch whose body
holds at least MIN_VOTE VOTE instructions and fewer than MAX_LEN instructions, its address range, length,
opcode counts, local-memory traffic (LDL / STL: spills) and the sum of its static stall counts (the control
bits scripts/sass_ctl.py decodes). The coding loops of the ANS kernels are the ones with a VOTE per step, so
this finds them without reading 30,000 lines, and a spill or a longer stall sum shows up at once.

Usage: cuobjdump -sass libuzip.so | scripts/sass_loops.py KERNEL_SUBSTRING [MIN_VOTE [MAX_LEN]]
  e.g. .carry/tools/cuobjdump -sass build/libuzip.so |
         scripts/sass_loops.py decompress_kernelILi8ELi6ELb0ELb0ELb0ELb1ELb1E 16 700
KERNEL_SUBSTRING matches the end of the mangled name on the "Function :" line (the first such function)."""
import collections
import re
import sys

if len(sys.argv) < 2:
    sys.stderr.write(__doc__)
    sys.exit(2)
name = sys.argv[1]
min_vote = int(sys.argv[2]) if len(sys.argv) > 2 else 4
max_len = int(sys.argv[3]) if len(sys.argv) > 3 else 2000

# One function's lines: from its "Function :" header to the next one.
lines, on, found = [], False, False
for line in sys.stdin:
    if "Function :" in line:
        if found:
            break
        on = name in line.strip().split()[-1]
        found = on
    if on:
        lines.append(line)
if not found:
    sys.exit(f"no function whose name holds {name!r}")

# (address, text, stall) per instruction: the text line carries the first 64-bit word, the next line the
# second, whose bits 41-44 are the stall count.
ins = []
for i, line in enumerate(lines):
    m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\* 0x[0-9a-f]{16} \*/", line)
    if not m or i + 1 >= len(lines):
        continue
    m2 = re.search(r"/\* 0x([0-9a-f]{16}) \*/", lines[i + 1])
    stall = (int(m2.group(1), 16) >> 41) & 0xF if m2 else 0
    ins.append((int(m.group(1), 16), m.group(2), stall))
index = {a: k for k, (a, _, _) in enumerate(ins)}


def opcode(text):
    text = re.sub(r"^@!?U?P\w+\s+", "", text)
    return text.split()[0].split(".")[0]


for k, (addr, text, _) in enumerate(ins):
    m = re.search(r"BRA\s+(?:`\(\.L_x_\d+\)\s*)?0x([0-9a-f]+)", text)
    if not m:
        continue
    target = int(m.group(1), 16)
    if target >= addr or target not in index:
        continue
    body = ins[index[target]:k + 1]
    ops = collections.Counter(opcode(t) for _, t, _ in body)
    if ops["VOTE"] < min_vote or len(body) >= max_len:
        continue
    stalls = sum(s for _, _, s in body)
    top = ", ".join(f"{o} {n}" for o, n in ops.most_common(12))
    print(f"{target:#x}-{addr:#x}: {len(body)} instructions, VOTE {ops['VOTE']}, LDL {ops['LDL']}, "
          f"STL {ops['STL']}, static stalls {stalls}; {top}")
