import json,sys,os
D=sys.argv[1]
names={1:'bf16',2:'fp16',3:'fp32'}
out=[]
def load(n):
    return {(r['bytes'],r['maxSms']):r for r in json.load(open(os.path.join(D,n)))['results']}
out.append("split layout, gpu_bench Gaussian(0,0.02), H100; TB/s of input: compress/decompress alone (median of 10), [back-to-back]; main=b04eda4 vs exp/s44-lean-range=1e20b08")
for d in (1,2,3):
  for tag in ('r1','r2','sms'):
    a=load(f'd{d}_split_{tag}_gpu.json'); b=load(f'd{d}_split_{tag}_exp.json')
    for k in sorted(a):
      ra,rb=a[k],b[k]; n=k[0]
      f=lambda r:("%.3f/%.3f "%(n/r["medianCompressMs"]/1e9,n/r["medianDecompressMs"]/1e9))+("[%.3f/%.3f]"%(n/r["medianStreamCompressMs"]/1e9,n/r["medianStreamDecompressMs"]/1e9) if "medianStreamCompressMs" in r else "[ -  /  - ]")+" r=%.4f"%(r["compressedBytes"]/n)
      out.append("%s %-3s %4d MiB sms=%-3d main %s | exp %s | exp/main %.2f/%.2f"%(names[d],tag,n>>20,k[1],f(ra),f(rb),ra['medianCompressMs']/rb['medianCompressMs'],ra['medianDecompressMs']/rb['medianDecompressMs']))
print("\n".join(out))
