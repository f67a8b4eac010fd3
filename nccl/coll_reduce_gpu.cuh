// The collectives' elementwise reduce on the GPU: out = a op b over count elements of a dtype, with the
// element arithmetic of coll_reduce.h (the CPU backend's code, so both give the same bits). The kernels are
// instantiated per (dtype, op class): with dtype and op read at run time every case of coll_reduce_elem_s
// was inlined per element, and the bf16 reduce ran at a third of the memory speed (64 MiB: 135 us where
// fp32, 2 bytes an element more, took 48; bench/results/h200-2026-12-01T0334-session8/9-fuse-specialized).
// Also avg's pre-multiplication (coll_premul_launch). Used by the GPU collective backend
// (coll_backend_gpu.cu); the native tests compile it too.
#pragma once

#include <cuda_runtime.h>
#include <stdint.h>

#include <algorithm>

#include "coll_reduce.h"

namespace uzip {

// 16-byte vectors (out, a and b 16-aligned), then the count % (16 / W) tail element by element. out may be
// a or b (an accumulating reduce): each vector is read before it is written, by the same thread.
template <int W, int DT, int OP>
__global__ void __launch_bounds__(256) coll_reduce_vec_kernel(uint8_t* out, const uint8_t* a, const uint8_t* b,
                                                              uint64_t count, float s) {
  constexpr uint32_t kPer = 16u / W;
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x, tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t vecs = count / kPer;
  const uint4* va = (const uint4*)a;
  const uint4* vb = (const uint4*)b;
  uint4* vo = (uint4*)out;
  for (uint64_t v = tid; v < vecs; v += stride) {
    const uint4 x = va[v], y = vb[v];
    vo[v] = make_uint4(coll_reduce_word<W, DT, OP>(x.x, y.x, s), coll_reduce_word<W, DT, OP>(x.y, y.y, s),
                       coll_reduce_word<W, DT, OP>(x.z, y.z, s), coll_reduce_word<W, DT, OP>(x.w, y.w, s));
  }
  for (uint64_t i = vecs * kPer + tid; i < count; i += stride)
    coll_store(out, i, W, coll_reduce_elem_s(coll_load(a, i, W), coll_load(b, i, W), DT, OP, s));
}

// Any alignment: one element per thread step.
template <int W, int DT, int OP>
__global__ void __launch_bounds__(256) coll_reduce_elem_kernel(uint8_t* out, const uint8_t* a, const uint8_t* b,
                                                               uint64_t count, float s) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
    coll_store(out, i, W, coll_reduce_elem_s(coll_load(a, i, W), coll_load(b, i, W), DT, OP, s));
}

template <int W, int DT, int OP>
inline void coll_reduce_launch_op(void* out, const void* a, const void* b, uint64_t count, float s,
                                  cudaStream_t st, int blocks, bool vec) {
  if (vec)
    coll_reduce_vec_kernel<W, DT, OP>
        <<<blocks, 256, 0, st>>>((uint8_t*)out, (const uint8_t*)a, (const uint8_t*)b, count, s);
  else
    coll_reduce_elem_kernel<W, DT, OP>
        <<<blocks, 256, 0, st>>>((uint8_t*)out, (const uint8_t*)a, (const uint8_t*)b, count, s);
}

template <int W, int DT>
inline void coll_reduce_launch_dt(void* out, const void* a, const void* b, uint64_t count, int op, cudaStream_t st,
                                  int blocks, bool vec) {
  const float s = coll_op_scale(DT, op);
  switch (coll_op_class(op)) {
    case UZIP_OP_PROD: coll_reduce_launch_op<W, DT, UZIP_OP_PROD>(out, a, b, count, s, st, blocks, vec); break;
    case UZIP_OP_MAX: coll_reduce_launch_op<W, DT, UZIP_OP_MAX>(out, a, b, count, s, st, blocks, vec); break;
    case UZIP_OP_MIN: coll_reduce_launch_op<W, DT, UZIP_OP_MIN>(out, a, b, count, s, st, blocks, vec); break;
    case UZIP_OP_SUM: coll_reduce_launch_op<W, DT, UZIP_OP_SUM>(out, a, b, count, s, st, blocks, vec); break;
    default: coll_reduce_launch_op<W, DT, COLL_OP_PREMUL_BASE + 1>(out, a, b, count, s, st, blocks, vec); break;
  }
}

