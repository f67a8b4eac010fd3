// Collective schedules: see coll_schedules.h and docs/COLLECTIVES.md (which states the reduction order
// that the code below implements).
#include "coll_schedules.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "coll_reduce.h"
#include "status.h"
#include "uzip.h"
#include "uzip_format.h"

namespace uzip {
namespace {

// Scratch slots of the backend.
// (5 and 6 held the compressed all-to-all's streams before it became a ScheduleExchange's exchangeMany.)
enum Slot { kEncOut = 0, kEncIn = 1, kTmp = 2, kAcc = 3, kSizes = 4, kXOut = 7, kXIn = 8, kAvgIn = 9, kXSizes = 10 };

// Default pipeline chunks (elements). On a device, the ring collectives take large slices (64 Mi
// elements: a 256 MiB bf16 all-reduce on 2 ranks is one slice) because the P2P engine chunks and
// pipelines each exchange itself, and every slice pays a fill and a drain; so do all-to-all and the
// 2-rank chains through the executor (runCollective). The longer chains (broadcast, reduce) pipeline
// their hops by schedule chunks, so theirs stay small. The
// chunk decides the fold order of an all-reduce on n > 2 ranks, so every mode of one collective uses
// the same one (compressed == plain schedule bit for bit).
constexpr uint64_t kDefaultChunkHost = 1u << 15;
constexpr uint64_t kDefaultChunkDevice = 1u << 22;
constexpr uint64_t kDefaultChunkDeviceRing = 1u << 26;

struct Ctx {
  Transport& t;
  CollBackend& b;
  const CollArgs& a;
  int n, r;
  uint32_t w;
  uint64_t chunk;
  uint64_t* sizes;  // backend space: at least 2 * n u64 words
  CompressedExchange* x;  // pipelined executor's exchange (null: the compressed or plain schedule)
  const void* scaled = nullptr;  // avg: a copy of a.send pre-multiplied by 1/n (what a fold starts with)
  bool direct = false;           // the direct algorithms (collDirectWanted) instead of the ring
  int mod(int x) const { return ((x % n) + n) % n; }
  // What a rank sends when it starts a fold with its own elements at p (inside a.send).
  const void* first(const void* p) const {
    return scaled ? (const unsigned char*)scaled + ((const unsigned char*)p - (const unsigned char*)a.send) : p;
  }
  unsigned char* at(const void* base, uint64_t elem) const {
    return (unsigned char*)base + elem * w;
  }
};

#define TRY(x)                    \
  do {                            \
    if (int st_ = (x)) return st_; \
  } while (0)

// One step of a compressed exchange: optionally send a stream (its size word first) to `to`, optionally
// receive one from `from` into recvBuf (capacity cap), whose size lands in *recvBytes on the host.
int exchangeCompressed(Ctx& c, const void* sendBuf, uint64_t sendBytes, const uint64_t* sizeOut, int to,
                       void* recvBuf, uint64_t cap, uint64_t* sizeIn, int from, uint64_t* recvBytes) {
  TRY(c.t.groupStart());
  if (to >= 0) TRY(c.t.send(sizeOut, 8, to, c.a.stream));
  if (from >= 0) TRY(c.t.recv(sizeIn, 8, from, c.a.stream));
  TRY(c.t.groupEnd());
  if (from >= 0) {
    TRY(c.b.toHost(recvBytes, sizeIn, 8));
    if (*recvBytes < UZIP_HEADER_BYTES || *recvBytes > cap)
      return uzipSetError(UZIP_ERR_CORRUPT, "rank %d: peer %d announced a %llu-byte chunk (capacity %llu)", c.r,
                          from, (unsigned long long)*recvBytes, (unsigned long long)cap);
  }
  TRY(c.t.groupStart());
  if (to >= 0) TRY(c.t.send(sendBuf, sendBytes, to, c.a.stream));
  if (from >= 0) TRY(c.t.recv(recvBuf, *recvBytes, from, c.a.stream));
  return c.t.groupEnd();
}

int plainExchange(Ctx& c, const void* sendBuf, uint64_t sendBytes, int to, void* recvBuf, uint64_t recvBytes,
                  int from) {
  if (c.x) {
    // The pipelined executor: the same exchange, compressed on the wire (byte counts are whole elements).
    return c.x->exchange(sendBuf, sendBytes / c.w, sendBytes ? to : -1, recvBuf, recvBytes / c.w,
                         recvBytes ? from : -1, c.a.dtype);
  }
  TRY(c.t.groupStart());
  if (to >= 0 && sendBytes) TRY(c.t.send(sendBuf, sendBytes, to, c.a.stream));
  if (from >= 0 && recvBytes) TRY(c.t.recv(recvBuf, recvBytes, from, c.a.stream));
  return c.t.groupEnd();
}

// The direct algorithms' exchange with every peer: through the pipelined executor's exchange, or (plain)
// raw in one transport group.
int manyExchange(Ctx& c, const std::vector<ExchangeOp>& ops) {
  if (c.x) return c.x->exchangeMany(ops.data(), (uint32_t)ops.size(), c.a.dtype);
  TRY(c.t.groupStart());
  for (const ExchangeOp& o : ops) {
    if (!o.count) continue;
    if (o.send) TRY(c.t.send(o.send, o.count * c.w, o.peer, c.a.stream));
    else TRY(c.t.recv(o.recv, o.count * c.w, o.peer, c.a.stream));
  }
  return c.t.groupEnd();
}

// Whether the pipelined exchange may reduce received elements on arrival (ExchangeFuse: one decode-and-
// reduce kernel per chunk on GPUs) instead of landing them and reducing after. It needs the reduced
// output apart from the own operand, and a two-byte dtype. Off unless UZIP_COLL_FUSE=1: on one H200 it
// ran 0.82-0.99x of decode then the backend's reduce for bf16 and fp16 (4-256 MiB), 0.66-0.93x for fp32
// (bench/results/h200-2026-12-01T0645-session9/7-fp16-hw; its session-8 gain was over a reduce kernel
// since made 2-4x faster). The kernel is checked bit for bit on one GPU (gpu_check --reduce) and the
// schedules in the simulation; the engine's use of it has not run on two GPUs.
bool fuseWanted(const void* out, const void* other, uint64_t bytes, int dtype) {
  if (!collFuseEnabled(dtype)) return false;
  const uintptr_t o = (uintptr_t)out, l = (uintptr_t)other;
  return o + bytes <= l || l + bytes <= o;
}

// Ring reduce-scatter over n segments. Segment k ends on rank k, folded in the order
// rank k+1, k+2, ..., k-1, k: rank k+1 sends its own input, every later rank combines what it receives
// with its own input and passes it on, rank k combines last into finalOut.
template <class Local, class Len, class Partial>
int ringReduceScatter(Ctx& c, Local localOf, Len lenOf, Partial partialOf, void* finalOut) {
  const int n = c.n, r = c.r, next = c.mod(r + 1), prev = c.mod(r - 1);
  uint64_t maxLen = 0;
  for (int k = 0; k < n; k++) maxLen = std::max<uint64_t>(maxLen, lenOf(k));
  void *encOut = nullptr, *encIn = nullptr, *tmp = nullptr;
  uint64_t cap = 0, encBytes = 0, inBytes = 0;
  // Compressed schedule: decode-reduce-encode per hop. Otherwise (plain, or the pipelined executor
  // whose exchanges compress): receive into tmp, then reduce.
  const bool perHopCodec = c.a.compress && !c.x;
  if (perHopCodec) {
    cap = c.b.maxCompressed(maxLen, c.a.dtype);
    TRY(c.b.scratch(kEncOut, cap, &encOut));
    TRY(c.b.scratch(kEncIn, cap, &encIn));
  } else {
    TRY(c.b.scratch(kTmp, maxLen * c.w, &tmp));
  }
  for (int s = 0; s < n - 1; s++) {
    const int sSeg = c.mod(r - 1 - s), rSeg = c.mod(r - 2 - s);
    const bool last = s == n - 2;
    const uint64_t sLen = lenOf(sSeg), rLen = lenOf(rSeg);
    void* out = last ? finalOut : partialOf(rSeg);
    if (perHopCodec) {
      if (s == 0 && sLen) TRY(c.b.compress(c.first(localOf(sSeg)), sLen, c.a.dtype, encOut, cap, &encBytes, c.sizes));
      TRY(exchangeCompressed(c, encOut, encBytes, c.sizes, sLen ? next : -1, encIn, cap, c.sizes + 1,
                             rLen ? prev : -1, &inBytes));
      if (!rLen) continue;
      if (last)
        TRY(c.b.decodeReduce(out, localOf(rSeg), encIn, inBytes, rLen, c.a.dtype, c.a.op));
      else
        TRY(c.b.decodeReduceEncode(out, localOf(rSeg), encIn, inBytes, rLen, c.a.dtype, c.a.op, encOut, cap,
                                   &encBytes, c.sizes));
    } else {
      const void* src = s == 0 ? c.first(localOf(sSeg)) : partialOf(sSeg);
      if (c.x && rLen && fuseWanted(out, localOf(rSeg), rLen * c.w, c.a.dtype)) {
        // The received partial is reduced into `out` on arrival: the reduce's operands as below.
        const ExchangeFuse fuse{localOf(rSeg), c.a.op};
        TRY(c.x->exchange(src, sLen, sLen ? next : -1, out, rLen, prev, c.a.dtype, nullptr, &fuse));
        continue;
      }
      TRY(plainExchange(c, src, sLen * c.w, next, tmp, rLen * c.w, prev));
      if (rLen) TRY(c.b.reduce(out, tmp, localOf(rSeg), rLen, c.a.dtype, c.a.op));
    }
  }
  return UZIP_OK;
}

// Ring all-gather over n segments: segment k starts at rank k (compressed once there) and travels
// k+1, k+2, ...; each rank decodes it into its output and forwards the received bytes unchanged.
template <class Seg, class Len>
int ringAllGather(Ctx& c, Seg segOf, Len lenOf, const void* own) {
  const int n = c.n, r = c.r, next = c.mod(r + 1), prev = c.mod(r - 1);
  // The pipelined executor on 2 ranks: the ring is one exchange (each segment compressed once, by the
  // exchange, and decoded once), and the own segment's copy runs beside it instead of before it (a
  // 32 MiB copy is ~16 us of the pipeline's fill on an H200; UZIP_COLL_COPY_ASIDE=0: before it).
  if (c.x && n == 2) {
    const char* e = getenv("UZIP_COLL_COPY_ASIDE");
    if (e != nullptr && strcmp(e, "0") == 0) TRY(c.b.copy(segOf(r), own, lenOf(r) * c.w));
    else TRY(c.b.copyAside(segOf(r), own, lenOf(r) * c.w));
    const int peer = 1 - r;
    TRY(plainExchange(c, own, lenOf(r) * c.w, peer, segOf(peer), lenOf(peer) * c.w, peer));
    return c.b.joinAside();
  }
  if (own != segOf(r)) TRY(c.b.copy(segOf(r), own, lenOf(r) * c.w));
  // Plain: the ring of exchanges. Compressed on more ranks: the ring below, which forwards the received
  // bytes instead of re-encoding what it decoded.
  if (!c.a.compress) {
    for (int s = 0; s < n - 1; s++) {
      const int sSeg = c.mod(r - s), rSeg = c.mod(r - s - 1);
      const void* src = s == 0 ? own : segOf(sSeg);  // same bytes; no wait on the copy above
      TRY(plainExchange(c, src, lenOf(sSeg) * c.w, next, segOf(rSeg), lenOf(rSeg) * c.w, prev));
    }
    return UZIP_OK;
  }
  uint64_t maxLen = 0;
  for (int k = 0; k < n; k++) maxLen = std::max<uint64_t>(maxLen, lenOf(k));
  const uint64_t cap = c.b.maxCompressed(maxLen, c.a.dtype);
  void *encOut = nullptr, *encIn = nullptr;
  TRY(c.b.scratch(kEncOut, cap, &encOut));
  TRY(c.b.scratch(kEncIn, cap, &encIn));
  uint64_t *sizeOut = c.sizes, *sizeIn = c.sizes + 1, encBytes = 0, inBytes = 0;
  if (lenOf(r)) TRY(c.b.compress(own, lenOf(r), c.a.dtype, encOut, cap, &encBytes, sizeOut));
  for (int s = 0; s < n - 1; s++) {
    const int sSeg = c.mod(r - s), rSeg = c.mod(r - s - 1);
    const uint64_t rLen = lenOf(rSeg);
    TRY(exchangeCompressed(c, encOut, encBytes, sizeOut, lenOf(sSeg) ? next : -1, encIn, cap, sizeIn,
                           rLen ? prev : -1, &inBytes));
    if (rLen) TRY(c.b.decompress(encIn, inBytes, segOf(rSeg), rLen, c.a.dtype));
    // Forward what was received, as received: swap the roles of the two buffers and size words.
    std::swap(encOut, encIn);
    std::swap(sizeOut, sizeIn);
    encBytes = inBytes;
  }
  return UZIP_OK;
}

// Direct reduce-scatter over n segments (collDirectWanted): every rank sends segment k of its input straight
// to rank k, all in one exchange, and rank k folds what it received and its own segment in the ring's order
// (ringReduceScatter): first(x_{k+1}) (pre-multiplied for avg by its sender, as the ring's first hop sends
// it), then x_{k+2}, ..., x_{k-1}, then x_k, each with the same reduce call and operand roles as the ring's
// hop, so the bits are the ring's. The n - 1 received segments wait in scratch: (n - 1) x the segment.
template <class Local, class Len>
int directReduceScatter(Ctx& c, Local localOf, Len lenOf, void* finalOut) {
  const int n = c.n, r = c.r;
  const uint64_t len = lenOf(r);
  void* got = nullptr;  // slot i - 1: the segment from rank r + i
  if (len) TRY(c.b.scratch(kTmp, (uint64_t)(n - 1) * len * c.w, &got));
  std::vector<ExchangeOp> ops;
  for (int i = 1; i < n; i++) {
    const int to = c.mod(r - i), from = c.mod(r + i);
    // This rank starts the fold of segment r - 1 (i == 1), as the ring's first hop does.
    const void* src = i == 1 ? c.first(localOf(to)) : localOf(to);
    ops.push_back(ExchangeOp{src, nullptr, lenOf(to), to});
    ops.push_back(ExchangeOp{nullptr, c.at(got, (uint64_t)(i - 1) * len), len, from});
  }
  TRY(manyExchange(c, ops));
  if (!len) return UZIP_OK;
  for (int i = 2; i < n; i++) TRY(c.b.reduce(got, got, c.at(got, (uint64_t)(i - 1) * len), len, c.a.dtype, c.a.op));
  return c.b.reduce(finalOut, got, localOf(r), len, c.a.dtype, c.a.op);
}

// Direct all-gather over n segments (collDirectWanted): every rank sends its segment to every other rank in
// one exchange. Through the executor each send is coded on its own (n - 1 codings of the segment, where
// the ring codes it once and forwards the bytes), but nothing waits on a hop before it.
template <class Seg, class Len>
int directAllGather(Ctx& c, Seg segOf, Len lenOf, const void* own) {
  const int n = c.n, r = c.r;
  if (own != segOf(r)) TRY(c.b.copy(segOf(r), own, lenOf(r) * c.w));
  std::vector<ExchangeOp> ops;
  for (int i = 1; i < n; i++) {
    const int to = c.mod(r + i), from = c.mod(r - i);
    ops.push_back(ExchangeOp{own, nullptr, lenOf(r), to});  // `own`: no wait on the copy above
    ops.push_back(ExchangeOp{nullptr, segOf(from), lenOf(from), from});
  }
  return manyExchange(c, ops);
}

// All-reduce on 2 ranks through the pipelined executor, "direct": the ranks exchange their whole buffers
// in one compressed exchange and each computes every element itself, with the operands of the ring
// schedule below, so the bits are the ring's. Ring, segment k of a slice ends on rank k as
// reduce(first(x_other)[k], x_k[k]) (first: the avg-premultiplied copy); here rank r computes its own
// segment as reduce(first(x_peer), x_r) (the premultiplication redone on the received x_peer by the same
// function) and the peer's as reduce(first(x_r), x_peer). The wire carries the same bytes as the ring's
// two exchanges (each rank's whole buffer, once, compressed), but in one pipeline: one fill and one drain
// instead of two each, and no reduce between them. UZIP_COLL_ALLREDUCE2=ring keeps the ring.
int allReduceDirect2(Ctx& c) {
  const uint64_t count = c.a.count, slice = c.chunk * 2;
  const int r = c.r, peer = 1 - c.r;
  if (!count) return UZIP_OK;
  void* in = c.a.recv;  // the peer's buffer lands in the output, which is then reduced in place
  if (c.a.recv == c.a.send) TRY(c.b.scratch(kTmp, count * c.w, &in));
  // Reduces elements [lo, hi): the parts of each slice's two segments inside it.
  auto reduceRange = [&](uint64_t lo, uint64_t hi) -> int {
    for (uint64_t off = lo / slice * slice; off < hi; off += slice) {
      const uint64_t len = std::min(slice, count - off), base = len / 2, rem = len % 2;
      for (int k : {r, peer}) {
        const uint64_t s0 = off + k * base + std::min<uint64_t>(k, rem), s1 = s0 + base + ((uint64_t)k < rem);
        const uint64_t a = std::max(s0, lo), b = std::min(s1, hi);
        if (a >= b) continue;
        void* got = c.at(in, a);
        if (k == r) {
          if (c.scaled) TRY(c.b.premulAvg(got, got, b - a, c.a.dtype, 2));
          TRY(c.b.reduce(c.at(c.a.recv, a), got, c.at(c.a.send, a), b - a, c.a.dtype, c.a.op));
        } else {
          TRY(c.b.reduce(c.at(c.a.recv, a), c.first(c.at(c.a.send, a)), got, b - a, c.a.dtype, c.a.op));
        }
      }
    }
    return UZIP_OK;
  };
  // Each received chunk is reduced as soon as it is decoded (on the stream where it lands), so that only
  // the last chunk's reduce follows the transfer; UZIP_COLL_REDUCE_PER_CHUNK=0: the whole buffer after it.
  // sum, prod, max, min (not avg, whose fold is not symmetric and premultiplies the received operand):
  // every element is reduce(x_peer, x_r) in one operand order, which is the other order's bits (coll_reduce.h:
  // these ops are commutative bit for bit), so the exchange reduces on arrival, one kernel per chunk.
  if (!c.scaled && c.a.op >= UZIP_OP_SUM && c.a.op <= UZIP_OP_MIN &&
      fuseWanted(c.a.recv, c.a.send, count * c.w, c.a.dtype)) {
    const ExchangeFuse fuse{c.a.send, c.a.op};
    return c.x->exchange(c.a.send, count, peer, c.a.recv, count, peer, c.a.dtype, nullptr, &fuse);
  }
  const char* e = getenv("UZIP_COLL_REDUCE_PER_CHUNK");
  if (e != nullptr && strcmp(e, "0") == 0) {
    TRY(c.x->exchange(c.a.send, count, peer, in, count, peer, c.a.dtype));
    return reduceRange(0, count);
  }
  const ExchangeChunkHook hook = [&](uint64_t first, uint64_t n, uint64_t stream) {
    return c.b.onStream(stream, [&] { return reduceRange(first, first + n); });
  };
  return c.x->exchange(c.a.send, count, peer, in, count, peer, c.a.dtype, &hook);
}

int allReduce(Ctx& c) {
  const uint64_t count = c.a.count, slice = c.chunk * (uint64_t)c.n;
  if (c.n == 1) return c.b.copy(c.a.recv, c.a.send, count * c.w);
  if (c.n == 2 && c.x && allReduceDirectWanted()) return allReduceDirect2(c);
  for (uint64_t off = 0; off < count; off += slice) {
    const uint64_t len = std::min(slice, count - off), base = len / c.n, rem = len % c.n;
    auto startOf = [&](int k) { return off + k * base + std::min<uint64_t>(k, rem); };
    auto lenOf = [&](int k) { return base + ((uint64_t)k < rem ? 1 : 0); };
    auto localOf = [&](int k) -> const void* { return c.at(c.a.send, startOf(k)); };
    auto segOf = [&](int k) -> void* { return c.at(c.a.recv, startOf(k)); };
    if (c.direct) {  // two-shot
      TRY(directReduceScatter(c, localOf, lenOf, segOf(c.r)));
      TRY(directAllGather(c, segOf, lenOf, segOf(c.r)));
      continue;
    }
    TRY(ringReduceScatter(c, localOf, lenOf, segOf, segOf(c.r)));
    TRY(ringAllGather(c, segOf, lenOf, segOf(c.r)));
  }
  return UZIP_OK;
}

int reduceScatter(Ctx& c) {
  const uint64_t count = c.a.count;
  if (c.n == 1) return c.b.copy(c.a.recv, c.a.send, count * c.w);
  void* acc = nullptr;
  if (count) TRY(c.b.scratch(kAcc, std::min(c.chunk, count) * c.w, &acc));
  for (uint64_t off = 0; off < count; off += c.chunk) {
    const uint64_t len = std::min(c.chunk, count - off);
    auto lenOf = [&](int) { return len; };
    auto localOf = [&](int k) -> const void* { return c.at(c.a.send, (uint64_t)k * count + off); };
    auto partialOf = [&](int) -> void* { return acc; };
    void* out = c.at(c.a.recv, off);
    if (c.direct) TRY(directReduceScatter(c, localOf, lenOf, out));
    else TRY(ringReduceScatter(c, localOf, lenOf, partialOf, out));
  }
  return UZIP_OK;
}

int allGather(Ctx& c) {
  const uint64_t count = c.a.count;
  for (uint64_t off = 0; off < count; off += c.chunk) {
    const uint64_t len = std::min(c.chunk, count - off);
    auto lenOf = [&](int) { return len; };
    auto segOf = [&](int k) -> void* { return c.at(c.a.recv, (uint64_t)k * count + off); };
    if (c.direct) TRY(directAllGather(c, segOf, lenOf, c.at(c.a.send, off)));
    else TRY(ringAllGather(c, segOf, lenOf, c.at(c.a.send, off)));
  }
  return UZIP_OK;
}

// All-to-all: every pair exchanges directly, all peers in one exchange per chunk (plainly, through the
// pipelined executor's exchangeMany, or, for the compressed schedule, through a ScheduleExchange: every
// block compressed, the size words in one group, the payloads in one group, every block decoded).
int allToAll(Ctx& c) {
  const int n = c.n, r = c.r;
  const uint64_t count = c.a.count;
  std::unique_ptr<CompressedExchange> own;
  if (c.a.compress && !c.x && n > 1 && count) {
    own.reset(newScheduleExchange(c.t, c.b, c.a.stream));
    if (!own) return uzipSetError(UZIP_ERR_OUT_OF_MEMORY, "cannot create the all-to-all exchange");
  }
  CompressedExchange* x = c.x ? c.x : own.get();
  std::vector<ExchangeOp> ops;
  for (uint64_t off = 0; off < count; off += c.chunk) {
    const uint64_t len = std::min(c.chunk, count - off);
    auto sendOf = [&](int p) -> const void* { return c.at(c.a.send, (uint64_t)p * count + off); };
    auto recvOf = [&](int p) -> void* { return c.at(c.a.recv, (uint64_t)p * count + off); };
    if (sendOf(r) != recvOf(r)) TRY(c.b.copy(recvOf(r), sendOf(r), len * c.w));
    ops.clear();
    for (int p = 0; p < n; p++) {
      if (p == r) continue;
      ops.push_back(ExchangeOp{sendOf(p), nullptr, len, p});
      ops.push_back(ExchangeOp{nullptr, recvOf(p), len, p});
    }
    if (x) TRY(x->exchangeMany(ops.data(), (uint32_t)ops.size(), c.a.dtype));
    else TRY(manyExchange(c, ops));
  }
  return UZIP_OK;
}

// The chains (broadcast, reduce) chunk by chunk. In the plain schedule and through the pipelined
// executor a rank that receives and forwards does both in one exchange: at its step i it receives chunk
// i from prev and sends chunk i - 1 (received, or reduced, at step i - 1) to next, so both of its links
// are busy at once and the chain is a pipeline of K + n - 2 steps for K chunks. The per-hop compressed
// schedule keeps one exchange per hop and direction (its codec calls sit between them).
struct Chain {
  uint64_t count, chunk, steps;
  uint64_t len(uint64_t j) const { return std::min(chunk, count - j * chunk); }
};

// Broadcast: a chain root, root+1, ..., root-1. Compressed schedule: the root compresses each chunk once;
// every other rank forwards the bytes it received unchanged and decodes them for itself.
int broadcast(Ctx& c) {
  const int n = c.n, p = c.mod(c.r - c.a.root);
  const int next = p < n - 1 ? c.mod(c.r + 1) : -1, prev = p > 0 ? c.mod(c.r - 1) : -1;
  const uint64_t count = c.a.count;
  const Chain ch{count, c.chunk, (count + c.chunk - 1) / c.chunk};
  if (p == 0 && c.a.send != c.a.recv) TRY(c.b.copy(c.a.recv, c.a.send, count * c.w));
  if (n == 1 || !count) return UZIP_OK;
  if (!c.a.compress || c.x) {
    if (p == 0) {
      for (uint64_t j = 0; j < ch.steps; j++)
        TRY(plainExchange(c, c.at(c.a.send, j * c.chunk), ch.len(j) * c.w, next, nullptr, 0, -1));
      return UZIP_OK;
    }
    for (uint64_t i = 0; i <= ch.steps; i++) {
      const bool fwd = next >= 0 && i > 0, get = i < ch.steps;
      if (!fwd && !get) continue;
      TRY(plainExchange(c, fwd ? c.at(c.a.recv, (i - 1) * c.chunk) : nullptr, fwd ? ch.len(i - 1) * c.w : 0,
                        fwd ? next : -1, get ? c.at(c.a.recv, i * c.chunk) : nullptr, get ? ch.len(i) * c.w : 0,
                        get ? prev : -1));
    }
    return UZIP_OK;
  }
  void* enc = nullptr;
  const uint64_t cap = c.b.maxCompressed(ch.len(0), c.a.dtype);
  TRY(c.b.scratch(kEncOut, cap, &enc));
  for (uint64_t j = 0; j < ch.steps; j++) {
    const uint64_t len = ch.len(j);
    uint64_t bytes = 0;
    if (p == 0) {
      TRY(c.b.compress(c.at(c.a.send, j * c.chunk), len, c.a.dtype, enc, cap, &bytes, c.sizes));
      TRY(exchangeCompressed(c, enc, bytes, c.sizes, next, nullptr, 0, nullptr, -1, nullptr));
      continue;
    }
    TRY(exchangeCompressed(c, nullptr, 0, nullptr, -1, enc, cap, c.sizes + 1, prev, &bytes));
    if (next >= 0) TRY(exchangeCompressed(c, enc, bytes, c.sizes + 1, next, nullptr, 0, nullptr, -1, nullptr));
    TRY(c.b.decompress(enc, bytes, c.at(c.a.recv, j * c.chunk), len, c.a.dtype));
  }
  return UZIP_OK;
}

// Reduce: a chain root+1, root+2, ..., root-1, root; each rank folds its own input into the partial it
// receives (reduce(partial, own)) and passes it on; the root folds last, into its output. The first rank
// sends first(own) (avg: its pre-multiplied copy). Plain and executor: partials alternate between two
// accumulators, one on the wire while the next is reduced. Compressed schedule: decode-reduce-encode per hop.
int reduce(Ctx& c) {
  const int n = c.n, q = c.mod(c.r - c.a.root - 1);
  const uint64_t count = c.a.count;
  if (n == 1) return c.b.copy(c.a.recv, c.a.send, count * c.w);
  if (!count) return UZIP_OK;
  const int next = q < n - 1 ? c.mod(c.r + 1) : -1, prev = q > 0 ? c.mod(c.r - 1) : -1;
  const Chain ch{count, c.chunk, (count + c.chunk - 1) / c.chunk};
  const uint64_t maxLen = ch.len(0);
  auto local = [&](uint64_t j) { return (const void*)c.at(c.a.send, j * c.chunk); };
  if (!c.a.compress || c.x) {
    if (prev < 0) {
      for (uint64_t j = 0; j < ch.steps; j++)
        TRY(plainExchange(c, c.first(local(j)), ch.len(j) * c.w, next, nullptr, 0, -1));
      return UZIP_OK;
    }
    void *tmp = nullptr, *acc = nullptr;
    TRY(c.b.scratch(kTmp, maxLen * c.w, &tmp));
    if (next >= 0) TRY(c.b.scratch(kAcc, 2 * maxLen * c.w, &acc));
    auto accOf = [&](uint64_t j) { return (void*)c.at(acc, (j & 1) * maxLen); };
    for (uint64_t i = 0; i <= ch.steps; i++) {
      const bool fwd = next >= 0 && i > 0, get = i < ch.steps;
      if (!fwd && !get) continue;
      TRY(plainExchange(c, fwd ? accOf(i - 1) : nullptr, fwd ? ch.len(i - 1) * c.w : 0, fwd ? next : -1,
                        get ? tmp : nullptr, get ? ch.len(i) * c.w : 0, get ? prev : -1));
      if (get)
        TRY(c.b.reduce(next < 0 ? c.at(c.a.recv, i * c.chunk) : accOf(i), tmp, local(i), ch.len(i), c.a.dtype,
                       c.a.op));
    }
    return UZIP_OK;
  }
  void *encOut = nullptr, *encIn = nullptr, *acc = nullptr;
  const uint64_t cap = c.b.maxCompressed(maxLen, c.a.dtype);
  TRY(c.b.scratch(kEncOut, cap, &encOut));
  TRY(c.b.scratch(kEncIn, cap, &encIn));
  TRY(c.b.scratch(kAcc, maxLen * c.w, &acc));
  for (uint64_t j = 0; j < ch.steps; j++) {
    const uint64_t len = ch.len(j);
    void* out = next < 0 ? c.at(c.a.recv, j * c.chunk) : acc;
    uint64_t encBytes = 0, inBytes = 0;
    if (prev < 0) {
      TRY(c.b.compress(c.first(local(j)), len, c.a.dtype, encOut, cap, &encBytes, c.sizes));
    } else {
      TRY(exchangeCompressed(c, nullptr, 0, nullptr, -1, encIn, cap, c.sizes + 1, prev, &inBytes));
      if (next < 0)
        TRY(c.b.decodeReduce(out, local(j), encIn, inBytes, len, c.a.dtype, c.a.op));
      else
        TRY(c.b.decodeReduceEncode(out, local(j), encIn, inBytes, len, c.a.dtype, c.a.op, encOut, cap, &encBytes,
                                   c.sizes));
    }
    if (next >= 0) TRY(exchangeCompressed(c, encOut, encBytes, c.sizes, next, nullptr, 0, nullptr, -1, nullptr));
  }
  return UZIP_OK;
}

}  // namespace

constexpr int kMaxRanks = 8192;

void collBufferElems(const CollArgs& a, int nranks, int rank, uint64_t* sendElems, uint64_t* recvElems) {
  const uint64_t n = (uint64_t)nranks, c = a.count;
  switch (a.kind) {
    case UZIP_COLL_REDUCESCATTER: *sendElems = c * n; *recvElems = c; break;
    case UZIP_COLL_ALLGATHER: *sendElems = c; *recvElems = c * n; break;
    case UZIP_COLL_ALLTOALL: *sendElems = c * n; *recvElems = c * n; break;
    case UZIP_COLL_BROADCAST: *sendElems = rank == a.root ? c : 0; *recvElems = c; break;
    case UZIP_COLL_REDUCE: *sendElems = c; *recvElems = rank == a.root ? c : 0; break;
    default: *sendElems = c; *recvElems = c; break;
  }
}

int collValidate(const CollArgs& a, int nranks) {
  if (nranks < 1 || nranks > kMaxRanks)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "collective on %d ranks (1..%d supported)", nranks, kMaxRanks);
  if (a.kind < 0 || a.kind >= UZIP_COLL_COUNT)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown collective kind %d", a.kind);
  if (a.dtype < 0 || a.dtype >= UZIP_DTYPE_COUNT)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown dtype %d", a.dtype);
  const bool reduces = a.kind == UZIP_COLL_ALLREDUCE || a.kind == UZIP_COLL_REDUCESCATTER ||
                       a.kind == UZIP_COLL_REDUCE;
  if (reduces) {
    if (!coll_dtype_reducible(a.dtype))
      return uzipSetError(UZIP_ERR_INVALID_ARG, "dtype %d has no reduction (bf16, fp16, fp32, fp8 do)", a.dtype);
    if (a.op < 0 || a.op >= UZIP_OP_COUNT)
      return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown reduction op %d (sum, prod, max, min, avg)", a.op);
  }
  if ((a.kind == UZIP_COLL_BROADCAST || a.kind == UZIP_COLL_REDUCE) && (a.root < 0 || a.root >= nranks))
    return uzipSetError(UZIP_ERR_INVALID_ARG, "root %d outside 0..%d", a.root, nranks - 1);
  if (a.count > ((uint64_t)1 << 40) / (uint64_t)nranks)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "count %llu too large", (unsigned long long)a.count);
  return UZIP_OK;
}

