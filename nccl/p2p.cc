// Compressed point-to-point transfers: a chunked, lock-step pipeline run by the calling thread in C.
//
// Each compressed tensor is cut into chunks (<= chunkBytes, whole codec blocks). Each chunk is coded
// alone in the split layout (flag 0x02): header (64 B) | raw remainder plane | directory + payload; chunks of
// small blocks also in lean sections (0x10, chunkFlags).
// Header and remainder plane ("head") have a size the receiver knows from the element count alone;
// only the rest ("body") has a variable size, and the header says it. So per peer and direction:
//
//   step t:  head(chunk t)   and   body(chunk t - LAG)            (LAG = 2)
//
// Both sides walk the same steps and post each step's operations (all peers, both directions) as one
// NCCL group on the caller's stream, so the groups of two ranks always match and cannot deadlock. The
// host needs one fact per chunk before it can post that chunk's body: its size (sender: the coded size
// written by the compress kernel to a mapped word; receiver: the header, copied to pinned memory after
// step t's group). With LAG = 2 these facts come from step t - 2 while step t - 1 is still moving on the
// wire, so the host is never on the critical path. The remainder plane (half the bytes of bf16) leaves
// in the head, two steps before the coded exponent plane that it belongs to.
//
// A message is cut into about 2 chunks of >= 4 MiB and <= chunkBytes (32 MiB), chunks of at most 16 MiB in
// 2^12-element blocks (p2pChunkPlan): n chunks take n + 2 groups, and each group pays NCCL's fixed cost
// (~10-25 µs), while the fill (the first compress) and the drain (the last decode) cost about one codec
// latency each (~35-90 µs), small next to the wire time of a 16 MiB chunk on a ~37 GB/s link.
//
// Compression of chunk t+2 runs on the codec stream while steps t, t+1 move; decoding of chunk j runs
// on the receive codec stream as soon as step j + LAG's group has landed. Staging slots (KSLOTS per
// peer and direction) are reused under stream-ordered event waits; the host only polls events.
#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>
#include <vector>

#include "comm.h"
#include "p2p.h"
#include "p2p_trace.h"
#include "status.h"
#include "uzip_comm.h"
#include "uzip_format.h"

// The GPU codec lives in another part of the library (cuda/gpu_codec.cu); weak references keep this
// file linkable into a build without it, where compressed transfers then fail with UNSUPPORTED.
#pragma weak uzipGpuCodecCreate
#pragma weak uzipGpuCodecDestroy
#pragma weak uzipGpuCodecSetMaxSms
#pragma weak uzipGpuCompress
#pragma weak uzipGpuDecompressAs
#pragma weak uzipGpuDecompressReduce
#pragma weak uzipGpuDecompressLean
#pragma weak uzipGpuDecompressReduceLean

