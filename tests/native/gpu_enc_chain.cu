// Microbenchmark of the encoder's ANS chain alone (the step loop of gpu_encode.cuh): the production loop
// (encode_segment_full), the words stored right after each step, a copy of the production loop's per-group
// stores, no word stores, and the bare state chain. Each runs on one warp alone (latency: SM cycles per
// step) and on 16 warps per SM over the whole chip (throughput: symbols per second).
// A warning from bench/results/h200-2026-12-01T0645-session9: this loop alone did not predict the
// compress kernel. It measured words in a shared-memory ring at 88 cycles per step against 145 for
// global stores, but in the kernel the ring made the chain phase 14-20% slower. Check a change in the
// kernel (gpu_stages, gpu_bench) before believing it.
// Usage: gpu_enc_chain [T steps per segment (default 512)] [reps (default 20)]
#include <algorithm>

#include "gpu_common.h"
#include "gpu_encode.cuh"

using namespace uzip_gpu;

// The chain with each step's words stored to global memory right after the step (S = 1), after the group
// (S = 2: the loop before the ring, da59bee), counted but not stored (S = 0), or not even balloted (S = -1).
template <int U, int S>
__device__ __forceinline__ uint32_t chain_only(const uint8_t* blk, uint32_t T, const uint4* tab, int32_t* pos,
                                               uint16_t* out) {
  const uint32_t lane = lane_id(), lt = lanemask_lt();
  const uint8_t* lp = blk + (size_t)lane * 2;
  const uint32_t tb = (uint32_t)__cvta_generic_to_shared(tab);
  uint32_t x = UZIP_ANS_L;
  int32_t p = *pos;
  uint32_t buf[U];
#pragma unroll
  for (int u = 0; u < U; u++) buf[u] = load_elem_nc<2>(lp + 64u * (T - 1u - u));
  for (int32_t t0 = (int32_t)T - 1; t0 >= 0; t0 -= U) {
    uint32_t words[U], masks[U];
    uint4 e[U];
#pragma unroll
    for (int u = 0; u < U; u++) e[u] = lds_u4(enc_tab_addr<2>(tb, buf[u]));
    if (t0 >= U) {
#pragma unroll
      for (int u = 0; u < U; u++) buf[u] = load_elem_nc<2>(lp + 64u * (uint32_t)(t0 - U - u));
    }
#pragma unroll
    for (int u = 0; u < U; u++) {
      const bool emit = x >= e[u].w;
      const uint32_t xs = emit ? x >> 16 : x;
      const uint32_t word = x;
      x = enc_next(xs, e[u]);
      if (S >= 0) {
        const uint32_t mask = __ballot_sync(FULL_MASK, emit);
        p -= __popc(mask);
        if (S == 1 && emit) out[p + __popc(mask & lt)] = (uint16_t)word;
        words[u] = word;
        masks[u] = mask;
      }
    }
    if (S == 2) {
      int32_t q = p;
#pragma unroll
      for (int u = U - 1; u >= 0; u--) {  // p already moved past the group: walk back up
        if ((masks[u] >> lane) & 1u) out[q + __popc(masks[u] & lt)] = (uint16_t)words[u];
        q += __popc(masks[u]);
      }
    }
  }
  *pos = p;
  return x;
}

template <int V, int U>
__global__ void __launch_bounds__(128, 4) chain_kernel(const uint8_t* data, uint32_t nseg, uint16_t* scratch,
                                                        const uint4* tabG, uint32_t T, int reps,
                                                        unsigned long long* cyc, uint32_t* sink) {
  extern __shared__ __align__(16) uint8_t sm[];
  uint4* tab = (uint4*)sm;
  const uint32_t warp = threadIdx.x / 32u, gw = blockIdx.x * (blockDim.x / 32u) + warp;
  for (uint32_t i = threadIdx.x; i < 256; i += blockDim.x) tab[i] = tabG[i];
  __syncthreads();
  const uint8_t* blk = data + (size_t)(gw % nseg) * 64u * T;
  uint16_t* out = scratch + (size_t)gw * 32u * T;
  uint32_t acc = 0;
  for (int r = 0; r < reps; r++) {
    const long long c0 = clock64();
    int32_t pos = (int32_t)(32u * T);
    uint32_t x = 0;
    if (V == 0) encode_segment_full<2, U>(blk, 0, T, tab, out, &pos, 0, &x);
    else x = chain_only<U, V == 1 ? 1 : V == 2 ? 0 : V == 4 ? 2 : -1>(blk, T, tab, &pos, out);
    acc += x + (uint32_t)pos;
    __syncwarp();
    const long long c1 = clock64();
    if (gw == 0 && lane_id() == 0) cyc[r] = (unsigned long long)(c1 - c0);
  }
  atomicAdd(sink, acc);
}

struct Variant {
  const char* name;
  void (*fn)(const uint8_t*, uint32_t, uint16_t*, const uint4*, uint32_t, int, unsigned long long*, uint32_t*);
  int v;
};

