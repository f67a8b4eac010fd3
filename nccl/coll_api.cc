// The GPU C ABI of collectives (uzip_coll.h): mode resolution (auto policy), plain NCCL baselines, and
// the compressed / plain schedules over the communicator's NCCL transport with the GPU backend.
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "coll_backend.h"
#include "coll_schedules.h"
#include "comm.h"
#include "p2p.h"
#include "status.h"
#include "uzip_coll.h"
#include "uzip_comm.h"
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

// ---- the auto policy ------------------------------------------------------------------------------
// Compress a collective only where it is predicted to beat plain NCCL, from a measured model of the link
// and the codec (uzipCollSetModel; src/collectives.ts calibrateCollectives measures it with the P2P
// calibration and makes every rank hold the same numbers, so every rank decides the same). The model
// mirrors src/policy.ts for each ring exchange of the pipelined executor:
//
//   plain      = E · (S / L) + latency, or bytes / (measured NCCL algbw) where the model has it
//   compressed = E · [ max(S/C, r·S/L, S/D) + c·(1/C + 1/D) + (k + 2)·s + latency ]
//
// (c, k: the P2P engine's chunk and chunk count for S; r: the expected ratio of the dtype; s: the
// measured step cost). E = 2(n-1) for all-reduce, n-1 for reduce-scatter and all-gather; the direct
// 2-rank all-reduce (coll_schedules.cc) is one exchange of the whole buffer (S = bytes) plus its reduce. Compress iff
// bytes >= 4 MiB, the dtype is a float, min(C, D) >= 8·L (NVLink stays plain: there the codec shares SMs
// and memory bandwidth with NCCL's kernels) and compressed · 1.15 < plain. Only the pipelined
// executor's collectives qualify: reduce-scatter on any ranks, all-reduce and all-gather on 2 ranks
// (on more, their all-gather phase is the compress-once-and-forward ring, which is not pipelined).
// Without a model: plain NCCL, unless UZIP_COLL_AUTO_MIN_BYTES=<bytes> and NCCL_P2P_DISABLE=1 (then
// compressed from that size on).
struct CollModel {
  double linkBps = 0, compressBps = 0, decompressBps = 0, stepSeconds = 0;
  // Measured plain NCCL all-reduce / all-gather algbw (nccl-tests size / time); 0: unknown, then plain
  // is modelled from the link. NCCL's all-reduce runs well below the send/recv link (the reduction sits
  // in its pipeline), so the link model would undersell compression there.
  double allReduceBps = 0, allGatherBps = 0;
};
std::mutex g_modelsMu;
std::map<uint64_t, CollModel> g_models;  // by communicator handle

constexpr double kMargin = 1.15, kMinCodecToLink = 8, kLatency = 20e-6, kDefaultStep = 50e-6;
constexpr uint64_t kAutoMinBytes = 4ull << 20, kP2pChunkBytes = 32ull << 20;
constexpr uint64_t kAutoReductionMinBytes = 64ull << 20;  // see resolve
constexpr uint64_t kAutoAllReduce2MinBytes = 32ull << 20;  // the direct 2-rank all-reduce; see resolve
// Input bytes per second of the element-wise reduce after a direct 2-rank all-reduce's exchange (it
// reads two buffers and writes one; ~3 TB/s of memory traffic on an H200, taken low).
constexpr double kReduceBps = 1e12;