// Enqueues out = a op b on st (dtype: COLL_BF16 .. COLL_E5M2, which the caller has checked; op: an op of
// coll_reduce_elem_s). At most 8 CTAs of 256 threads per SM. Returns the launch's error.
inline cudaError_t coll_reduce_launch(void* out, const void* a, const void* b, uint64_t count, int dtype, int op,
                                      cudaStream_t st, int sms) {
  if (!count) return cudaSuccess;
  const uint32_t w = dtype == COLL_FP32 ? 4u : dtype == COLL_BF16 || dtype == COLL_FP16 ? 2u : 1u;
  const bool vec = (((uintptr_t)out | (uintptr_t)a | (uintptr_t)b) & 15u) == 0;
  const uint64_t work = vec ? count / (16u / w) + 1u : count;
  const int blocks = (int)std::max<uint64_t>(1, std::min<uint64_t>((work + 255u) / 256u, (uint64_t)sms * 8u));
  switch (dtype) {
    case COLL_BF16: coll_reduce_launch_dt<2, COLL_BF16>(out, a, b, count, op, st, blocks, vec); break;
    case COLL_FP16: coll_reduce_launch_dt<2, COLL_FP16>(out, a, b, count, op, st, blocks, vec); break;
    case COLL_FP32: coll_reduce_launch_dt<4, COLL_FP32>(out, a, b, count, op, st, blocks, vec); break;
    case COLL_E4M3: coll_reduce_launch_dt<1, COLL_E4M3>(out, a, b, count, op, st, blocks, vec); break;
    default: coll_reduce_launch_dt<1, COLL_E5M2>(out, a, b, count, op, st, blocks, vec); break;
  }
  return cudaGetLastError();
}

// out = in x (1/nranks), NCCL's pre-multiplication for avg (coll_premul_avg), per dtype like the reduce.
template <int W, int DT>
__global__ void __launch_bounds__(256) coll_premul_kernel(uint8_t* out, const uint8_t* in, uint64_t count,
                                                          int nranks) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
    coll_store(out, i, W, coll_premul_avg(coll_load(in, i, W), DT, nranks));
}

// Enqueues out = coll_premul_avg(in) on st (out may be in); dtype checked by the caller.
inline cudaError_t coll_premul_launch(void* out, const void* in, uint64_t count, int dtype, int nranks,
                                      cudaStream_t st, int sms) {
  if (!count) return cudaSuccess;
  const int blocks = (int)std::max<uint64_t>(1, std::min<uint64_t>((count + 255u) / 256u, (uint64_t)sms * 8u));
  uint8_t* o = (uint8_t*)out;
  const uint8_t* x = (const uint8_t*)in;
  switch (dtype) {
    case COLL_BF16: coll_premul_kernel<2, COLL_BF16><<<blocks, 256, 0, st>>>(o, x, count, nranks); break;
    case COLL_FP16: coll_premul_kernel<2, COLL_FP16><<<blocks, 256, 0, st>>>(o, x, count, nranks); break;
    case COLL_FP32: coll_premul_kernel<4, COLL_FP32><<<blocks, 256, 0, st>>>(o, x, count, nranks); break;
    case COLL_E4M3: coll_premul_kernel<1, COLL_E4M3><<<blocks, 256, 0, st>>>(o, x, count, nranks); break;
    default: coll_premul_kernel<1, COLL_E5M2><<<blocks, 256, 0, st>>>(o, x, count, nranks); break;
  }
  return cudaGetLastError();
}

}  // namespace uzip
