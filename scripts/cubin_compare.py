#!/usr/bin/env python3
"""Compares the machine code of two sm_90 cubins kernel by kernel, on a machine without a GPU or a disassembler.

Why: a change meant to leave the device code alone (a refactor, a new template parameter with its old
default, host-only edits) can be checked here, where no GPU and no cuobjdump exist: every kernel's code is an
ELF section `.text.<mangled name>`, and equal bytes are equal SASS. Build each side with
  nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Icuda -Inccl -cubin -o X.cubin cuda/gpu_codec.cu
(about 3 minutes; add -Xptxas -v for registers and spills), then
  scripts/cubin_compare.py OLD.cubin NEW.cubin [--rename 'FROM=>TO' ...]
--rename rewrites the old side's section names before matching, a Python regular expression and its
replacement (a template parameter added with a default changes the mangled names: session 34's bool appended to
compress_kernel was '(15compress_kernelI.*)EEEv9EncParams$=>\1ELb0EEEv9EncParams').
Prints one line per kernel (same / DIFF / only-old / only-new, sizes) and a count; exits 1 when any differ.
"""
import argparse
import re
import struct
import sys


def text_sections(path):
    """{section name: bytes} of an ELF64 file's .text.* sections."""
    b = open(path, "rb").read()
    if b[:4] != b"\x7fELF" or b[4] != 2:
        sys.exit(f"{path}: not an ELF64 file")
    shoff = struct.unpack_from("<Q", b, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize) for i in range(shnum)]
    strtab = hdrs[shstrndx][4]
    out = {}
    for name_off, sh_type, _flags, _addr, off, size, *_ in hdrs:
        name = b[strtab + name_off:b.index(b"\0", strtab + name_off)].decode()
        if name.startswith(".text."):
            out[name[6:]] = b[off:off + size] if sh_type != 8 else b""  # SHT_NOBITS has no bytes
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rename", action="append", default=[], help="REGEX=>REPLACEMENT for the old side's names")
    a = ap.parse_args()
    old, new = text_sections(a.old), text_sections(a.new)
    renamed = {}
    for name, code in old.items():
        for rule in a.rename:
            frm, to = rule.split("=>", 1)
            name = re.sub(frm, to, name)
        renamed[name] = code
    counts = {"same": 0, "DIFF": 0, "only-old": 0, "only-new": 0}
    for name in sorted(set(renamed) | set(new)):
        o, n = renamed.get(name), new.get(name)
        kind = "only-new" if o is None else "only-old" if n is None else "same" if o == n else "DIFF"
        counts[kind] += 1
        print(f"{kind:<8} {len(o or b''):>9} {len(n or b''):>9}  {name}")
    print(", ".join(f"{v} {k}" for k, v in counts.items()))
    sys.exit(1 if counts["DIFF"] or counts["only-old"] else 0)


if __name__ == "__main__":
    main()