double expectedRatio(int dtype) {
  switch (dtype) {
    case UZIP_DTYPE_BF16: return 0.68;
    case UZIP_DTYPE_FP16: return 0.84;
    case UZIP_DTYPE_FP32: return 0.82;
    case UZIP_DTYPE_FP8E4M3: return 0.9;
    case UZIP_DTYPE_FP8E5M2: return 0.85;
    default: return 1;
  }
}
// The chunk plan of one P2P exchange of `bytes` (nccl/p2p_plan.cc p2pChunkPlan): count, first and last
// chunk bytes (the pipeline's fill and drain).
void p2pChunks(double bytes, int dtype, double* k, double* first, double* last) {
  const double width = uzip_dtype_width((uint32_t)dtype);
  std::vector<std::pair<uint64_t, uint32_t>> plan;
  uzip::p2pChunkPlan((uint64_t)(bytes / width), (uint32_t)dtype, kP2pChunkBytes, uzip::P2P_CHUNKS_PER_MESSAGE,
                     uzip::P2P_SMALL_BLOCKS, &plan);
  *k = plan.empty() ? 1 : (double)plan.size();
  *first = plan.empty() ? bytes : plan.front().first * width;
  *last = plan.empty() ? bytes : plan.back().first * width;
}
// Predicted seconds of the plain NCCL collective and of the compressed one; false when not eligible.
bool predict(int kind, int n, uint64_t bytes, int dtype, const CollModel& m, double* plain, double* zip) {
  if (n < 2 || dtype == UZIP_DTYPE_BYTES) return false;
  double exchanges, seg = (double)bytes / n, after = 0;
  const bool direct = kind == UZIP_COLL_ALLREDUCE && n == 2 && uzip::allReduceDirectWanted();
  if (kind == UZIP_COLL_REDUCESCATTER) exchanges = n - 1;
  else if (kind == UZIP_COLL_ALLREDUCE && n == 2) exchanges = direct ? 1 : 2;
  else if (kind == UZIP_COLL_ALLGATHER && n == 2) exchanges = 1;
  else return false;
  if (direct) seg = (double)bytes, after = (double)bytes / kReduceBps;  // the whole buffer, then its reduce
  double k = 1, first = seg, last = seg;
  p2pChunks(seg, dtype, &k, &first, &last);
  const double step = m.stepSeconds > 0 ? m.stepSeconds : kDefaultStep;
  const double C = m.compressBps, D = m.decompressBps, L = m.linkBps;
  *plain = exchanges * (seg / L) + kLatency;
  if (kind == UZIP_COLL_ALLREDUCE && m.allReduceBps > 0) *plain = (double)bytes / m.allReduceBps;
  if (kind == UZIP_COLL_ALLGATHER && m.allGatherBps > 0) *plain = (double)bytes / m.allGatherBps;
  *zip = exchanges * (std::max(std::max(seg / C, expectedRatio(dtype) * seg / L), seg / D) +
                      first / C + last / D + (k + 2) * step + kLatency) + after;
  return true;
}

uint64_t autoMinBytesEnv() {
  const char* e = getenv("UZIP_COLL_AUTO_MIN_BYTES");
  if (e && *e) return strtoull(e, nullptr, 10);
  return UINT64_MAX;
}
bool autoReductionsEnv() {
  const char* e = getenv("UZIP_COLL_AUTO_REDUCTIONS");
  return e && strcmp(e, "1") == 0;
}
bool slowLinkEnv() {
  const char* e = getenv("NCCL_P2P_DISABLE");
  return e && strcmp(e, "1") == 0;
}
// lane: the communicator has a second NCCL communicator for the exchanges (Comm::lane).
int resolve(uint64_t comm, int kind, int nranks, uint64_t bytesPerRank, int dtype, int mode, bool lane) {
  if (mode != UZIP_COLL_AUTO) return mode;
  if (nranks < 2) return UZIP_COLL_NEVER;
  CollModel m;
  bool have = false;
  {
    std::lock_guard<std::mutex> g(g_modelsMu);
    auto it = g_models.find(comm);
    if (it != g_models.end()) m = it->second, have = true;
  }
  if (!have) {
    const uint64_t minBytes = autoMinBytesEnv();
    if (!slowLinkEnv() || minBytes == UINT64_MAX || bytesPerRank < minBytes) return UZIP_COLL_NEVER;
    return (kind == UZIP_COLL_ALLREDUCE || kind == UZIP_COLL_ALLGATHER) ? UZIP_COLL_ALWAYS : UZIP_COLL_NEVER;
  }
  // Reductions go to the model only from kAutoReductionMinBytes and with a second lane (or with
  // UZIP_COLL_AUTO_REDUCTIONS=1). Over one communicator the model predicted a gain for bf16 all-reduce
  // at 64-256 MiB but the compressed ring measured 0.86-0.90x NCCL's all-reduce on 2x H200 with
  // NCCL_P2P_DISABLE=1 (bench/results/h200x2-2026-11-30T1401-final): the exchanges, both ways at once,
  // get 2 NCCL channels and 22.8 GB/s per direction against NCCL all-reduce's 28.5. Over two lanes the
  // compressed all-reduce measured 1.08-1.15x at 64 MiB and 1.28-1.32x at 256 MiB (bf16, 2 ranks;
  // bench/results/h200x2-2026-11-30T2300-session6), and the model is not trusted below 64 MiB. The
  // direct 2-rank all-reduce (one exchange; coll_schedules.cc) measured 1.14x at 32 MiB with four lanes
  // (bench/results/h200x2-2026-12-01T0040-session7/4-round7), so it is trusted from 32 MiB.
  const uint64_t reductionMin = kind == UZIP_COLL_ALLREDUCE && nranks == 2 && uzip::allReduceDirectWanted()
                                    ? kAutoAllReduce2MinBytes
                                    : kAutoReductionMinBytes;
  const bool reductions = autoReductionsEnv() || (lane && bytesPerRank >= reductionMin);
  if (kind != UZIP_COLL_ALLGATHER && !reductions) return UZIP_COLL_NEVER;
  double plain = 0, zip = 0;
  if (bytesPerRank < kAutoMinBytes || !predict(kind, nranks, bytesPerRank, dtype, m, &plain, &zip))
    return UZIP_COLL_NEVER;
  if (std::min(m.compressBps, m.decompressBps) < kMinCodecToLink * m.linkBps) return UZIP_COLL_NEVER;
  return zip * kMargin < plain ? UZIP_COLL_ALWAYS : UZIP_COLL_NEVER;
}

