// The GPU C ABI of collectives (uzip_coll.h): mode resolution (auto policy), plain NCCL baselines, and
// the compressed / plain schedules over the communicator's NCCL transport with the GPU backend.
#include <stdlib.h>
#include <string.h>

#include <map>
#include <memory>
#include <mutex>

#include "coll_backend.h"
#include "coll_schedules.h"
#include "comm.h"
#include "status.h"
#include "uzip_coll.h"
#include "uzip_format.h"

namespace {

using uzip::CollArgs;
using uzip::CollBackend;
using uzip::Comm;

std::mutex g_backendsMu;
// One GPU backend per device (its scratch is reused across calls); its mutex serializes its users.
struct DeviceBackend {
  std::mutex mu;
  std::unique_ptr<CollBackend> b;
};
std::map<int, std::unique_ptr<DeviceBackend>> g_backends;
uint64_t g_chunkElems = 0;

int ncclTypeOf(int dtype) {
  switch (dtype) {
    case UZIP_DTYPE_BF16: return 9;   // ncclBfloat16
    case UZIP_DTYPE_FP16: return 6;   // ncclFloat16
    case UZIP_DTYPE_FP32: return 7;   // ncclFloat32
    case UZIP_DTYPE_FP8E4M3: return 10;  // ncclFloat8e4m3 (NCCL >= 2.24, sm_90)
    case UZIP_DTYPE_FP8E5M2: return 11;  // ncclFloat8e5m2
    default: return 1;                // ncclUint8
  }
}

// The auto policy of the collectives. Compression can pay only where the link is slow compared with the
// codec: over NVLink/P2P never; with NCCL_P2P_DISABLE=1 only for large messages. The measured compressed
// schedules (bench/results/collectives_*.json, 2x H200) do not beat plain NCCL at any size yet (the
// codec passes are serialized with the transfers), so AUTO sends everything to NCCL unless
// UZIP_COLL_AUTO_MIN_BYTES names a threshold (then: slow link, at least that many bytes per rank,
// all-reduce or all-gather). Small messages always go to NCCL.
uint64_t autoMinBytes() {
  const char* e = getenv("UZIP_COLL_AUTO_MIN_BYTES");
  if (e && *e) return strtoull(e, nullptr, 10);
  return UINT64_MAX;
}
bool slowLink() {
  const char* e = getenv("NCCL_P2P_DISABLE");
  return e && strcmp(e, "1") == 0;
}
int resolve(int kind, int nranks, uint64_t bytesPerRank, int mode) {
  if (mode != UZIP_COLL_AUTO) return mode;
  const uint64_t minBytes = autoMinBytes();
  if (nranks < 2 || !slowLink() || minBytes == UINT64_MAX || bytesPerRank < minBytes) return UZIP_COLL_NEVER;
  return (kind == UZIP_COLL_ALLREDUCE || kind == UZIP_COLL_ALLGATHER) ? UZIP_COLL_ALWAYS : UZIP_COLL_NEVER;
}

int plainNccl(Comm* c, const CollArgs& a) {
  const uzip::NcclApi* api = c->api;
  auto s = reinterpret_cast<ncclStream_t>(static_cast<uintptr_t>(a.stream));
  auto t = (ncclDataType_t)ncclTypeOf(a.dtype);
  auto op = (ncclRedOp_t)a.op;
  std::lock_guard<std::recursive_mutex> g(c->mu);
  ncclResult_t r;
  switch (a.kind) {
    case UZIP_COLL_ALLREDUCE: r = api->allReduce(a.send, a.recv, a.count, t, op, c->nccl, s); break;
    case UZIP_COLL_REDUCESCATTER: r = api->reduceScatter(a.send, a.recv, a.count, t, op, c->nccl, s); break;
    case UZIP_COLL_ALLGATHER: r = api->allGather(a.send, a.recv, a.count, t, c->nccl, s); break;
    case UZIP_COLL_BROADCAST: r = api->broadcast(a.send, a.recv, a.count, t, a.root, c->nccl, s); break;
    default: return uzipSetError(UZIP_ERR_INTERNAL, "no plain NCCL call for collective %d", a.kind);
  }
  return uzip::commCheck(c, r, "plain NCCL collective");
}

int run(uint64_t comm, CollArgs a, int mode) {
  Comm* c = uzip::commFromHandle(comm);
  if (!c) return UZIP_ERR_INVALID_ARG;
  if (mode < UZIP_COLL_NEVER || mode > UZIP_COLL_PLAIN_SCHEDULE)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown collective mode %d", mode);
  if (int st = uzip::collValidate(a, c->size)) return st;
  uint64_t sendElems = 0, recvElems = 0;
  uzip::collBufferElems(a, c->size, c->rank, &sendElems, &recvElems);
  const uint64_t width = uzip_dtype_width((uint32_t)a.dtype);
  int path = resolve(a.kind, c->size, (sendElems > recvElems ? sendElems : recvElems) * width, mode);
  // NCCL has no all-to-all or reduce in the loaded table: their baseline is the plain schedule over
  // NCCL send/recv (what nccl-tests' all-to-all does too).
  if (path == UZIP_COLL_NEVER && (a.kind == UZIP_COLL_ALLTOALL || a.kind == UZIP_COLL_REDUCE))
    path = UZIP_COLL_PLAIN_SCHEDULE;
  if (path == UZIP_COLL_NEVER) {
    if (a.count == 0) return UZIP_OK;
    int st = plainNccl(c, a);
    if (!st) uzipClearError();
    return st;
  }
  a.compress = path == UZIP_COLL_ALWAYS;
  a.chunkElems = g_chunkElems;
  DeviceBackend* db;
  {
    std::lock_guard<std::mutex> g(g_backendsMu);
    auto& slot = g_backends[c->device];
    if (!slot) slot.reset(new DeviceBackend());
    db = slot.get();
  }
  std::lock_guard<std::mutex> g(db->mu);
  if (!db->b) {
    db->b.reset(uzip::newGpuCollBackend(c->device, a.stream));
    if (!db->b) return uzipLastError()[0] ? UZIP_ERR_CUDA : uzipSetError(UZIP_ERR_CUDA, "no GPU backend");
  }
  uzip::gpuCollBackendSetStream(db->b.get(), a.stream);
  uzip::Transport* t = uzipCommTransportOf(comm);
  if (!t) return uzipSetError(UZIP_ERR_INVALID_ARG, "communicator has no transport");
  std::lock_guard<std::recursive_mutex> cg(c->mu);  // one collective at a time on this communicator
  int st = uzip::runCollective(*t, *db->b, a);
  if (!st) uzipClearError();
  return st;
}

CollArgs make(int kind, uint64_t send, uint64_t recv, uint64_t count, int dtype, int op, int root,
              uint64_t stream) {
  CollArgs a;
  a.kind = kind;
  a.send = (const void*)(uintptr_t)send;
  a.recv = (void*)(uintptr_t)recv;
  a.count = count;
  a.dtype = dtype;
  a.op = op;
  a.root = root;
  a.stream = stream;
  return a;
}

}  // namespace

