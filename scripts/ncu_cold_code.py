#!/usr/bin/env python3
"""Where a kernel's instruction-fetch waits sit in its source: the instructions an ncu run executed once or twice
per warp (exec counts WARPS or 2 WARPS, each plus EXTRA allowed: the prologue runs in warps that take no block), with their
stall_no_inst samples, grouped by source line of a -lineinfo build of the same kernel. The ncu SASS (from a build
without line info) and the -lineinfo SASS are aligned by opcode sequence, so the two builds may differ a little.

Usage: scripts/ncu_cold_code.py NCU_SASS_CSV_XZ LINEINFO_SASS KERNEL_MANGLED WARPS [EXTRA]
  NCU_SASS_CSV_XZ: scripts/device_env.sh ncu_full's ncu_*_sass.csv.xz (one kernel).
  LINEINFO_SASS: `nvdisasm -g -c` of the cubin (`cuobjdump -xelf all X.o`) of `nvcc -lineinfo ... -c
    cuda/gpu_codec.cu -o X.o` (scripts/build.sh's flags plus -lineinfo).
  KERNEL_MANGLED: the kernel's mangled name (its .text section in LINEINFO_SASS).
  e.g. (session 54): scripts/ncu_cold_code.py \\
    bench/results/h100-2026-12-07-session52/4-stall-hunt/ncu_d16m_sass.csv.xz all.sass \\
    _ZN8uzip_gpu17decompress_kernelILi8ELi4ELb1ELb0ELi0ELb1ELb0ELb1EEEv9DecParams 2048 64"""
import collections
import csv
import difflib
import io
import lzma
import re
import sys

if len(sys.argv) < 5:
    sys.exit(__doc__)
csv_path, sass_path, kernel, warps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
extra = int(sys.argv[5]) if len(sys.argv) > 5 else 0
cold = {warps, warps + extra, 2 * warps, 2 * warps + extra}


def opcode(text):
    t = text.split()
    return (t[1] if t and t[0].startswith("@") else t[0] if t else "").split(".")[0]


# The ncu run: opcode, executions, no-instruction samples, all samples, per SASS address.
r = csv.reader(io.TextIOWrapper(lzma.open(csv_path), encoding="utf-8"))
next(r)
head = next(r)
ix = {k: i for i, k in enumerate(head)}
prof = []
for x in r:
    if len(x) != len(head):
        continue
    prof.append((opcode(x[1].strip()), int(x[ix["Instructions Executed"]]), int(x[ix["stall_no_inst"]]),
                 int(x[ix["Warp Stall Sampling (All Samples)"]])))

# The -lineinfo build: opcode and (file, line) per instruction of the kernel's section.
code, on, src = [], False, None
for line in open(sass_path):
    if line.startswith("//--------------------- .text."):
        if on:
            break
        on = line.split(".text.", 1)[1].split()[0] == kernel
        continue
    if not on:
        continue
    m = re.search(r'//## File "([^"]+)", line (\d+)', line)
    if m:
        src = (m.group(1).rsplit("/", 1)[-1], int(m.group(2)))
        continue
    m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(.*?);", line)
    if m:
        code.append((opcode(m.group(1)), src))
if not code:
    sys.exit(f"kernel {kernel} not found in {sass_path}")

sm = difflib.SequenceMatcher(None, [p[0] for p in prof], [c[0] for c in code], autojunk=False)
to_code = {}
for tag, i1, i2, j1, _ in sm.get_opcodes():
    if tag == "equal":
        for k in range(i2 - i1):
            to_code[i1 + k] = j1 + k
print(f"matched {len(to_code)} of {len(prof)} profiled instructions ({len(code)} in the -lineinfo kernel)")

by_line = collections.defaultdict(lambda: [0, 0, 0])
tot_ni = sum(p[2] for p in prof)
for i, (_, ex, ni, smp) in enumerate(prof):
    if ex in cold and i in to_code:
        g = by_line[code[to_code[i]][1]]
        g[0] += 1
        g[1] += ni
        g[2] += smp
cold_n = sum(v[0] for v in by_line.values())
cold_ni = sum(v[1] for v in by_line.values())
print(f"cold instructions {cold_n}, their no-instruction samples {cold_ni} of the kernel's {tot_ni}")
print("instructions  no_inst  samples  source")
for s, v in sorted(by_line.items(), key=lambda t: (-t[1][1], -t[1][0])):
    print(f"{v[0]:12d} {v[1]:8d} {v[2]:8d}  {s[0] if s else '?'}:{s[1] if s else '?'}")