// The pipelined executor's exchange on GPUs: one batch of the P2P engine (compressed send to `to`,
// compressed receive from `from`), chunked and LAG-pipelined on the engine's codec streams, ordered on
// the caller's stream.
class P2pExchange final : public uzip::CompressedExchange {
 public:
  P2pExchange(uint64_t comm, uint64_t stream) : comm_(comm), stream_(stream) {}
  int exchange(const void* send, uint64_t sendCount, int to, void* recv, uint64_t recvCount, int from,
               int dtype, const uzip::ExchangeChunkHook* onChunk, const uzip::ExchangeFuse* fuse) override {
    uzip_p2p_op ops[2];
    uint32_t n = 0;
    if (to >= 0 && sendCount) ops[n++] = uzip_p2p_op{(uint64_t)(uintptr_t)send, sendCount, dtype, to, 1, 1};
    if (from >= 0 && recvCount) ops[n++] = uzip_p2p_op{(uint64_t)(uintptr_t)recv, recvCount, dtype, from, 0, 1};
    if (!n) return UZIP_OK;
    used_ = true;
    uzip::P2pRecvFuse f{};
    if (fuse && from >= 0 && recvCount) f = uzip::P2pRecvFuse{n - 1, (uint64_t)(uintptr_t)fuse->other, fuse->op};
    const uzip::P2pRecvFuse* fp = f.other ? &f : nullptr;
    if (!onChunk || !*onChunk) return uzip::p2pRun(comm_, ops, n, stream_, 0, true, nullptr, fp);  // on the lanes
    const uzip::P2pRecvHook hook = [onChunk](uint32_t, uint64_t first, uint64_t count, uint64_t stream) {
      return (*onChunk)(first, count, stream);  // the batch's only receive
    };
    return uzip::p2pRun(comm_, ops, n, stream_, 0, true, &hook, fp);
  }
  // One P2P batch of every send and receive (the engine pipelines each peer and direction on its own).
  int exchangeMany(const uzip::ExchangeOp* ops, uint32_t nops, int dtype) override {
    std::vector<uzip_p2p_op> v;
    for (uint32_t i = 0; i < nops; i++) {
      if (!ops[i].count) continue;
      const uint64_t buf = (uint64_t)(uintptr_t)(ops[i].send ? ops[i].send : ops[i].recv);
      v.push_back(uzip_p2p_op{buf, ops[i].count, dtype, ops[i].peer, ops[i].send ? 1 : 0, 1});
    }
    if (v.empty()) return UZIP_OK;
    used_ = true;
    return uzip::p2pRun(comm_, v.data(), (uint32_t)v.size(), stream_, 0, true);
  }
  bool used() const { return used_; }

 private:
  uint64_t comm_, stream_;
  bool used_ = false;
};

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

// Restores the calling thread's current device on every way out (NCCL's calls leave it as they found it).
struct CurrentDevice {
  int prev = -1;
  CurrentDevice() {
    if (cudaGetDevice(&prev) != cudaSuccess) prev = -1;
  }
  ~CurrentDevice() {
    if (prev >= 0) cudaSetDevice(prev);
  }
};