namespace uzip {
namespace {

constexpr int KSLOTS = 5;  // staging slots per peer and direction
constexpr int LAG = 2;         // steps between a chunk's head and its body
constexpr int GROUP_RING = 8;  // step events kept (>= LAG + 1)
constexpr uint32_t STATUS_POOL = 4096;
constexpr uint64_t LANE_SPLIT_BYTES = 1ull << 20;  // smaller operations stay on the first lane
constexpr uint32_t STATUS_UNSET = 0xFFFFFFFFu;
constexpr uint32_t FLAGS = UZIP_FLAG_SPLIT;
// A chunk's flags, from what both sides know (dtype and block size): chunks of small blocks (2^13 elements and
// less) of a dtype with remainders are coded in lean sections (FORMAT.md "Lean sections"): ratio at 2^12 bf16
// 0.6811 -> 0.6704, fp16 0.8797 -> 0.8699 (CPU codec, Gaussian); on one H100 bf16 1-16 MiB compress 1.0-1.2x
// and decode-reduce 1.3x faster (bench/results/h100-2026-12-05-session40/4-small-lean-either,
// 5-lean-decode-reduce).
uint32_t chunkFlags(uint32_t dtype, uint32_t log2) {
  constexpr uint32_t LEAN = FLAGS | UZIP_FLAG_LEAN;
  return log2 <= 13 && uzip_seeded_stream(dtype, LEAN) ? LEAN : FLAGS;  // seeded: the dtypes with remainders
}

using Clock = std::chrono::steady_clock;

int cudaFail(cudaError_t e, const char* what) {
  cudaGetLastError();
  return uzipSetError(UZIP_ERR_CUDA, "%s: %s", what, cudaGetErrorString(e));
}
#define CUDA_TRY(call, what)                       \
  do {                                             \
    cudaError_t e_ = (call);                       \
    if (e_ != cudaSuccess) return cudaFail(e_, what); \
  } while (0)
#define TRY(call)                 \
  do {                            \
    int s_ = (call);              \
    if (s_ != UZIP_OK) return s_; \
  } while (0)

// Staging of one peer and direction, kept between calls.
struct Sequence {
  uint64_t buf[KSLOTS] = {};  // device staging, `cap` bytes each
  uint64_t cap = 0;
  cudaEvent_t ev[KSLOTS] = {};  // send: compress of the slot's chunk done; recv: its decode done
  uint8_t* pinned = nullptr;    // KSLOTS headers (64 B) then KSLOTS sizes (u64), host-mapped
  uint8_t* header(int s) { return pinned + 64 * s; }
  volatile uint64_t* size(int s) { return reinterpret_cast<volatile uint64_t*>(pinned + 64 * KSLOTS) + s; }
};

}  // namespace

struct P2pEngine {
  uint64_t ctxSend = 0, ctxRecv = 0;
  uint64_t chunkBytes = P2P_DEFAULT_CHUNK_BYTES;
  uint64_t chunksPerMessage = P2P_CHUNKS_PER_MESSAGE;  // env UZIP_P2P_CHUNKS (for tuning; both sides alike)
  int smallBlocks = P2P_SMALL_BLOCKS;  // env UZIP_P2P_SMALL_BLOCKS 0-2 (p2pChunkPlan; both sides alike)
  P2pPlanKnobs knobs;  // env UZIP_P2P_LOG2, UZIP_P2P_SMALL_CHUNK_BYTES, UZIP_P2P_EDGES (p2p.h; both sides alike)
  int codecSms = -1;  // -1: default (all but 16)
  P2pTrace tr;  // env UZIP_P2P_TRACE (1 or 2): each batch's timeline (p2p_trace.h)
  cudaEvent_t start = nullptr, sendDone = nullptr, recvDone = nullptr;
  // net[t]: step t's NCCL group has completed (recorded on the caller's stream). group[t]: and its
  // headers are in pinned memory (recorded on `hdr`, after the copies): the host's facts of step t.
  // The header copies ride on their own stream so that they never sit between two groups on the wire.
  cudaEvent_t net[GROUP_RING] = {};
  cudaEvent_t group[GROUP_RING] = {};
  cudaStream_t hdr = nullptr;
  // Extra lanes (Comm::lanes): each lane's stream waits `fork` (recorded on the caller's stream before
  // each step's group) and the caller's stream waits that lane's `join` (recorded on its stream after).
  cudaEvent_t fork = nullptr, join[Comm::kMaxExtraLanes] = {};
  bool sendDoneRecorded = false, recvDoneRecorded = false;
  volatile uint32_t* status = nullptr;  // STATUS_POOL decode statuses, host-mapped
  uint32_t nstatus = 0;
  std::map<std::pair<int, int>, Sequence*> seqs;  // (peer, isSend)
};

namespace {

int defaultCodecSms(int device) {
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) return 0;
  const char* env = getenv("UZIP_P2P_CODEC_SMS");
  if (env && atoi(env) > 0) return std::min(atoi(env), sms);
  return sms > 32 ? sms - 16 : 0;
}

int engineGet(Comm* c, P2pEngine** out) {
  if (c->engine) {
    *out = c->engine;
    return UZIP_OK;
  }
  if (&uzipGpuCompress == nullptr || &uzipGpuDecompressAs == nullptr || &uzipGpuDecompressLean == nullptr ||
      &uzipGpuCodecCreate == nullptr || &uzipGpuCodecDestroy == nullptr || &uzipGpuCodecSetMaxSms == nullptr)
    return uzipSetError(UZIP_ERR_UNSUPPORTED, "this libuzip was built without the GPU codec: compressed "
                        "transfers are unavailable (use compress: \"never\")");
  P2pEngine* e = new P2pEngine();
  c->engine = e;  // partially built engines are freed by p2pEngineDestroy
  const char* env = getenv("UZIP_P2P_CHUNK_BYTES");
  if (env && strtoull(env, nullptr, 10) >= (1u << 16)) e->chunkBytes = strtoull(env, nullptr, 10);
  env = getenv("UZIP_P2P_TRACE");
  e->tr.mode = env ? (atoi(env) == 2 ? 2 : 1) : 0;
  env = getenv("UZIP_P2P_TRACE_MASK");
  if (env) e->tr.mask = (unsigned)strtoul(env, nullptr, 0) | (3u << 30);
  env = getenv("UZIP_P2P_SMALL_BLOCKS");
  if (env && *env >= '0' && *env <= '2' && env[1] == 0) e->smallBlocks = *env - '0';
  env = getenv("UZIP_P2P_LOG2");
  unsigned ls = 0, ll = 0;
  if (env && sscanf(env, "%u,%u", &ls, &ll) == 2 && ls >= UZIP_LOG2_BLOCK_MIN && ls <= UZIP_LOG2_BLOCK_MAX &&
      ll >= UZIP_LOG2_BLOCK_MIN && ll <= UZIP_LOG2_BLOCK_MAX)
    e->knobs.smallLog2 = ls, e->knobs.largeLog2 = ll;
  env = getenv("UZIP_P2P_SMALL_CHUNK_BYTES");
  if (env && *env) e->knobs.smallChunkBytes = strtoull(env, nullptr, 10);
  env = getenv("UZIP_P2P_EDGES");
  unsigned long long ef = 0, el = 0;
  if (env && sscanf(env, "%llu,%llu", &ef, &el) == 2) e->knobs.firstBytes = ef, e->knobs.lastBytes = el;
  env = getenv("UZIP_P2P_CHUNKS");
  if (env && atoi(env) >= 1 && atoi(env) <= 64) e->chunksPerMessage = (uint64_t)atoi(env);
  int sms = defaultCodecSms(c->device);
  TRY(uzipGpuCodecCreate(c->device, sms, &e->ctxSend));
  TRY(uzipGpuCodecCreate(c->device, sms, &e->ctxRecv));
  e->codecSms = sms;
  unsigned flags = cudaEventDisableTiming;
  CUDA_TRY(cudaEventCreateWithFlags(&e->start, flags), "cudaEventCreate");
  CUDA_TRY(cudaEventCreateWithFlags(&e->sendDone, flags), "cudaEventCreate");
  CUDA_TRY(cudaEventCreateWithFlags(&e->recvDone, flags), "cudaEventCreate");
  for (auto& g : e->group) CUDA_TRY(cudaEventCreateWithFlags(&g, flags), "cudaEventCreate");
  // The step events are timing events, though nothing reads their times: measured on 2x H200 with
  // NCCL_P2P_DISABLE=1 (bench/results/h200x2-2026-11-30T1645-p2p-events), transfers with them took
  // 5.4 ms per 256 MiB against 5.9-6.8 ms with cudaEventDisableTiming ones (the caller's stream records
  // one after each step's NCCL group and the header and decode streams wait on it); why is not
  // established. UZIP_P2P_NET_TIMING=0 restores the other kind, for comparison.
  const char* nt = getenv("UZIP_P2P_NET_TIMING");
  const unsigned netFlags = nt && strcmp(nt, "0") == 0 ? flags : 0u;
  for (auto& g : e->net) CUDA_TRY(cudaEventCreateWithFlags(&g, netFlags), "cudaEventCreate");
  CUDA_TRY(cudaStreamCreateWithFlags(&e->hdr, cudaStreamNonBlocking), "cudaStreamCreate");
  if (c->hasLanes()) {
    CUDA_TRY(cudaEventCreate(&e->fork), "cudaEventCreate");  // timing events, like the step events
    for (int i = 0; i < c->extraLanes; i++) CUDA_TRY(cudaEventCreate(&e->join[i]), "cudaEventCreate");
  }
  void* p = nullptr;
  CUDA_TRY(cudaHostAlloc(&p, STATUS_POOL * 4, cudaHostAllocMapped | cudaHostAllocPortable), "cudaHostAlloc");
  e->status = static_cast<volatile uint32_t*>(p);
  *out = e;
  return UZIP_OK;
}

int sequenceGet(P2pEngine* e, int peer, bool isSend, uint64_t cap, Sequence** out) {
  Sequence*& q = e->seqs[{peer, isSend ? 1 : 0}];
  if (q == nullptr) {
    q = new Sequence();
    void* p = nullptr;
    CUDA_TRY(cudaHostAlloc(&p, KSLOTS * 72, cudaHostAllocMapped | cudaHostAllocPortable), "cudaHostAlloc");
    q->pinned = static_cast<uint8_t*>(p);
    for (auto& ev : q->ev) CUDA_TRY(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "cudaEventCreate");
  }
  if (q->cap < cap) {
    // The previous batch's use of these slots is over: callers wait sendDone/recvDone before this.
    for (auto& b : q->buf) {
      if (b) cudaFree(reinterpret_cast<void*>(b));
      b = 0;
    }
    q->cap = 0;
    for (auto& b : q->buf) {
      void* p = nullptr;
      cudaError_t err = cudaMalloc(&p, cap);
      if (err != cudaSuccess) {
        cudaGetLastError();
        return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "P2P staging: cudaMalloc(%llu) failed: %s",
                            (unsigned long long)cap, cudaGetErrorString(err));
      }
      b = reinterpret_cast<uint64_t>(p);
    }
    q->cap = cap;
  }
  *out = q;
  return UZIP_OK;
}

