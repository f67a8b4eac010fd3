# Prints the compressed pipeline's medians (us) per size, variant and round from the p2p-self-*.json files
# in the folder given (bench/p2p_self.ts output): python3 table.py DIR
import glob, json, os, sys
d = sys.argv[1]
t = {}
for f in sorted(glob.glob(os.path.join(d, "p2p-self-*.json"))):
    v, r = os.path.basename(f).split("-")[2].split("_")
    for row in json.load(open(f))["rows"]:
        t.setdefault(row["bytes"], {}).setdefault(v, []).append((r, row["compressedUs"], row["plainUs"]))
print("compressed pipeline through self, median of 31 batches, us (rounds r1 r2 r3); NCCL self copy in brackets")
for b in sorted(t):
    cells = []
    for v in ("default", "spread", "lean13"):
        xs = sorted(t[b].get(v, []))
        cells.append("%s %s [%s]" % (v, " ".join("%.0f" % c for _, c, _ in xs), " ".join("%.0f" % p for _, _, p in xs)))
    print("%4d MiB  " % (b >> 20) + " | ".join(cells))
