# old/ (main) against gpu/ (branch) per gpu_bench JSON pair in DIR: TB/s of input, compress / decompress,
# event-timed alone (median of 10) and [back to back]; gpu/old of the alone medians. python3 table.py DIR
import glob, json, os, sys
d = sys.argv[1]
def rows(f):
    return {(r["dtype"], r["bytes"], r["maxSms"]): r for r in json.load(open(f))["results"]}
def fmt(r, n):
    s = "%.3f/%.3f" % (n / r["medianCompressMs"] / 1e9, n / r["medianDecompressMs"] / 1e9)
    if "medianStreamCompressMs" in r:
        s += " [%.3f/%.3f]" % (n / r["medianStreamCompressMs"] / 1e9, n / r["medianStreamDecompressMs"] / 1e9)
    return s
for fo in sorted(glob.glob(os.path.join(d, "*_old.json"))):
    tag = os.path.basename(fo)[:-9]
    a, b = rows(fo), rows(fo.replace("_old.json", "_gpu.json"))
    for k in sorted(a, key=lambda k: (k[1], k[2])):
        ra, rb, n = a[k], b[k], k[1]
        print("%-14s %-8s %5d MiB sms=%-3d main %-28s exp %-28s exp/main %.3f/%.3f" % (tag, k[0], n >> 20, k[2],
              fmt(ra, n), fmt(rb, n), ra["medianCompressMs"] / rb["medianCompressMs"],
              ra["medianDecompressMs"] / rb["medianDecompressMs"]))
