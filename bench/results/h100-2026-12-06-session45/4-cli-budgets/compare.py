# This sweep (session 45: every call kept to its SM budget) against session 44's split_sms_all (the old
# spread of calls within a budget's CTAs), same configurations: compress / decompress TB/s and the ratio.
# python3 compare.py NEW.json OLD.json
import json, sys
def load(f):
    t = {}
    for r in json.load(open(f))["results"]:
        for m in ("compress", "decompress"):
            t[(r["dtype"], r["data"], r["size"], r["sms"], m)] = r["bytesPerSecond"][m] / 1e12
    return t
new, old = load(sys.argv[1]), load(sys.argv[2])
print("dtype data     size        sms  compress old->new (x)        decompress old->new (x)")
for k in sorted(new, key=lambda k: (k[0], k[1], k[2], k[3])):
    if k[4] != "compress": continue
    kd = k[:4] + ("decompress",)
    if k in old and kd in old:
        print("%-5s %-8s %-11d %-4d %.3f -> %.3f (%.2f)   %.3f -> %.3f (%.2f)" % (k[0], k[1], k[2], k[3], old[k], new[k],
              new[k] / old[k], old[kd], new[kd], new[kd] / old[kd]))