// Polls `ev` until done, the deadline passes (abort + TIMEOUT), the communicator is aborted, or NCCL
// reports an asynchronous error (a peer died).
int waitEvent(Comm* c, cudaEvent_t ev, uint32_t timeoutMs, const char* what) {
  auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
  for (uint64_t spin = 0;; spin++) {
    cudaError_t r = cudaEventQuery(ev);
    if (r == cudaSuccess) return UZIP_OK;
    if (r != cudaErrorNotReady) return cudaFail(r, what);
    if (c->aborted.load()) return uzipSetError(UZIP_ERR_NCCL, "%s: communicator was aborted", what);
    if ((spin & 1023) == 1023) {
      ncclResult_t st = ncclSuccess;
      if (c->nccl) c->api->commGetAsyncError(c->nccl, &st);
      for (int i = 0; i < c->extraLanes && (st == ncclSuccess || st == ncclInProgress); i++)
        c->api->commGetAsyncError(c->lanes[i], &st);
      if (st != ncclSuccess && st != ncclInProgress) {
        int s = ncclStatus(st, c->nccl, what);
        commAbortLocked(c);
        return s;
      }
      if (Clock::now() > deadline) {
        commAbortLocked(c);
        return uzipSetError(UZIP_ERR_TIMEOUT, "%s: waited %u ms (a peer is dead or not posting the "
                            "matching operation); communicator aborted", what, timeoutMs);
      }
    }
    if (spin > 20000) std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

// Checks the decode statuses written so far; requires the receive codec stream to be idle.
int checkStatuses(P2pEngine* e) {
  int s = UZIP_OK;
  for (uint32_t i = 0; i < e->nstatus; i++) {
    uint32_t v = e->status[i];
    if (v != UZIP_OK && s == UZIP_OK) {
      s = v == STATUS_UNSET ? uzipSetError(UZIP_ERR_INTERNAL, "P2P: a chunk's decode status was never written")
                            : uzipSetError((int)v, "P2P: a received chunk failed to decode (%s)",
                                           uzipStatusName((int)v));
    }
  }
  e->nstatus = 0;
  return s;
}

struct Chunk {
  uint32_t op;     // index of its op in the batch
  uint64_t first;  // its first element in the op
  uint64_t ptr;    // user buffer + offset
  uint64_t count;  // elements
  uint32_t dtype;
  uint32_t log2;   // block size
  uint32_t flags;  // chunkFlags(dtype, log2)
  uint64_t head;   // header + remainder plane bytes
  uint64_t max;    // largest valid stream
  uint64_t total = 0;
};

struct Run {
  int peer;
  bool isSend;
  Sequence* seq = nullptr;
  std::vector<Chunk> chunks;
  size_t compressed = 0;  // send: chunks whose compress is enqueued
};

int validateOp(Comm* c, const uzip_p2p_op& op, uint32_t i) {
  if (op.dtype < 0 || op.dtype >= UZIP_DTYPE_COUNT)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "op %u: unknown dtype %d", i, op.dtype);
  if (op.peer < 0 || op.peer >= c->size)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "op %u: peer %d is not a rank of [0, %d)", i, op.peer, c->size);
  if (op.isSend != 0 && op.isSend != 1) return uzipSetError(UZIP_ERR_INVALID_ARG, "op %u: isSend must be 0/1", i);
  if (op.compress != 0 && op.compress != 1)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "op %u: compress must be 0/1", i);
  if (op.count > 0 && op.buf == 0) return uzipSetError(UZIP_ERR_INVALID_ARG, "op %u: null buffer", i);
  if (op.count > (1ull << 40)) return uzipSetError(UZIP_ERR_INVALID_ARG, "op %u: count too large", i);
  return UZIP_OK;
}