int main(int argc, char** argv) {
  int32_t ndev = 0;
  CK(uzipCudaDeviceCount(&ndev));
  if (!ndev) { printf("SKIP gpu_enc_chain: no CUDA device\n"); return 0; }
  const uint32_t T = argc > 1 ? (uint32_t)atoi(argv[1]) : 512u;
  const int reps = argc > 2 ? atoi(argv[2]) : 20;
  const uint32_t nseg = 4096;  // 4096 segments of 32 T bf16 (128 MiB at T = 512): more than L2
  std::vector<uint8_t> host;
  make_data(host, UZIP_DTYPE_BF16, (uint64_t)nseg * 32u * T, D_GAUSS, 1);
  // A table from the data's symbol counts: f ~ count scaled to 2048, at least 1, the excess off the largest.
  uint64_t cnt[256] = {0};
  for (size_t i = 0; i < host.size(); i += 2) cnt[uzip_symbol_of(host[i] | (host[i + 1] << 8), 2)]++;
  uint32_t f[256], sum = 0, big = 0;
  const double n = (double)(host.size() / 2);
  for (int s = 0; s < 256; s++) {
    f[s] = cnt[s] ? std::max(1u, (uint32_t)(cnt[s] * 2048.0 / n)) : 0u;
    sum += f[s];
    if (f[s] > f[big]) big = s;
  }
  f[big] = f[big] + 2048u - sum;
  uint4 tabH[256];
  uint32_t cum = 0;
  for (int s = 0; s < 256; s++) {
    const uzip_ans_enc_sym e = uzip_ans_enc_entry(f[s] ? f[s] : 1u, cum, UZIP_ANS_PROB_BITS);
    tabH[s] = {e.rcp, e.cmpl, e.biasShift, e.bound};
    cum += f[s];
  }
  uint8_t *data, *scratch;
  uint4* tab;
  unsigned long long* cyc;
  uint32_t* sink;
  const uint32_t ctas = 132u * 4u, warps = ctas * 4u;
  cudaMalloc(&data, host.size());
  cudaMalloc(&scratch, (size_t)warps * 64u * T);
  cudaMalloc(&tab, sizeof tabH);
  cudaMalloc(&cyc, 8 * reps);
  cudaMalloc(&sink, 4);
  cudaMemcpy(data, host.data(), host.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(tab, tabH, sizeof tabH, cudaMemcpyHostToDevice);
  Variant vs[] = {{"production U8", chain_kernel<0, 8>, 0},       {"production U4", chain_kernel<0, 4>, 0},
                  {"global per step U8", chain_kernel<1, 8>, 1},  {"global per group U8", chain_kernel<4, 8>, 4},
                  {"no stores U8", chain_kernel<2, 8>, 2},        {"bare chain U8", chain_kernel<3, 8>, 3}};
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  printf("T=%u steps per segment, Gaussian bf16, %d reps\n", T, reps);
  printf("%-18s %12s %12s %14s %10s\n", "variant", "lone cyc/st", "full cyc/st", "full Gsym/s", "sink");
  for (auto& v : vs) {
    const size_t smem = 4096;
    cudaFuncSetAttribute((const void*)v.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    std::vector<unsigned long long> c(reps);
    // Lone warp: one CTA of one warp on the chip.
    cudaMemset(sink, 0, 4);
    v.fn<<<1, 32, smem>>>(data, nseg, (uint16_t*)scratch, tab, T, reps, cyc, sink);
    cudaMemcpy(c.data(), cyc, 8 * reps, cudaMemcpyDeviceToHost);
    std::sort(c.begin() + 1, c.end());
    const double lone = (double)c[1 + (reps - 1) / 2] / T;
    uint32_t s1 = 0;
    cudaMemcpy(&s1, sink, 4, cudaMemcpyDeviceToHost);
    // Full chip: 16 warps per SM.
    v.fn<<<ctas, 128, smem>>>(data, nseg, (uint16_t*)scratch, tab, T, 2, cyc, sink);  // warm-up
    std::vector<float> ms(5);
    for (auto& m : ms) {
      cudaEventRecord(e0);
      v.fn<<<ctas, 128, smem>>>(data, nseg, (uint16_t*)scratch, tab, T, reps, cyc, sink);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      cudaEventElapsedTime(&m, e0, e1);
    }
    std::sort(ms.begin(), ms.end());
    cudaMemcpy(c.data(), cyc, 8 * reps, cudaMemcpyDeviceToHost);
    std::sort(c.begin(), c.end());
    const double full = (double)c[reps / 2] / T;
    const double gsym = (double)warps * reps * 32.0 * T / (ms[2] * 1e-3) / 1e9;
    printf("%-18s %12.1f %12.1f %14.1f %10u\n", v.name, lone, full, gsym, s1);
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(err)); return 1; }
  }
  return 0;
}