extern "C" {

UZIP_API int uzipAllReduce(uint64_t comm, uint64_t send, uint64_t recv, uint64_t count, int32_t dtype,
                           int32_t op, uint64_t stream, int32_t mode) {
  return run(comm, make(UZIP_COLL_ALLREDUCE, send, recv, count, dtype, op, 0, stream), mode);
}
UZIP_API int uzipReduceScatter(uint64_t comm, uint64_t send, uint64_t recv, uint64_t recvCount, int32_t dtype,
                               int32_t op, uint64_t stream, int32_t mode) {
  return run(comm, make(UZIP_COLL_REDUCESCATTER, send, recv, recvCount, dtype, op, 0, stream), mode);
}
UZIP_API int uzipAllGather(uint64_t comm, uint64_t send, uint64_t recv, uint64_t sendCount, int32_t dtype,
                           uint64_t stream, int32_t mode) {
  return run(comm, make(UZIP_COLL_ALLGATHER, send, recv, sendCount, dtype, 0, 0, stream), mode);
}
UZIP_API int uzipAllToAll(uint64_t comm, uint64_t send, uint64_t recv, uint64_t count, int32_t dtype,
                          uint64_t stream, int32_t mode) {
  return run(comm, make(UZIP_COLL_ALLTOALL, send, recv, count, dtype, 0, 0, stream), mode);
}
UZIP_API int uzipBroadcast(uint64_t comm, uint64_t send, uint64_t recv, uint64_t count, int32_t dtype,
                           int32_t root, uint64_t stream, int32_t mode) {
  return run(comm, make(UZIP_COLL_BROADCAST, send, recv, count, dtype, 0, root, stream), mode);
}
UZIP_API int uzipReduce(uint64_t comm, uint64_t send, uint64_t recv, uint64_t count, int32_t dtype, int32_t op,
                        int32_t root, uint64_t stream, int32_t mode) {
  return run(comm, make(UZIP_COLL_REDUCE, send, recv, count, dtype, op, root, stream), mode);
}
UZIP_API int uzipCollResolveMode(uint64_t comm, int32_t kind, uint64_t bytesPerRank, int32_t mode,
                                 int32_t* outPath) {
  Comm* c = uzip::commFromHandle(comm, true);
  if (!c) return UZIP_ERR_INVALID_ARG;
  if (!outPath) return uzipSetError(UZIP_ERR_INVALID_ARG, "null outPath");
  if (kind < 0 || kind >= UZIP_COLL_COUNT) return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown kind %d", kind);
  *outPath = resolve(kind, c->size, bytesPerRank, mode) == UZIP_COLL_ALWAYS ? 1 : 0;
  uzipClearError();
  return UZIP_OK;
}
UZIP_API int uzipCollConfigure(uint64_t chunkElems) {
  g_chunkElems = chunkElems;
  uzipClearError();
  return UZIP_OK;
}

}  // extern "C"