int headerCheck(const uint8_t* h, const Chunk& k, int peer) {
  uint32_t magic;
  uint64_t count, total;
  memcpy(&magic, h + UZIP_H_MAGIC, 4);
  memcpy(&count, h + UZIP_H_COUNT, 8);
  memcpy(&total, h + UZIP_H_TOTAL, 8);
  if (magic != UZIP_MAGIC || h[UZIP_H_DTYPE] != k.dtype ||
      (h[UZIP_H_FLAGS] & (UZIP_FLAG_SPLIT | UZIP_FLAG_LEAN)) != k.flags ||
      h[UZIP_H_LOG2BLOCK] != k.log2 ||
      count != k.count || total <= k.head || total > k.max) {
    return uzipSetError(UZIP_ERR_CORRUPT,
                        "P2P: chunk header from rank %d does not match the posted receive (dtype %u, %llu "
                        "elements; header says dtype %u, %llu elements, %llu bytes). Do both sides post "
                        "the same batch with the same compress setting and UZIP_P2P_CHUNK_BYTES?",
                        peer, k.dtype, (unsigned long long)k.count, h[UZIP_H_DTYPE], (unsigned long long)count,
                        (unsigned long long)total);
  }
  return UZIP_OK;
}

int runLocked(Comm* c, const uzip_p2p_op* ops, uint32_t nops, cudaStream_t stream, uint32_t timeoutMs,
              bool collective, const P2pRecvHook* hook, const P2pRecvFuse* fuse) {
  const Clock::time_point entry = Clock::now();
  const NcclApi* api = c->api;
  std::vector<const uzip_p2p_op*> plain;
  bool anyCompressed = false;
  // Bytes on the wire per op, for the caller's policy: user batches only (a collective's exchanges,
  // which may run between a user batch and its caller's read, leave the record alone).
  std::vector<uint64_t> scratchWire;
  std::vector<uint64_t>& wire = collective ? scratchWire : c->p2pLastWire;
  wire.assign(nops, 0);
  for (uint32_t i = 0; i < nops; i++) {
    TRY(validateOp(c, ops[i], i));
    if (ops[i].count == 0) continue;
    if (ops[i].compress) anyCompressed = true;
    else plain.push_back(&ops[i]), wire[i] = ops[i].count * uzip_dtype_width(ops[i].dtype);
  }
  TRY(p2pCheckSelfPairs(ops, nops, c->rank));  // transfers to self come in mirrored pairs
  auto postPlain = [&]() {
    for (const uzip_p2p_op* op : plain) {
      uint64_t bytes = op->count * uzip_dtype_width(op->dtype);
      void* p = reinterpret_cast<void*>(op->buf);
      ncclResult_t r = op->isSend ? api->send(p, bytes, ncclUint8, op->peer, c->nccl, (ncclStream_t)stream)
                                  : api->recv(p, bytes, ncclUint8, op->peer, c->nccl, (ncclStream_t)stream);
      if (r != ncclSuccess && r != ncclInProgress) return r;
    }
    return ncclSuccess;
  };
  if (!anyCompressed) {
    if (plain.empty()) return UZIP_OK;
    ncclResult_t r = api->groupStart();
    if (r == ncclSuccess) {
      ncclResult_t r2 = postPlain();
      r = api->groupEnd();
      if (r2 != ncclSuccess) r = r2;
    }
    return commCheck(c, r, "plain send/recv");
  }

  // ---- compressed batch: build the runs (one per peer and direction, in op order) ----
  P2pEngine* e = nullptr;
  TRY(engineGet(c, &e));
  std::vector<Run> runs;
  auto runOf = [&](int peer, bool isSend) -> Run& {
    for (Run& r : runs)
      if (r.peer == peer && r.isSend == isSend) return r;
    runs.push_back(Run{peer, isSend});
    return runs.back();
  };
  uint64_t recvChunks = 0;
  std::vector<std::pair<uint64_t, uint32_t>> plan;
  for (uint32_t i = 0; i < nops; i++) {
    const uzip_p2p_op& op = ops[i];
    if (op.count == 0 || !op.compress) continue;
    Run& r = runOf(op.peer, op.isSend == 1);
    p2pChunkPlan(op.count, op.dtype, e->chunkBytes, e->chunksPerMessage, e->smallBlocks, &plan, e->knobs);
    uint64_t off = 0;
    for (const auto& pc : plan) {
      Chunk k;
      k.op = i;
      k.first = off;
      k.count = pc.first;
      k.log2 = pc.second;
      k.dtype = op.dtype;
      k.ptr = op.buf + off * uzip_dtype_width(op.dtype);
      k.flags = chunkFlags(k.dtype, k.log2);
      k.head = uzip_dir_offset(k.count, k.dtype, k.flags, k.log2);
      k.max = uzip_max_compressed_size(k.count, k.dtype, k.flags, k.log2);
      r.chunks.push_back(k);
      off += k.count;
      if (!r.isSend) recvChunks++;
    }
  }
  // Ordering with the caller's stream and with the previous batch's use of the staging slots.
  P2pTrace& tr = e->tr;
  tr.begin(stream, c->rank, entry);
  CUDA_TRY(cudaEventRecord(e->start, stream), "cudaEventRecord");
  CUDA_TRY(cudaStreamWaitEvent(c->codecSendStream, e->start, 0), "cudaStreamWaitEvent");
  CUDA_TRY(cudaStreamWaitEvent(c->codecRecvStream, e->start, 0), "cudaStreamWaitEvent");
  if (e->sendDoneRecorded) CUDA_TRY(cudaStreamWaitEvent(c->codecSendStream, e->sendDone, 0), "wait");
  if (e->recvDoneRecorded) CUDA_TRY(cudaStreamWaitEvent(stream, e->recvDone, 0), "wait");
  if (recvChunks > STATUS_POOL)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "P2P: %llu compressed chunks to receive in one batch (max %u)",
                        (unsigned long long)recvChunks, STATUS_POOL);
  if (e->nstatus + recvChunks > STATUS_POOL) {
    // Status words run out: wait for the decodes in flight and check them.
    CUDA_TRY(cudaEventRecord(e->recvDone, c->codecRecvStream), "cudaEventRecord");
    TRY(waitEvent(c, e->recvDone, timeoutMs, "P2P: waiting for earlier decodes"));
    TRY(checkStatuses(e));
  }
  size_t steps = 0;
  for (Run& r : runs) {
    uint64_t cap = 0;
    for (const Chunk& k : r.chunks) cap = std::max(cap, k.max);
    TRY(sequenceGet(e, r.peer, r.isSend, (cap + 255) & ~255ull, &r.seq));
    steps = std::max(steps, r.chunks.size() + LAG);
  }

  auto enqueueCompress = [&](Run& r, size_t upTo) -> int {
    // Slot j % KSLOTS last held chunk j - KSLOTS, whose body left in step j - KSLOTS + LAG.
    while (r.compressed < r.chunks.size() && r.compressed <= upTo) {
      size_t j = r.compressed;
      int slot = (int)(j % KSLOTS);
      if (j >= (size_t)KSLOTS) {
        size_t freedAt = j - KSLOTS + LAG;
        CUDA_TRY(cudaStreamWaitEvent(c->codecSendStream, e->net[freedAt % GROUP_RING], 0), "wait");
      }
      Chunk& k = r.chunks[j];
      *r.seq->size(slot) = 0;
      uint64_t sizeDev = 0;
      CUDA_TRY(cudaHostGetDevicePointer(reinterpret_cast<void**>(&sizeDev), (void*)r.seq->size(slot), 0),
               "cudaHostGetDevicePointer");
      const size_t sp = tr.open("compress", (int)j, c->codecSendStream, 0);
      TRY(uzipGpuCompress(e->ctxSend, k.ptr, k.count, (int)k.dtype, k.flags, k.log2, r.seq->buf[slot], r.seq->cap,
                          sizeDev, reinterpret_cast<uint64_t>(c->codecSendStream)));
      tr.close(sp, c->codecSendStream);
      CUDA_TRY(cudaEventRecord(r.seq->ev[slot], c->codecSendStream), "cudaEventRecord");
      r.compressed++;
    }
    return UZIP_OK;
  };

  for (size_t t = 0; t < steps; t++) {
    // 1. Facts of step t - LAG: coded sizes (send) and headers (receive) of the chunks whose body goes now.
    if (t >= (size_t)LAG) {
      size_t j = t - LAG;
      TRY(waitEvent(c, e->group[j % GROUP_RING], timeoutMs, "P2P: waiting for a chunk header from the peer"));
      tr.stamp("facts", (int)j);
      for (Run& r : runs) {
        if (j >= r.chunks.size()) continue;
        Chunk& k = r.chunks[j];
        int slot = (int)(j % KSLOTS);
        if (r.isSend) {
          TRY(waitEvent(c, r.seq->ev[slot], timeoutMs, "P2P: waiting for a chunk's compression"));
          k.total = *r.seq->size(slot);
          if (k.total <= k.head || k.total > k.max)
            return uzipSetError(UZIP_ERR_INTERNAL, "P2P: compressor reported %llu bytes for a chunk of %llu "
                                "elements", (unsigned long long)k.total, (unsigned long long)k.count);
        } else {
          int s = headerCheck(r.seq->header(slot), k, r.peer);
          if (s != UZIP_OK) {
            commAbortLocked(c);  // the two sides disagree: nothing later can be matched safely
            return s;
          }
          memcpy(&k.total, r.seq->header(slot) + UZIP_H_TOTAL, 8);
        }
        wire[k.op] += k.total;
      }
    }
    // 2. Compression two chunks ahead; the caller's stream waits for what this step sends or reuses.
    for (Run& r : runs) {
      if (r.isSend) {
        TRY(enqueueCompress(r, t + KSLOTS - LAG - 1));
        if (t < r.chunks.size()) CUDA_TRY(cudaStreamWaitEvent(stream, r.seq->ev[t % KSLOTS], 0), "wait");
      } else if (t < r.chunks.size() && t >= (size_t)KSLOTS) {
        CUDA_TRY(cudaStreamWaitEvent(stream, r.seq->ev[t % KSLOTS], 0), "wait");  // slot's decode done
      }
    }
    // 3. One group: every run's head(t) and body(t - LAG); plain operations ride in step 0. A step with
    // nothing to move (the second of a one-chunk message) posts no group at all.
    bool anyOp = t == 0 && !plain.empty();
    for (Run& r : runs) anyOp = anyOp || t < r.chunks.size() || (t >= (size_t)LAG && t - LAG < r.chunks.size());
    const size_t spStep = tr.open("step", (int)t, stream, 2);
    const int extra = anyOp && (collective || c->laneForP2p) ? c->extraLanes : 0;
    if (extra > 0) {
      CUDA_TRY(cudaEventRecord(e->fork, stream), "cudaEventRecord");
      for (int i = 0; i < extra; i++) CUDA_TRY(cudaStreamWaitEvent(c->laneStreams[i], e->fork, 0), "wait");
    }
    // One operation of n bytes at p; with extra lanes, an operation >= LANE_SPLIT_BYTES is cut into
    // 1 + extra parts (16-aligned, the same on both sides), part i + 1 on lane i.
    auto post = [&](const Run& r, uint8_t* p, uint64_t n) -> ncclResult_t {
      const int parts = extra > 0 && n >= LANE_SPLIT_BYTES ? 1 + extra : 1;
      const uint64_t part = parts > 1 ? (n / parts) & ~15ull : n;
      ncclResult_t q = ncclSuccess;
      for (int i = 0; i < parts && (q == ncclSuccess || q == ncclInProgress); i++) {
        const uint64_t off = part * i, len = i + 1 == parts ? n - off : part;
        ncclComm_t comm = i == 0 ? c->nccl : c->lanes[i - 1];
        auto st = (ncclStream_t)(i == 0 ? stream : c->laneStreams[i - 1]);
        q = r.isSend ? api->send(p + off, len, ncclUint8, r.peer, comm, st)
                     : api->recv(p + off, len, ncclUint8, r.peer, comm, st);
      }
      return q;
    };
    ncclResult_t r0 = anyOp ? api->groupStart() : ncclSuccess;
    ncclResult_t rr = ncclSuccess;
    if (t == 0) rr = postPlain();
    for (Run& r : runs) {
      if (rr != ncclSuccess && rr != ncclInProgress) break;
      if (t < r.chunks.size()) {
        rr = post(r, reinterpret_cast<uint8_t*>(r.seq->buf[t % KSLOTS]), r.chunks[t].head);
        if (rr != ncclSuccess && rr != ncclInProgress) break;
      }
      if (t >= (size_t)LAG && t - LAG < r.chunks.size()) {
        const Chunk& k = r.chunks[t - LAG];
        rr = post(r, reinterpret_cast<uint8_t*>(r.seq->buf[(t - LAG) % KSLOTS] + k.head), k.total - k.head);
      }
    }
    ncclResult_t r1 = anyOp ? api->groupEnd() : ncclSuccess;
    for (int i = 0; i < extra; i++) {
      CUDA_TRY(cudaEventRecord(e->join[i], c->laneStreams[i]), "cudaEventRecord");
      CUDA_TRY(cudaStreamWaitEvent(stream, e->join[i], 0), "wait");
    }
    if (r0 != ncclSuccess) r1 = r0;
    if (rr != ncclSuccess && rr != ncclInProgress) r1 = rr;
    TRY(commCheck(c, r1, "P2P step"));
    tr.stamp("posted", (int)t);
    // 4. The step's events, headers to the host (on `hdr`), decoding of the bodies that just landed.
    tr.close(spStep, stream);
    cudaEvent_t net = e->net[t % GROUP_RING];
    CUDA_TRY(cudaEventRecord(net, stream), "cudaEventRecord");
    CUDA_TRY(cudaStreamWaitEvent(e->hdr, net, 0), "wait");
    for (Run& r : runs) {
      if (!r.isSend && t < r.chunks.size()) {
        int slot = (int)(t % KSLOTS);
        CUDA_TRY(cudaMemcpyAsync(r.seq->header(slot), reinterpret_cast<void*>(r.seq->buf[slot]), 64,
                                 cudaMemcpyDeviceToHost, e->hdr),
                 "header copy");
      }
    }
    CUDA_TRY(cudaEventRecord(e->group[t % GROUP_RING], e->hdr), "cudaEventRecord");
    bool waited = false;
    for (Run& r : runs) {
      if (r.isSend || t < (size_t)LAG || t - LAG >= r.chunks.size()) continue;
      size_t j = t - LAG;
      int slot = (int)(j % KSLOTS);
      const Chunk& k = r.chunks[j];
      if (!waited) CUDA_TRY(cudaStreamWaitEvent(c->codecRecvStream, net, 0), "wait");
      waited = true;
      uint32_t si = e->nstatus++;
      e->status[si] = STATUS_UNSET;
      uint64_t statusDev = 0;
      CUDA_TRY(cudaHostGetDevicePointer(reinterpret_cast<void**>(&statusDev), (void*)(e->status + si), 0),
               "cudaHostGetDevicePointer");
      const size_t sp = tr.open("decode", (int)j, c->codecRecvStream, 4);
      const bool lean = (k.flags & UZIP_FLAG_LEAN) != 0;
      const uint64_t rs = reinterpret_cast<uint64_t>(c->codecRecvStream);
      if (fuse && k.op == fuse->op)  // decoded and reduced by one kernel
        TRY((lean ? uzipGpuDecompressReduceLean : uzipGpuDecompressReduce)(
            e->ctxRecv, r.seq->buf[slot], k.total, k.ptr, fuse->other + k.first * uzip_dtype_width(k.dtype), k.count,
            (int)k.dtype, fuse->redOp, statusDev, rs));
      else if (lean)
        TRY(uzipGpuDecompressLean(e->ctxRecv, r.seq->buf[slot], k.total, k.ptr, k.count * uzip_dtype_width(k.dtype),
                                  statusDev, rs));
      else
        TRY(uzipGpuDecompressAs(e->ctxRecv, r.seq->buf[slot], k.total, k.ptr, k.count * uzip_dtype_width(k.dtype),
                                statusDev, rs, (int)k.dtype));
      tr.close(sp, c->codecRecvStream);
      CUDA_TRY(cudaEventRecord(r.seq->ev[slot], c->codecRecvStream), "cudaEventRecord");  // slot reusable
      if (hook && *hook) TRY((*hook)(k.op, k.first, k.count, reinterpret_cast<uint64_t>(c->codecRecvStream)));
    }
  }
  // The caller's stream: sends are done with the user's buffers (all compress waited above); received
  // data is in place once the decodes are.
  CUDA_TRY(cudaEventRecord(e->recvDone, c->codecRecvStream), "cudaEventRecord");
  e->recvDoneRecorded = true;
  CUDA_TRY(cudaStreamWaitEvent(stream, e->recvDone, 0), "wait");
  CUDA_TRY(cudaEventRecord(e->sendDone, stream), "cudaEventRecord");
  e->sendDoneRecorded = true;
  if (tr.mode) {
    const size_t sp = tr.open("end", 0, stream);
    tr.close(sp, stream);
    tr.stamp("return", 0);
    tr.end();
  }
  return UZIP_OK;
}

}  // namespace