int runCollective(Transport& t, CollBackend& b, const CollArgs& args) {
  const int n = t.size(), r = t.rank();
  TRY(collValidate(args, n));
  uint64_t sendElems = 0, recvElems = 0;
  collBufferElems(args, n, r, &sendElems, &recvElems);
  if ((sendElems && !args.send) || (recvElems && !args.recv))
    return uzipSetError(UZIP_ERR_INVALID_ARG, "rank %d: null buffer for a non-empty collective", r);
  CollArgs a = args;
  const bool reduces = a.kind == UZIP_COLL_ALLREDUCE || a.kind == UZIP_COLL_REDUCESCATTER ||
                       a.kind == UZIP_COLL_REDUCE;
  void* scaled = nullptr;
  if (reduces && a.op == UZIP_OP_AVG && n > 1) {
    // avg = NCCL's premultiplied sum (nccl/coll_reduce.h): a fold starts from this rank's elements
    // times 1/n (a scaled copy, made once); later ranks fold their own unscaled elements in with one
    // rounding (COLL_OP_PREMUL_BASE + n). fp8: the sum of scaled copies.
    const uint64_t w = uzip_dtype_width((uint32_t)a.dtype);
    if (sendElems) TRY(b.scratch(kAvgIn, sendElems * w, &scaled));
    if (sendElems) TRY(b.premulAvg(scaled, a.send, sendElems, a.dtype, n));
    if (a.dtype == UZIP_DTYPE_FP8E4M3 || a.dtype == UZIP_DTYPE_FP8E5M2) {
      a.send = scaled;
      a.op = UZIP_OP_SUM;
      scaled = nullptr;
    } else {
      a.op = COLL_OP_PREMUL_BASE + n;
    }
  }
  const bool ring = a.kind == UZIP_COLL_ALLREDUCE || a.kind == UZIP_COLL_REDUCESCATTER ||
                    a.kind == UZIP_COLL_ALLGATHER;
  CompressedExchange* x = a.compress ? a.exchange : nullptr;
  // Large device slices where each exchange is one pipelined P2P batch: the ring collectives, all-to-all
  // through the executor, and the 2-rank chains through it (one hop: nothing for smaller chunks to overlap).
  // Longer chains keep schedule chunks, which pipeline the hops.
  const bool wholeSlices = ring || (x && (a.kind == UZIP_COLL_ALLTOALL || n == 2));
  uint64_t chunk = a.chunkElems ? a.chunkElems
                                : (!b.onDevice() ? kDefaultChunkHost
                                                 : (wholeSlices ? kDefaultChunkDeviceRing : kDefaultChunkDevice));
  void* sizes = nullptr;
  TRY(b.scratch(kSizes, 16 * (uint64_t)n, &sizes));
  Ctx c{t, b, a, n, r, uzip_dtype_width((uint32_t)a.dtype), chunk, (uint64_t*)sizes, x};
  c.scaled = scaled;
  // The direct algorithms run where the ring runs exchanges: the plain schedule and the executor (the
  // compressed schedule's per-hop coding is the ring's own; its bits are the same anyway).
  c.direct = ring && n >= 3 && (x || !a.compress) && collDirectWanted(n);
  switch (a.kind) {
    case UZIP_COLL_ALLREDUCE: TRY(allReduce(c)); break;
    case UZIP_COLL_REDUCESCATTER: TRY(reduceScatter(c)); break;
    case UZIP_COLL_ALLGATHER: TRY(allGather(c)); break;
    case UZIP_COLL_ALLTOALL: TRY(allToAll(c)); break;
    case UZIP_COLL_BROADCAST: TRY(broadcast(c)); break;
    default: TRY(reduce(c)); break;
  }
  return b.sync();  // device backends check every decode of this collective here
}

