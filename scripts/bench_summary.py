#!/usr/bin/env python3
"""Writes DIR/summary.json for a folder of gpu_bench results returned by a device call: the machine (from
DIR/gpu.txt, which scripts/device_env.sh records), the commit(s), the command, the date, what was measured
and the result in words, and per gpu_bench JSON file its sizes with ratio, compress / decompress TB/s of
input and the raw medians in us. Every results folder under bench/results/ carries one, so a closing note
can cite figures with the command that reproduces them.

Usage: scripts/bench_summary.py DIR COMMIT COMMAND DATE WHAT RESULT"""
import glob
import json
import os
import sys

if len(sys.argv) != 7:
    sys.exit(__doc__)
d, commit, command, date, what, result = sys.argv[1:]

gpu = "unknown"
try:  # nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
    rows = [r.strip() for r in open(os.path.join(d, "gpu.txt")) if r.strip()]
    if len(rows) >= 2:
        name, driver, clock = [c.strip() for c in rows[1].split(",")]
        gpu = {"name": name, "driver": driver, "maxSmClock": clock, "gpus": len(rows) - 1}
except OSError:
    pass

out = {"gpu": gpu, "cuda": None, "commit": commit, "command": command, "date": date, "what": what,
       "result": result, "runs": {}}
for f in sorted(glob.glob(os.path.join(d, "*.json"))):
    if f.endswith("summary.json"):
        continue
    try:
        j = json.load(open(f))
    except (OSError, ValueError):
        continue
    if not isinstance(j, dict) or "results" not in j:
        continue
    # gpu_bench records the CUDA driver and runtime versions (e.g. 13000): the machine's, not assumed.
    if out["cuda"] is None and "driver" in j:
        out["cuda"] = {k: f"{j[k] // 1000}.{j[k] % 1000 // 10}" for k in ("driver", "runtime") if k in j}
    run = {}
    for r in j["results"]:
        if "bytes" not in r:  # the codec CLI's rows (bench/codec.ts --json): size, dtype, data, medianMs
            key = f"{r['dtype']} {r.get('data', '')} {r['size'] / 2**20:.2f}M"
            key += f"@{r['sms']}sm" if r.get("sms") else ""
            e = {"ratio": round(r["ratio"], 4)} if r.get("ratio") else {}
            for label, ms in (r.get("medianMs") or {}).items():
                e[label + "_TBps"] = round(r["size"] / (ms * 1e-3) / 1e12, 3)
                e[label + "_us"] = round(ms * 1e3, 1)
            run[key] = e
            continue
        b = r["bytes"]
        key = f"{b / 2**20:.2f}M" + (f"@{r['maxSms']}sm" if r.get("maxSms") else "")
        e = {"dtype": r.get("dtype")}
        if r.get("compressedBytes"):
            e["ratio"] = round(r["compressedBytes"] / b, 4)
        for label, field in (("compress", "medianCompressMs"), ("decompress", "medianDecompressMs"),
                             ("copy", "medianCopyMs")):
            if r.get(field):
                e[label + "_TBps"] = round(b / (r[field] * 1e-3) / 1e12, 3)
                e[label + "_us"] = round(r[field] * 1e3, 1)
        run[key] = e
    out["runs"][os.path.basename(f)[:-5]] = run
json.dump(out, open(os.path.join(d, "summary.json"), "w"), indent=1)
print("wrote", os.path.join(d, "summary.json"))