void p2pEngineDestroy(Comm* c) {
  P2pEngine* e = c->engine;
  if (e == nullptr) return;
  c->engine = nullptr;
  cudaSetDevice(c->device);
  cudaDeviceSynchronize();
  e->tr.flush();
  for (auto& kv : e->seqs) {
    Sequence* q = kv.second;
    for (auto b : q->buf)
      if (b) cudaFree(reinterpret_cast<void*>(b));
    for (auto ev : q->ev)
      if (ev) cudaEventDestroy(ev);
    if (q->pinned) cudaFreeHost(q->pinned);
    delete q;
  }
  if (e->ctxSend) uzipGpuCodecDestroy(e->ctxSend);
  if (e->ctxRecv) uzipGpuCodecDestroy(e->ctxRecv);
  for (auto ev : {e->start, e->sendDone, e->recvDone, e->fork})
    if (ev) cudaEventDestroy(ev);
  for (auto ev : e->join)
    if (ev) cudaEventDestroy(ev);
  for (auto ev : e->group)
    if (ev) cudaEventDestroy(ev);
  for (auto ev : e->net)
    if (ev) cudaEventDestroy(ev);
  if (e->hdr) cudaStreamDestroy(e->hdr);
  if (e->status) cudaFreeHost((void*)e->status);
  cudaGetLastError();
  delete e;
}

