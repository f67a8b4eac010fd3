// uzipSimulateCollective: N ranks as threads over the in-process transport, with the CPU backend, or
// (flag 4) with the GPU backend on the current GPU, the ranks' buffers in its memory.
#include <cuda_runtime_api.h>
#include <string.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "coll_backend.h"
#include "coll_schedules.h"
#include "status.h"
#include "transport_local.h"
#include "transport_local_device.h"
#include "uzip_coll.h"
#include "uzip_format.h"

namespace {

constexpr int kSimMaxRanks = 64;

struct RankResult {
  int status = UZIP_OK;
  long order = 0;  // when it failed: the first failure is the cause, later ones are its echoes
  std::string message;
};

// The ranks' device buffers of a GPU simulation, freed on every way out.
struct DeviceBuffers {
  std::vector<void*> p;
  ~DeviceBuffers() {
    for (void* q : p) cudaFree(q);
  }
};

int simCuda(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return UZIP_OK;
  return uzipSetError(e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ? UZIP_ERR_NO_DEVICE : UZIP_ERR_CUDA,
                      "GPU simulation: %s: %s", what, cudaGetErrorString(e));
}

}  // namespace

extern "C" UZIP_API int uzipSimulateCollective(int32_t kind, int32_t nranks, int32_t dtype, int32_t op,
                                               uint64_t count, int32_t root, int32_t compress,
                                               uint64_t chunkElems, uint32_t flags, const void* sendAll,
                                               uint64_t sendStride, void* recvAll, uint64_t recvStride,
                                               uint32_t timeoutMs, uint64_t* stats2) {
  using namespace uzip;
  if (nranks < 1 || nranks > kSimMaxRanks)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "simulation supports 1..%d ranks, got %d", kSimMaxRanks, nranks);
  if (flags & ~7u) return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown simulation flags 0x%x", flags);
  CollArgs proto;
  proto.kind = kind;
  proto.count = count;
  proto.dtype = dtype;
  proto.op = op;
  proto.root = root;
  if (compress < 0 || compress > 2)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "compress must be 0 (plain), 1 (compressed schedule) or 2 "
                        "(pipelined executor), got %d", compress);
  proto.compress = compress != 0;
  proto.chunkElems = chunkElems;
  if (int st = collValidate(proto, nranks)) return st;
  const bool inPlace = flags & 1u, fault = flags & 2u, gpu = flags & 4u;
  if (inPlace && kind == UZIP_COLL_ALLTOALL)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "all-to-all has no in-place form");
  const uint64_t w = uzip_dtype_width((uint32_t)dtype), n = (uint64_t)nranks;
  uint64_t wantSend = count * w, wantRecv = count * w;
  if (kind == UZIP_COLL_REDUCESCATTER || kind == UZIP_COLL_ALLTOALL) wantSend = count * n * w;
  if (kind == UZIP_COLL_ALLGATHER || kind == UZIP_COLL_ALLTOALL) wantRecv = count * n * w;
  if (sendStride != wantSend || recvStride != wantRecv)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "strides %llu/%llu bytes, expected %llu/%llu for this collective",
                        (unsigned long long)sendStride, (unsigned long long)recvStride,
                        (unsigned long long)wantSend, (unsigned long long)wantRecv);
  if ((wantSend && !sendAll) || (wantRecv && !recvAll))
    return uzipSetError(UZIP_ERR_INVALID_ARG, "null simulation buffers");

  // Per-rank working buffers laid out as NCCL would see them.
  std::vector<std::vector<unsigned char>> work(nranks);
  std::vector<const void*> sendPtr(nranks);
  std::vector<void*> recvPtr(nranks);
  for (int r = 0; r < nranks; r++) {
    const unsigned char* in = (const unsigned char*)sendAll + r * sendStride;
    auto& buf = work[r];
    if (!inPlace) {
      buf.resize(sendStride + recvStride + 1);
      memcpy(buf.data(), in, sendStride);
      // Non-root reduce ranks: keep the caller's bytes, which must come back untouched.
      memcpy(buf.data() + sendStride, (unsigned char*)recvAll + r * recvStride, recvStride);
      sendPtr[r] = buf.data();
      recvPtr[r] = buf.data() + sendStride;
      continue;
    }
    const uint64_t big = sendStride > recvStride ? sendStride : recvStride;
    buf.resize(big + 1);
    memcpy(buf.data(), (unsigned char*)recvAll + r * recvStride, recvStride);
    if (kind == UZIP_COLL_REDUCESCATTER) {
      memcpy(buf.data(), in, sendStride);
      sendPtr[r] = buf.data();
      recvPtr[r] = buf.data() + r * count * w;
    } else if (kind == UZIP_COLL_ALLGATHER) {
      memcpy(buf.data() + r * count * w, in, sendStride);
      recvPtr[r] = buf.data();
      sendPtr[r] = buf.data() + r * count * w;
    } else {
      memcpy(buf.data(), in, sendStride);
      sendPtr[r] = recvPtr[r] = buf.data();
    }
  }

  // GPU: each rank's working buffer mirrored to device memory, the same layout at the same offsets.
  int device = 0;
  DeviceBuffers dev;
  std::vector<const void*> runSend = sendPtr;
  std::vector<void*> runRecv = recvPtr;
  if (gpu) {
    if (int st = simCuda(cudaGetDevice(&device), "cudaGetDevice")) return st;
    dev.p.assign(nranks, nullptr);
    for (int r = 0; r < nranks; r++) {
      const size_t bytes = work[r].size();
      if (int st = simCuda(cudaMalloc(&dev.p[r], bytes), "cudaMalloc")) return st;
      if (int st = simCuda(cudaMemcpy(dev.p[r], work[r].data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy"))
        return st;
      unsigned char* base = (unsigned char*)dev.p[r];
      runSend[r] = base + ((const unsigned char*)sendPtr[r] - work[r].data());
      runRecv[r] = base + ((unsigned char*)recvPtr[r] - work[r].data());
    }
  }
  auto fabric = std::make_shared<LocalFabric>(nranks, (timeoutMs ? timeoutMs : 20000) / 1000.0);
  std::vector<RankResult> results(nranks);
  std::atomic<long> failures{0};
  std::vector<std::thread> threads;
  const int runners = fault ? nranks - 1 : nranks;
  try {
    for (int r = 0; r < runners; r++) {
      threads.emplace_back([&, r] {
        std::unique_ptr<Transport> t;
        if (gpu) t.reset(new (std::nothrow) DeviceLocalTransport(fabric, r));
        else t.reset(new (std::nothrow) LocalTransport(fabric, r));
        int st = t ? UZIP_OK : uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot create the transport");
        cudaStream_t stream = nullptr;
        if (!st && gpu) {
          st = simCuda(cudaSetDevice(device), "cudaSetDevice");
          if (!st) st = simCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
        }
        const uint64_t s64 = (uint64_t)(uintptr_t)stream;
        std::unique_ptr<CollBackend> b;
        if (!st) {
          b.reset(gpu ? newGpuCollBackend(device, s64) : newCpuCollBackend());
          if (!b) st = gpu ? UZIP_ERR_CUDA : uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot create the CPU backend");
        }
        if (!st) {
          CollArgs a = proto;
          a.send = runSend[r];
          a.recv = runRecv[r];
          a.stream = s64;
          // compress == 2: the GPU path's executor (plain data flow, each exchange compressed).
          std::unique_ptr<CompressedExchange> x(compress == 2 ? newScheduleExchange(*t, *b, s64) : nullptr);
          if (compress == 2 && !x) st = uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot create the exchange");
          a.exchange = x.get();
          if (!st) st = runCollective(*t, *b, a);
          if (!st && gpu) st = simCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
        }
        if (st) {
          results[r].order = failures.fetch_add(1);
          results[r].status = st;
          results[r].message = uzipLastError();
          if (t) t->abort();  // wake every peer that waits on this rank
          else fabric->abort("a rank could not start");
        }
        b.reset();  // before its stream
        if (stream) cudaStreamDestroy(stream);
      });
    }
  } catch (...) {
    fabric->abort("thread creation failed");
    for (auto& th : threads) th.join();
    return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot start %d simulation threads", runners);
  }
  for (auto& th : threads) th.join();
  if (stats2) {
    stats2[0] = fabric->bytesSent();
    stats2[1] = fabric->messagesSent();
  }
  int first = -1;
  for (int r = 0; r < runners; r++)
    if (results[r].status && (first < 0 || results[r].order < results[first].order)) first = r;
  if (first >= 0)
    return uzipSetError(results[first].status, "simulated rank %d of %d: %s", first, nranks,
                        results[first].message.c_str());
  for (int r = 0; gpu && r < nranks; r++)
    if (int st = simCuda(cudaMemcpy(work[r].data(), dev.p[r], work[r].size(), cudaMemcpyDeviceToHost), "cudaMemcpy"))
      return st;
  for (int r = 0; r < nranks; r++) {
    const unsigned char* out = (const unsigned char*)recvPtr[r];
    if (inPlace && kind == UZIP_COLL_REDUCESCATTER) out = work[r].data() + r * count * w;
    if (recvStride) memcpy((unsigned char*)recvAll + r * recvStride, out, recvStride);
  }
  uzipClearError();
  return UZIP_OK;
}