int runOn(Comm* c, uint64_t comm, CollArgs a, int mode) {
  // The calling thread may be any (the nonblocking twins run on a worker thread, whose current device
  // is not the communicator's): the backend's kernels launch on this device.
  const CurrentDevice restore;
  if (cudaError_t e = cudaSetDevice(c->device))
    return uzipSetError(UZIP_ERR_CUDA, "cudaSetDevice(%d): %s", c->device, cudaGetErrorString(e));
  if (mode < UZIP_COLL_NEVER || mode > UZIP_COLL_PLAIN_SCHEDULE)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown collective mode %d", mode);
  if (int st = uzip::collValidate(a, c->size)) return st;
  uint64_t sendElems = 0, recvElems = 0;
  uzip::collBufferElems(a, c->size, c->rank, &sendElems, &recvElems);
  const uint64_t width = uzip_dtype_width((uint32_t)a.dtype);
  int path = resolve(comm, a.kind, c->size, (sendElems > recvElems ? sendElems : recvElems) * width, a.dtype, mode,
                     c->hasLanes());
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
  // Compressed all-reduce / reduce-scatter / all-gather run the pipelined executor (UZIP_COLL_PIPELINE=0
  // selects the older per-hop compressed schedule, for comparison).
  P2pExchange x(comm, a.stream);
  const char* pipe = getenv("UZIP_COLL_PIPELINE");
  if (a.compress && c->size > 1 && !(pipe && strcmp(pipe, "0") == 0)) a.exchange = &x;
  int st = uzip::runCollective(*t, *db->b, a);
  // Decode statuses of the P2P engine's receives (one host wait per collective, not per chunk).
  if (!st && x.used()) st = uzipCommSynchronize(comm, a.stream, 0);
  if (!st) uzipClearError();
  return st;
}

// A collective on the communicator `comm`; a failure's message is also kept on the communicator
// (uzipCommLastError), for callers on another thread than the one that ran the call.
int run(uint64_t comm, CollArgs a, int mode) {
  Comm* c = uzip::commFromHandle(comm);
  if (!c) return UZIP_ERR_INVALID_ARG;
  return uzip::commKeepError(c, runOn(c, comm, a, mode));
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
UZIP_API int uzipCollResolveMode(uint64_t comm, int32_t kind, uint64_t bytesPerRank, int32_t dtype, int32_t mode,
                                 int32_t* outPath) {
  Comm* c = uzip::commFromHandle(comm, true);
  if (!c) return UZIP_ERR_INVALID_ARG;
  if (!outPath) return uzipSetError(UZIP_ERR_INVALID_ARG, "null outPath");
  if (kind < 0 || kind >= UZIP_COLL_COUNT) return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown kind %d", kind);
  if (dtype < 0 || dtype >= UZIP_DTYPE_COUNT) return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown dtype %d", dtype);
  *outPath = resolve(comm, kind, c->size, bytesPerRank, dtype, mode, c->hasLanes()) == UZIP_COLL_ALWAYS ? 1 : 0;
  uzipClearError();
  return UZIP_OK;
}
UZIP_API int uzipCollSetModel(uint64_t comm, double linkBps, double compressBps, double decompressBps,
                              double stepSeconds, double allReduceBps, double allGatherBps) {
  if (!uzip::commFromHandle(comm, true)) return UZIP_ERR_INVALID_ARG;
  std::lock_guard<std::mutex> g(g_modelsMu);
  if (linkBps == 0 && compressBps == 0 && decompressBps == 0) {
    g_models.erase(comm);
  } else {
    for (double v : {linkBps, compressBps, decompressBps})
      if (!(v > 0) || !std::isfinite(v))
        return uzipSetError(UZIP_ERR_INVALID_ARG, "collective model: bandwidths must be positive and finite");
    for (double v : {stepSeconds, allReduceBps, allGatherBps})
      if (!(v >= 0) || !std::isfinite(v))
        return uzipSetError(UZIP_ERR_INVALID_ARG, "collective model: step and NCCL bandwidths must be >= 0");
    CollModel m;
    m.linkBps = linkBps;
    m.compressBps = compressBps;
    m.decompressBps = decompressBps;
    m.stepSeconds = stepSeconds;
    m.allReduceBps = allReduceBps;
    m.allGatherBps = allGatherBps;
    g_models[comm] = m;
  }
  uzipClearError();
  return UZIP_OK;
}
UZIP_API int uzipCollConfigure(uint64_t chunkElems) {
  g_chunkElems = chunkElems;
  uzipClearError();
  return UZIP_OK;
}

}  // extern "C"