int p2pRun(uint64_t comm, const uzip_p2p_op* ops, uint32_t nops, uint64_t stream, uint32_t timeoutMs,
           bool collective, const P2pRecvHook* hook, const P2pRecvFuse* fuse) {
  if (ops == nullptr && nops > 0) return uzipSetError(UZIP_ERR_INVALID_ARG, "ops is null");
  Comm* c = commFromHandle(comm, true);
  if (c == nullptr) return UZIP_ERR_INVALID_ARG;
  std::lock_guard<std::recursive_mutex> g(c->mu);
  if (c->aborted.load() || c->nccl == nullptr)
    return commKeepError(c, uzipSetError(UZIP_ERR_NCCL, "communicator (rank %d) was aborted", c->rank));
  cudaError_t e = cudaSetDevice(c->device);
  if (e != cudaSuccess) return uzip::cudaFail(e, "cudaSetDevice");
  if (fuse && (fuse->op >= nops || ops[fuse->op].isSend || !ops[fuse->op].compress ||
               &uzipGpuDecompressReduce == nullptr || &uzipGpuDecompressReduceLean == nullptr))
    return commKeepError(c, uzipSetError(UZIP_ERR_INTERNAL,
                                         "P2P: a fused reduce names op %u, not a compressed receive", fuse->op));
  int s = runLocked(c, ops, nops, reinterpret_cast<cudaStream_t>(stream), timeoutMs ? timeoutMs : c->timeoutMs,
                    collective, hook, fuse);
  if (s == UZIP_OK) uzipClearError();
  return commKeepError(c, s);
}

}  // namespace uzip