namespace {

// Compress, announce the size, send; receive, decode: the exchange as two transport groups and codec
// calls on the backend. Not pipelined; the simulation runs the pipelined executor's data flow with it.
class ScheduleExchange final : public CompressedExchange {
 public:
  ScheduleExchange(Transport& t, CollBackend& b, uint64_t stream) : t_(t), b_(b) { args_.stream = stream; }
  int exchange(const void* send, uint64_t sendCount, int to, void* recv, uint64_t recvCount, int from,
               int dtype, const ExchangeChunkHook* onChunk, const ExchangeFuse* fuse) override {
    if (!sendCount) to = -1;
    if (!recvCount) from = -1;
    if (to < 0 && from < 0) return UZIP_OK;
    args_.dtype = dtype;
    void *out = nullptr, *in = nullptr, *sizes = nullptr;
    const uint64_t cap = b_.maxCompressed(std::max(sendCount, recvCount), dtype);
    TRY(b_.scratch(kXOut, cap, &out));
    TRY(b_.scratch(kXIn, cap, &in));
    TRY(b_.scratch(kSizes, 16 * (uint64_t)t_.size(), &sizes));
    Ctx c{t_, b_, args_, t_.size(), t_.rank(), uzip_dtype_width((uint32_t)dtype), 0, (uint64_t*)sizes, nullptr};
    uint64_t outBytes = 0, inBytes = 0;
    if (to >= 0) TRY(b_.compress(send, sendCount, dtype, out, cap, &outBytes, c.sizes));
    TRY(exchangeCompressed(c, out, outBytes, c.sizes, to, in, cap, c.sizes + 1, from, &inBytes));
    if (from >= 0 && fuse) TRY(b_.decodeReduce(recv, fuse->other, in, inBytes, recvCount, dtype, fuse->op));
    else if (from >= 0) TRY(b_.decompress(in, inBytes, recv, recvCount, dtype));
    // The hook in three uneven pieces (as the GPU engine's chunks would cut it), so that the simulation
    // checks a hook's handling of ranges that do not line up with anything.
    if (from >= 0 && onChunk && *onChunk) {
      const uint64_t a = recvCount / 3, b = recvCount - recvCount / 5;
      for (auto [lo, hi] : {std::pair<uint64_t, uint64_t>{0, a}, {a, b}, {b, recvCount}})
        if (hi > lo) TRY((*onChunk)(lo, hi - lo, args_.stream));
    }
    return UZIP_OK;
  }
  // The same with several peers: every send coded, then one group of size words and one of payloads.
  int exchangeMany(const ExchangeOp* ops, uint32_t nops, int dtype) override {
    uint64_t maxCount = 0, nsend = 0, nrecv = 0;
    for (uint32_t i = 0; i < nops; i++) {
      if (!ops[i].count) continue;
      maxCount = std::max(maxCount, ops[i].count);
      (ops[i].send ? nsend : nrecv)++;
    }
    if (!nsend && !nrecv) return UZIP_OK;
    args_.dtype = dtype;
    const uint64_t cap = (b_.maxCompressed(maxCount, dtype) + 255) & ~255ull;  // each stream 256-aligned
    void *out = nullptr, *in = nullptr, *sizes = nullptr;
    TRY(b_.scratch(kXOut, cap * std::max<uint64_t>(nsend, 1), &out));
    TRY(b_.scratch(kXIn, cap * std::max<uint64_t>(nrecv, 1), &in));
    TRY(b_.scratch(kXSizes, 8ull * nops, &sizes));
    uint64_t* sz = (uint64_t*)sizes;  // op i's size word (backend space)
    std::vector<uint64_t> bytes(nops, 0);
    std::vector<unsigned char*> buf(nops, nullptr);
    uint64_t si = 0, ri = 0;
    for (uint32_t i = 0; i < nops; i++) {
      if (!ops[i].count) continue;
      buf[i] = (unsigned char*)(ops[i].send ? out : in) + cap * (ops[i].send ? si++ : ri++);
      if (ops[i].send) TRY(b_.compress(ops[i].send, ops[i].count, dtype, buf[i], cap, &bytes[i], sz + i));
    }
    TRY(t_.groupStart());
    for (uint32_t i = 0; i < nops; i++) {
      if (!ops[i].count) continue;
      if (ops[i].send) TRY(t_.send(sz + i, 8, ops[i].peer, args_.stream));
      else TRY(t_.recv(sz + i, 8, ops[i].peer, args_.stream));
    }
    TRY(t_.groupEnd());
    for (uint32_t i = 0; i < nops; i++) {
      if (!ops[i].count || ops[i].send) continue;
      TRY(b_.toHost(&bytes[i], sz + i, 8));
      if (bytes[i] < UZIP_HEADER_BYTES || bytes[i] > cap)
        return uzipSetError(UZIP_ERR_CORRUPT, "rank %d: peer %d announced a %llu-byte stream (capacity %llu)",
                            t_.rank(), ops[i].peer, (unsigned long long)bytes[i], (unsigned long long)cap);
    }
    TRY(t_.groupStart());
    for (uint32_t i = 0; i < nops; i++) {
      if (!ops[i].count) continue;
      if (ops[i].send) TRY(t_.send(buf[i], bytes[i], ops[i].peer, args_.stream));
      else TRY(t_.recv(buf[i], bytes[i], ops[i].peer, args_.stream));
    }
    TRY(t_.groupEnd());
    for (uint32_t i = 0; i < nops; i++)
      if (ops[i].count && !ops[i].send) TRY(b_.decompress(buf[i], bytes[i], ops[i].recv, ops[i].count, dtype));
    return UZIP_OK;
  }

 private:
  Transport& t_;
  CollBackend& b_;
  CollArgs args_;
};

}  // namespace

bool collFuseEnabled(int dtype) {
  const char* e = getenv("UZIP_COLL_FUSE");
  return e != nullptr && strcmp(e, "1") == 0 && uzip_dtype_width((uint32_t)dtype) == 2;
}

bool collDirectWanted(int nranks) {
  const char* e = getenv("UZIP_COLL_ALGO");
  return nranks >= 3 && e != nullptr && strcmp(e, "direct") == 0;
}

bool allReduceDirectWanted() {
  const char* e = getenv("UZIP_COLL_ALLREDUCE2");
  return !(e != nullptr && strcmp(e, "ring") == 0);
}

CompressedExchange* newScheduleExchange(Transport& t, CollBackend& b, uint64_t stream) {
  return new (std::nothrow) ScheduleExchange(t, b, stream);
}

}  // namespace uzip
