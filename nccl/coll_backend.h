// The codec and memory operations a collective schedule needs, abstracted so that one schedule runs
// on host arrays with the CPU codec (tests, simulation) or on device memory with the GPU codec (NCCL).
//
// Every operation is ordered on the backend's own stream (device) or done at once (host). Only
// compress reports a size, on the host, because the transport needs it to post the next message; on
// a device that is a stream synchronization, which the schedules keep to one per ring step.
//
// Reduction arguments: out = a (op) b elementwise, out may alias a or b (elementwise, same index).
// Every op is commutative bit for bit (coll_reduce.h), so which operand is "a" does not matter; the
// schedule fixes the order in which ranks' contributions are folded in.
#pragma once

#include <stdint.h>

#include <functional>

#include "uzip_format.h"

namespace uzip {

// The codec parameters of every collective stream, one place for both backends' compress and size
// bound: no checksum (the transport is trusted and the decoder validates structure) and 2^14-element
// blocks always, not the size-dependent default (uzip_default_log2_block), which the bound would have
// to repeat and which was not measured in the collectives.
constexpr uint32_t kCollFlags = 0, kCollLog2Block = UZIP_LOG2_BLOCK_DEFAULT;

class CollBackend {
 public:
  virtual ~CollBackend() = default;
  virtual bool onDevice() const = 0;
  // Scratch memory in the backend's space (host or device), cached per slot and only ever grown, so
  // that repeated collectives do not allocate. A slot's previous contents are not kept on growth.
  virtual int scratch(int slot, uint64_t bytes, void** out) = 0;
  virtual int copy(void* dst, const void* src, uint64_t bytes) = 0;
  // A copy that may run beside what is enqueued after it (on a device: a side stream forked from the
  // backend's stream); joinAside() orders the backend's stream after it. Default: copy().
  virtual int copyAside(void* dst, const void* src, uint64_t bytes) { return copy(dst, src, bytes); }
  virtual int joinAside() { return 0; }
  // Runs f with the backend's operations ordered on `stream` (a device stream of the same device)
  // instead of its own. Default: f() (host backends have no streams).
  virtual int onStream(uint64_t stream, const std::function<int()>& f) { return (void)stream, f(); }
  // Copies from the backend's space to host memory, completed on return.
  virtual int toHost(void* dst, const void* src, uint64_t bytes) = 0;
  // Upper bound of a compressed stream of `count` elements.
  virtual uint64_t maxCompressed(uint64_t count, int dtype) = 0;
  // Compresses count elements of src into dst (capacity cap); *outBytes (host) receives the size, and
  // so does the u64 at sizeWord (backend space) when it is not null, ready to be sent.
  virtual int compress(const void* src, uint64_t count, int dtype, void* dst, uint64_t cap,
                       uint64_t* outBytes, uint64_t* sizeWord) = 0;
  // Decodes a stream of exactly `count` elements of `dtype` into dst.
  virtual int decompress(const void* src, uint64_t srcBytes, void* dst, uint64_t count, int dtype) = 0;
  // out = a op b, elementwise (out may equal a or b).
  virtual int reduce(void* out, const void* a, const void* b, uint64_t count, int dtype, int op) = 0;
  // out = in * (1/nranks), elementwise as coll_premul_avg (the start of avg); out may equal in.
  virtual int premulAvg(void* out, const void* in, uint64_t count, int dtype, int nranks) = 0;
  // out = decode(stream) op local.
  virtual int decodeReduce(void* out, const void* local, const void* stream, uint64_t streamBytes,
                           uint64_t count, int dtype, int op) = 0;
  // out = decode(stream) op local, then enc = compress(out) (capacity cap, size to *encBytes on host).
  virtual int decodeReduceEncode(void* out, const void* local, const void* stream, uint64_t streamBytes,
                                 uint64_t count, int dtype, int op, void* enc, uint64_t cap,
                                 uint64_t* encBytes, uint64_t* sizeWord) = 0;
  // Waits until every operation enqueued so far has completed.
  virtual int sync() = 0;
  // True when decodeReduce(Encode) is one fused pass (for reports); false when composed.
  virtual bool fused() const = 0;
};

// The CPU backend: host memory, uzipCompressCpu / uzipDecompressCpu, the reductions of coll_reduce.h.
CollBackend* newCpuCollBackend();
// The GPU backend (coll_backend_gpu.cu) on `device`, ordered on `stream`; null (last error set) on failure.
CollBackend* newGpuCollBackend(int device, uint64_t stream);
// Re-targets a GPU backend to another stream of the same device.
void gpuCollBackendSetStream(CollBackend* b, uint64_t stream);

}  // namespace uzip