using uzip::Comm;

extern "C" {

UZIP_API int uzipP2pRun(uint64_t comm, const uzip_p2p_op* ops, uint32_t nops, uint64_t stream,
                        uint32_t timeoutMs) {
  return uzip::p2pRun(comm, ops, nops, stream, timeoutMs, false);
}

UZIP_API int uzipP2pLastWireBytes(uint64_t comm, uint64_t* out, uint32_t cap, uint32_t* outCount) {
  if (!outCount || (!out && cap)) return uzipSetError(UZIP_ERR_INVALID_ARG, "out or outCount is null");
  Comm* c = uzip::commFromHandle(comm, true);
  if (c == nullptr) return UZIP_ERR_INVALID_ARG;
  std::lock_guard<std::recursive_mutex> g(c->mu);
  const size_t n = c->p2pLastWire.size();
  for (size_t i = 0; i < n && i < cap; i++) out[i] = c->p2pLastWire[i];
  *outCount = (uint32_t)n;
  uzipClearError();
  return UZIP_OK;
}

UZIP_API int uzipCommSynchronize(uint64_t comm, uint64_t stream, uint32_t timeoutMs) {
  Comm* c = uzip::commFromHandle(comm, true);
  if (c == nullptr) return UZIP_ERR_INVALID_ARG;
  std::lock_guard<std::recursive_mutex> g(c->mu);
  if (c->aborted.load() || c->nccl == nullptr)
    return uzip::commKeepError(c, uzipSetError(UZIP_ERR_NCCL, "communicator (rank %d) was aborted", c->rank));
  cudaSetDevice(c->device);
  uint32_t t = timeoutMs ? timeoutMs : c->timeoutMs;
  cudaEvent_t ev;
  cudaError_t e = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  if (e != cudaSuccess) return uzip::cudaFail(e, "cudaEventCreate");
  int s = UZIP_OK;
  for (cudaStream_t st : {reinterpret_cast<cudaStream_t>(stream), c->codecSendStream, c->codecRecvStream}) {
    e = cudaEventRecord(ev, st);
    if (e != cudaSuccess) {
      s = uzip::cudaFail(e, "cudaEventRecord");
      break;
    }
    s = uzip::waitEvent(c, ev, t, "synchronize");
    if (s != UZIP_OK) break;
  }
  cudaEventDestroy(ev);
  if (s == UZIP_OK && c->engine) s = uzip::checkStatuses(c->engine);
  if (s == UZIP_OK) uzipClearError();
  return uzip::commKeepError(c, s);
}

UZIP_API int uzipP2pConfigure(uint64_t comm, uint64_t chunkBytes, int32_t codecSms) {
  Comm* c = uzip::commFromHandle(comm);
  if (c == nullptr) return UZIP_ERR_NCCL;
  if (chunkBytes != 0 && chunkBytes < (1u << 16))
    return uzipSetError(UZIP_ERR_INVALID_ARG, "chunkBytes must be >= 64 KiB, got %llu", (unsigned long long)chunkBytes);
  std::lock_guard<std::recursive_mutex> g(c->mu);
  cudaSetDevice(c->device);
  uzip::P2pEngine* e = nullptr;
  int s = uzip::engineGet(c, &e);
  if (s != UZIP_OK) return s;
  if (chunkBytes) e->chunkBytes = chunkBytes;
  if (codecSms > 0) {
    if ((s = uzipGpuCodecSetMaxSms(e->ctxSend, codecSms)) != UZIP_OK) return s;
    if ((s = uzipGpuCodecSetMaxSms(e->ctxRecv, codecSms)) != UZIP_OK) return s;
    e->codecSms = codecSms;
  }
  uzipClearError();
  return UZIP_OK;
}

}  // extern "C"
