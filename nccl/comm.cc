// Communicators: NCCL init with a timeout, destroy, abort, and the handle registry (see uzip_comm.h).
#include "comm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <chrono>
#include <mutex>
#include <thread>
#include <unordered_set>

#include "p2p.h"
#include "status.h"
#include "transport_nccl.h"
#include "uzip_comm.h"

namespace uzip {
namespace {

std::mutex g_registryMu;
std::unordered_set<Comm*> g_registry;
char g_initError[512] = "";  // the last failed uzipCommInit's message, under g_registryMu

using Clock = std::chrono::steady_clock;

uint32_t effectiveTimeout(uint32_t ms) { return ms == 0 ? 60000u : ms; }

int cudaFail(cudaError_t e, const char* what) {
  cudaGetLastError();
  return uzipSetError(UZIP_ERR_CUDA, "%s: %s", what, cudaGetErrorString(e));
}

}  // namespace

Comm* commFromHandle(uint64_t handle, bool allowAborted) {
  Comm* c = reinterpret_cast<Comm*>(static_cast<uintptr_t>(handle));
  {
    std::lock_guard<std::mutex> g(g_registryMu);
    if (handle == 0 || g_registry.count(c) == 0) {
      uzipSetError(UZIP_ERR_INVALID_ARG, "unknown or destroyed communicator handle 0x%llx",
                   (unsigned long long)handle);
      return nullptr;
    }
  }
  if (!allowAborted && c->aborted.load()) {
    uzipSetError(UZIP_ERR_NCCL, "communicator (rank %d of %d) was aborted", c->rank, c->size);
    return nullptr;
  }
  return c;
}

int commKeepError(Comm* c, int s) {
  if (s == UZIP_OK) return s;
  const char* m = uzipLastError();
  if (c == nullptr) {
    std::lock_guard<std::mutex> g(g_registryMu);
    snprintf(g_initError, sizeof g_initError, "%s", m ? m : "");
  } else {
    std::lock_guard<std::recursive_mutex> g(c->mu);
    snprintf(c->lastError, sizeof c->lastError, "%s", m ? m : "");
  }
  return s;
}

void commAbortLocked(Comm* c) {
  // The lanes' streams wait on each other every step (nccl/p2p.cc), so a lane's queued kernels can
  // depend on another lane's stuck ones: the extra lanes are aborted on their own threads, at the same
  // time as the first, so that each abort's flag is set before any waits for its kernels (aborting
  // one after the other hung on a killed peer, measured).
  std::thread aborts[Comm::kMaxExtraLanes];
  for (int i = 0; i < c->extraLanes; i++)
    if (c->lanes[i] != nullptr) aborts[i] = std::thread([api = c->api, comm = c->lanes[i]] { api->commAbort(comm); });
  for (auto& l : c->lanes) l = nullptr;
  c->extraLanes = 0;
  if (c->nccl != nullptr) {
    c->api->commAbort(c->nccl);
    c->nccl = nullptr;
  }
  for (auto& t : aborts)
    if (t.joinable()) t.join();
  if (c->initComm != nullptr) {
    c->api->commAbort(c->initComm);
    c->initComm = nullptr;
  }
  c->aborted.store(true);
}

int commWaitReady(Comm* c, uint32_t timeoutMs, const char* what) {
  auto start = Clock::now();
  auto deadline = start + std::chrono::milliseconds(effectiveTimeout(timeoutMs));
  for (int spin = 0;; spin++) {
    if (c->aborted.load()) return uzipSetError(UZIP_ERR_NCCL, "%s: communicator was aborted", what);
    ncclResult_t st = ncclSuccess;
    ncclResult_t r = c->api->commGetAsyncError(c->nccl, &st);
    if (r != ncclSuccess) st = r;
    if (st == ncclSuccess) return UZIP_OK;
    if (st != ncclInProgress) {
      int s = ncclStatus(st, c->nccl, what);
      commAbortLocked(c);
      return s;
    }
    if (Clock::now() > deadline) {
      commAbortLocked(c);
      return uzipSetError(UZIP_ERR_TIMEOUT, "%s: no progress after %u ms (a peer is missing or hung); "
                          "communicator aborted", what, effectiveTimeout(timeoutMs));
    }
    // Spin (yielding) through the first milliseconds: a group launch completes in tens of µs, and a
    // sleep would add the timer slack to every step of a pipeline.
    if (Clock::now() - start > std::chrono::milliseconds(5)) std::this_thread::sleep_for(std::chrono::microseconds(200));
    else if (spin > 64) std::this_thread::yield();
  }
}

int commCheck(Comm* c, ncclResult_t r, const char* what) {
  if (r == ncclSuccess) return UZIP_OK;
  if (r == ncclInProgress) return commWaitReady(c, c->timeoutMs, what);
  int s = ncclStatus(r, c->nccl, what);
  commAbortLocked(c);
  return s;
}

bool eagerConnectWanted(int nranks) {
  const char* env = getenv("UZIP_NCCL_EAGER_CONNECT");
  if (env != nullptr && env[0] != 0) return strcmp(env, "0") != 0;
  return nranks > 1 && nranks <= 64;
}

int connectAllPeers(Comm* c, ncclComm_t comm) {
  if (c->size < 2) return UZIP_OK;
  void* scratch = nullptr;
  cudaStream_t st = nullptr;
  cudaEvent_t ev = nullptr;
  cudaError_t e = cudaMalloc(&scratch, 2 * (size_t)c->size);
  if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
  if (e == cudaSuccess) e = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  int s = e == cudaSuccess ? UZIP_OK : cudaFail(e, "connecting to the peers");
  if (s == UZIP_OK) {
    // One byte each way with every peer, in one group: every pair connects both directions.
    uint8_t* b = static_cast<uint8_t*>(scratch);
    ncclResult_t r = c->api->groupStart();
    for (int p = 0; p < c->size && r == ncclSuccess; p++) {
      if (p == c->rank) continue;
      r = c->api->send(b + p, 1, ncclUint8, p, comm, reinterpret_cast<ncclStream_t>(st));
      if (r == ncclSuccess || r == ncclInProgress)
        r = c->api->recv(b + c->size + p, 1, ncclUint8, p, comm, reinterpret_cast<ncclStream_t>(st));
      if (r == ncclInProgress) r = ncclSuccess;
    }
    ncclResult_t r2 = c->api->groupEnd();
    s = commCheck(c, r != ncclSuccess ? r : r2, "connecting to the peers (first send/recv)");
  }
  if (s == UZIP_OK && (e = cudaEventRecord(ev, st)) != cudaSuccess) s = cudaFail(e, "cudaEventRecord");
  if (s == UZIP_OK) {
    // Polled with the communicator's deadline (a peer that dies now gives an error, not a hang).
    auto deadline = Clock::now() + std::chrono::milliseconds(c->timeoutMs);
    for (;;) {
      e = cudaEventQuery(ev);
      if (e == cudaSuccess) break;
      if (e != cudaErrorNotReady) {
        s = cudaFail(e, "connecting to the peers");
        break;
      }
      ncclResult_t as = ncclSuccess;
      c->api->commGetAsyncError(comm, &as);
      if (as != ncclSuccess && as != ncclInProgress) {
        s = ncclStatus(as, comm, "connecting to the peers");
        break;
      }
      if (Clock::now() > deadline) {
        s = uzipSetError(UZIP_ERR_TIMEOUT, "connecting to the peers: no answer within %u ms (a peer is "
                         "missing or hung); communicator aborted", c->timeoutMs);
        break;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
  if (s != UZIP_OK) commAbortLocked(c);  // before freeing what its kernels may still touch
  if (ev) cudaEventDestroy(ev);
  if (st) cudaStreamDestroy(st);
  if (scratch) cudaFree(scratch);
  cudaGetLastError();
  return s;
}

// UZIP_P2P_LANES: "1" no extra communicator; "2" extra ones, used by compressed collectives and
// compressed P2P transfers; unset (or anything else) extra ones, used by compressed collectives only.
// The default measured on 2x H200 with NCCL_P2P_DISABLE=1 (bench/results/h200x2-2026-11-30T2300-session6):
// compressed all-reduce 1.00-1.08x -> 1.12-1.32x of NCCL's, all-gather 1.16-1.31x -> 1.24-1.51x (64 and
// 256 MiB). P2P stays on one communicator unless asked: there the second one would be most of the gain
// (plain NCCL halved over two moves 1.3x the bytes of one), not compression.
enum class Lanes { One, Collectives, All };
Lanes lanesWanted() {
  const char* env = getenv("UZIP_P2P_LANES");
  if (env != nullptr && strcmp(env, "1") == 0) return Lanes::One;
  if (env != nullptr && strcmp(env, "2") == 0) return Lanes::All;
  return Lanes::Collectives;
}

// UZIP_LANES: how many communicators in all when lanes are on (1 .. 1 + kMaxExtraLanes, 1 = no extra
// one; default kDefaultLanes; other values keep the default).
// Four: on 2x H200 with NCCL_P2P_DISABLE=1 (bench/results/h200x2-2026-12-01T0040-session7, 1 and 2),
// against two, the 256 MiB compressed all-reduce went 1.29-1.30 -> 1.38-1.40x of plain NCCL and the
// all-gather 1.48-1.51 -> 1.57-1.62x; three gave 1.35 / 1.58x; 64 MiB gained 1-4%.
constexpr int kDefaultLanes = 4;
int laneCountWanted() {
  const char* env = getenv("UZIP_LANES");
  int n = env != nullptr ? atoi(env) : kDefaultLanes;
  if (n < 1 || n > 1 + Comm::kMaxExtraLanes) n = kDefaultLanes;
  return n;
}

// Polls a non-blocking communicator until its last call has finished, up to the deadline.
int pollReady(Comm* c, ncclComm_t comm, Clock::time_point deadline, const char* what) {
  for (;;) {
    ncclResult_t st = ncclInProgress;
    ncclResult_t r = c->api->commGetAsyncError(comm, &st);
    if (r != ncclSuccess) st = r;
    if (st == ncclSuccess) return UZIP_OK;
    if (st != ncclInProgress) return ncclStatus(st, comm, what);
    if (Clock::now() > deadline)
      return uzipSetError(UZIP_ERR_TIMEOUT, "%s: no progress within %u ms (a peer is missing or hung)", what,
                          c->timeoutMs);
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

// An extra lane: a split of the init communicator (every rank makes it at init, so the collective
// split cannot hang on a rank that never calls it), connected to every peer at once like the first.
int addLane(Comm* c, const ncclConfig_t& cfg) {
  ncclComm_t parent = c->initComm ? c->initComm : c->nccl;
  ncclConfig_t lcfg = cfg;
  lcfg.blocking = c->initComm ? 1 : 0;  // like the operations' communicator
  auto deadline = Clock::now() + std::chrono::milliseconds(c->timeoutMs);
  ncclComm_t lane = nullptr;
  ncclResult_t r = c->api->commSplit(parent, 0, c->rank, &lane, &lcfg);
  if (r != ncclSuccess && r != ncclInProgress) return ncclStatus(r, parent, "ncclCommSplit (extra lane)");
  int s = pollReady(c, parent, deadline, "ncclCommSplit (extra lane)");
  if (s == UZIP_OK && lane == nullptr) s = uzipSetError(UZIP_ERR_NCCL, "ncclCommSplit (extra lane) gave none");
  if (s == UZIP_OK) s = pollReady(c, lane, deadline, "extra lane ready");
  if (s != UZIP_OK) {
    if (lane) c->api->commAbort(lane);
    return s;
  }
  const int i = c->extraLanes++;
  c->lanes[i] = lane;
  cudaError_t e = cudaStreamCreateWithFlags(&c->laneStreams[i], cudaStreamNonBlocking);
  if (e != cudaSuccess) return cudaFail(e, "creating an extra lane's stream");
  return eagerConnectWanted(c->size) ? connectAllPeers(c, lane) : UZIP_OK;
}

void destroyLaneStreams(Comm* c) {
  for (auto& st : c->laneStreams) {
    if (st) cudaStreamDestroy(st);
    st = nullptr;
  }
}

}  // namespace uzip

using uzip::Comm;

extern "C" {

UZIP_API int uzipNcclVersion(int32_t* out) {
  if (out == nullptr) return uzipSetError(UZIP_ERR_INVALID_ARG, "out is null");
  const uzip::NcclApi* api;
  int s = uzip::ncclLoad(&api);
  if (s != UZIP_OK) return s;
  *out = api->version;
  uzipClearError();
  return UZIP_OK;
}

UZIP_API int uzipCommUniqueId(uint8_t* out128) {
  if (out128 == nullptr) return uzipSetError(UZIP_ERR_INVALID_ARG, "out is null");
  const uzip::NcclApi* api;
  int s = uzip::ncclLoad(&api);
  if (s != UZIP_OK) return s;
  ncclUniqueId id;
  ncclResult_t r = api->getUniqueId(&id);
  if (r != ncclSuccess) return uzip::ncclStatus(r, nullptr, "ncclGetUniqueId");
  memcpy(out128, id.internal, 128);
  uzipClearError();
  return UZIP_OK;
}

static int commInitImpl(const uint8_t* id128, int32_t nranks, int32_t rank, int32_t device, uint32_t timeoutMs,
                        uint64_t* outComm) {
  if (id128 == nullptr || outComm == nullptr) return uzipSetError(UZIP_ERR_INVALID_ARG, "null argument");
  if (nranks < 1 || rank < 0 || rank >= nranks)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "rank %d is not in [0, %d)", rank, nranks);
  const uzip::NcclApi* api;
  int s = uzip::ncclLoad(&api);
  if (s != UZIP_OK) return s;
  int ndev = 0;
  cudaError_t e = cudaGetDeviceCount(&ndev);
  if (e != cudaSuccess || ndev == 0) {
    cudaGetLastError();
    return uzipSetError(UZIP_ERR_NO_DEVICE, "no CUDA device for a communicator (%s)",
                        e == cudaSuccess ? "0 devices" : cudaGetErrorString(e));
  }
  if (device < 0 || device >= ndev)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "device %d is not in [0, %d)", device, ndev);
  if ((e = cudaSetDevice(device)) != cudaSuccess) return uzip::cudaFail(e, "cudaSetDevice");

  Comm* c = new (std::nothrow) Comm();
  if (c == nullptr) return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "communicator");
  c->api = api;
  c->rank = rank;
  c->size = nranks;
  c->device = device;
  c->timeoutMs = uzip::effectiveTimeout(timeoutMs);
  ncclUniqueId id;
  memcpy(id.internal, id128, 128);
  ncclConfig_t cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.size = sizeof cfg;
  cfg.magic = 0xcafebeef;
  cfg.version = UZIP_NCCL_MIN_VERSION;
  cfg.blocking = 0;  // non-blocking: init and every call can be polled, timed out and aborted
  cfg.cgaClusterSize = cfg.minCTAs = cfg.maxCTAs = UZIP_NCCL_CONFIG_UNDEF_INT;
  cfg.netName = nullptr;
  cfg.splitShare = UZIP_NCCL_CONFIG_UNDEF_INT;
  ncclResult_t r = api->commInitRankConfig(&c->nccl, nranks, id, rank, &cfg);
  if (r != ncclSuccess && r != ncclInProgress) {
    s = uzip::ncclStatus(r, c->nccl, "ncclCommInitRankConfig");
    if (c->nccl) api->commAbort(c->nccl);
    delete c;
    return s;
  }
  if (c->nccl == nullptr) {
    delete c;
    return uzipSetError(UZIP_ERR_NCCL, "ncclCommInitRankConfig returned no communicator");
  }
  {
    std::lock_guard<std::recursive_mutex> g(c->mu);
    s = uzip::commWaitReady(c, c->timeoutMs, "communicator init (rendezvous with the other ranks)");
  }
  if (s != UZIP_OK) {
    delete c;  // aborted by commWaitReady
    return s;
  }
  // Operations go through a blocking split of the init communicator: a non-blocking communicator
  // launches every group from a helper thread, which costs ~0.1 ms per pipeline step. The init one
  // (kept for abort) gave the timed rendezvous. UZIP_NCCL_NONBLOCKING=1 keeps it for everything.
  const char* nb = getenv("UZIP_NCCL_NONBLOCKING");
  if (nb == nullptr || strcmp(nb, "1") != 0) {
    ncclConfig_t bcfg = cfg;
    bcfg.blocking = 1;
    ncclComm_t child = nullptr;
    std::lock_guard<std::recursive_mutex> g(c->mu);
    ncclResult_t rs = api->commSplit(c->nccl, 0, rank, &child, &bcfg);
    if (rs == ncclSuccess || rs == ncclInProgress) {
      s = uzip::commWaitReady(c, c->timeoutMs, "ncclCommSplit (blocking communicator)");
      if (s != UZIP_OK) {
        if (child) api->commAbort(child);
        delete c;
        return s;
      }
      if (child != nullptr) {
        // A child that does not get ready in time is dropped: operations stay on the init communicator.
        auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(c->timeoutMs);
        if (uzip::pollReady(c, child, until, "ncclCommSplit (blocking communicator)") == UZIP_OK) {
          c->initComm = c->nccl;
          c->nccl = child;
        } else {
          api->commAbort(child);
        }
      }
    }
  }
  // Connect to every peer now, while all ranks are known to be alive (they just finished the split).
  // NCCL connects point-to-point channels lazily, inside the first ncclGroupEnd that talks to a peer,
  // and on a blocking communicator that exchange cannot be polled: a peer that dies before the first
  // transfer would then hang it in the host. After this, every later call only enqueues kernels, and
  // each wait on them is a polled, deadline-bounded wait that aborts the communicator.
  // UZIP_NCCL_EAGER_CONNECT=0 skips it (default: on up to 64 ranks; each peer costs NCCL buffers).
  if (uzip::eagerConnectWanted(nranks)) {
    std::lock_guard<std::recursive_mutex> g(c->mu);
    s = uzip::connectAllPeers(c, c->nccl);
    if (s != UZIP_OK) {
      uzip::commAbortLocked(c);
      delete c;
      return s;
    }
  }
  const uzip::Lanes lanes = uzip::lanesWanted();
  if (lanes != uzip::Lanes::One && nranks > 1) {
    std::lock_guard<std::recursive_mutex> g(c->mu);
    c->laneForP2p = lanes == uzip::Lanes::All;
    for (int i = 1; i < uzip::laneCountWanted() && s == UZIP_OK; i++) s = uzip::addLane(c, cfg);
    if (s != UZIP_OK) {
      uzip::commAbortLocked(c);
      uzip::destroyLaneStreams(c);
      delete c;
      return s;
    }
  }
  if ((e = cudaStreamCreateWithFlags(&c->codecSendStream, cudaStreamNonBlocking)) != cudaSuccess ||
      (e = cudaStreamCreateWithFlags(&c->codecRecvStream, cudaStreamNonBlocking)) != cudaSuccess) {
    s = uzip::cudaFail(e, "creating the communicator's streams");
    uzip::commAbortLocked(c);
    delete c;
    return s;
  }
  c->transport = new uzip::NcclTransport(c);
  {
    std::lock_guard<std::mutex> g(uzip::g_registryMu);
    uzip::g_registry.insert(c);
  }
  *outComm = reinterpret_cast<uintptr_t>(c);
  uzipClearError();
  return UZIP_OK;
}

UZIP_API int uzipCommInit(const uint8_t* id128, int32_t nranks, int32_t rank, int32_t device,
                          uint32_t timeoutMs, uint64_t* outComm) {
  return uzip::commKeepError(nullptr, commInitImpl(id128, nranks, rank, device, timeoutMs, outComm));
}

UZIP_API int uzipCommLastError(uint64_t comm, char* out, uint32_t cap) {
  if (out == nullptr || cap == 0) return uzipSetError(UZIP_ERR_INVALID_ARG, "out is null or empty");
  if (comm == 0) {
    std::lock_guard<std::mutex> g(uzip::g_registryMu);
    snprintf(out, cap, "%s", uzip::g_initError);
    return UZIP_OK;
  }
  Comm* c = uzip::commFromHandle(comm, true);
  if (c == nullptr) return UZIP_ERR_INVALID_ARG;
  std::lock_guard<std::recursive_mutex> g(c->mu);
  snprintf(out, cap, "%s", c->lastError);
  return UZIP_OK;
}

UZIP_API int uzipCommAbort(uint64_t comm) {
  Comm* c = uzip::commFromHandle(comm, true);
  if (c == nullptr) return UZIP_ERR_INVALID_ARG;
  c->aborted.store(true);  // a transfer in progress on another thread sees this and returns
  std::lock_guard<std::recursive_mutex> g(c->mu);
  uzip::commAbortLocked(c);
  uzipClearError();
  return UZIP_OK;
}

UZIP_API int uzipCommDestroy(uint64_t comm) {
  Comm* c = uzip::commFromHandle(comm, true);
  if (c == nullptr) return UZIP_ERR_INVALID_ARG;
  {
    std::lock_guard<std::mutex> g(uzip::g_registryMu);
    uzip::g_registry.erase(c);
  }
  int s = UZIP_OK;
  {
    std::lock_guard<std::recursive_mutex> g(c->mu);
    cudaSetDevice(c->device);
    if (c->nccl != nullptr && !c->aborted.load()) {
      ncclResult_t r = c->api->commFinalize(c->nccl);
      s = uzip::commCheck(c, r, "ncclCommFinalize");
      if (s == UZIP_OK) s = uzip::commWaitReady(c, c->timeoutMs, "ncclCommFinalize");
      if (s == UZIP_OK && c->nccl != nullptr) {
        r = c->api->commDestroy(c->nccl);
        c->nccl = nullptr;
        if (r != ncclSuccess && r != ncclInProgress) s = uzip::ncclStatus(r, nullptr, "ncclCommDestroy");
      }
      if (s == UZIP_OK && c->initComm != nullptr) {
        r = c->api->commFinalize(c->initComm);
        if (r == ncclSuccess || r == ncclInProgress) {
          ncclResult_t st = ncclInProgress;
          auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(c->timeoutMs);
          while (c->api->commGetAsyncError(c->initComm, &st) == ncclSuccess && st == ncclInProgress &&
                 std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::microseconds(100));
          if (st == ncclSuccess) {
            c->api->commDestroy(c->initComm);
            c->initComm = nullptr;
          }
        }
      }
    }
    uzip::commAbortLocked(c);  // no-op when destroyed above (the extra lanes are aborted here)
    uzip::p2pEngineDestroy(c);
    uzip::destroyLaneStreams(c);
    if (c->codecSendStream) cudaStreamDestroy(c->codecSendStream);
    if (c->codecRecvStream) cudaStreamDestroy(c->codecRecvStream);
    delete c->transport;
  }
  delete c;
  if (s == UZIP_OK) uzipClearError();
  return s;
}

UZIP_API int uzipCommInfo(uint64_t comm, int32_t* out4) {
  if (out4 == nullptr) return uzipSetError(UZIP_ERR_INVALID_ARG, "out is null");
  Comm* c = uzip::commFromHandle(comm, true);
  if (c == nullptr) return UZIP_ERR_INVALID_ARG;
  out4[0] = c->rank;
  out4[1] = c->size;
  out4[2] = c->device;
  out4[3] = c->aborted.load() ? 1 : 0;
  uzipClearError();
  return UZIP_OK;
}

}  // extern "C"

uzip::Transport* uzipCommTransportOf(uint64_t comm) {
  Comm* c = uzip::commFromHandle(comm, true);
  return c ? c->transport : nullptr;
}
int uzipCommDeviceOf(uint64_t comm) {
  Comm* c = uzip::commFromHandle(comm, true);
  return c ? c->device : -1;
}
cudaStream_t uzipCommStreamOf(uint64_t comm, int which) {
  Comm* c = uzip::commFromHandle(comm, true);
  if (c == nullptr) return nullptr;
  return which == 0 ? c->codecSendStream : c->codecRecvStream;
}
