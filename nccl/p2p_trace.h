// P2pTrace: the P2P engine's timeline diagnostic (UZIP_P2P_TRACE, nccl/p2p.cc).
#pragma once

#include <cuda_runtime_api.h>
#include <stdio.h>

#include <chrono>
#include <vector>

namespace uzip {

// UZIP_P2P_TRACE=1: a timeline of each compressed batch on stderr (compress, NCCL step and decode spans
// in ms from the batch start, from timing events on each stream; the batch is synchronized to print it).
// UZIP_P2P_TRACE=2: the same without the synchronization (printed when the next batch starts, so that
// the traced calls return as early as untraced ones), plus host stamps: when each step was posted and
// how long the host waited for facts, in us from the call's entry. A diagnostic for tuning the pipeline;
// it changes the timing it shows only by the events' cost.
struct P2pTrace {
  int mode = 0;  // 0 off, 1 or 2 (see above); set once by the engine
  cudaEvent_t t0 = nullptr;
  struct Span {
    const char* what;
    int index;
    cudaEvent_t a, b;
    int bit;
  };
  struct Stamp {
    const char* what;
    int index;
    double us;
  };
  std::vector<Span> spans;
  std::vector<Stamp> stamps;
  std::chrono::steady_clock::time_point entry;
  int rank = 0;
  cudaEvent_t ev() {
    cudaEvent_t e = nullptr;
    cudaEventCreate(&e);
    return e;
  }
  // Starts a batch's timeline (printing the previous one first, in mode 2).
  void begin(cudaStream_t s, int r, std::chrono::steady_clock::time_point callEntry) {
    flush();
    rank = r;
    entry = callEntry;
    if (!mode) return;
    t0 = ev();
    cudaEventRecord(t0, s);
  }
  // Opens a span on stream s; close() records its end on the same stream.
  // `bit` selects the event in UZIP_P2P_TRACE_MASK (default all): open 1 << bit, close 2 << bit, so
  // that the effect of each kind of event on the pipeline can be measured.
  unsigned mask = ~0u;
  size_t open(const char* what, int index, cudaStream_t s, int bit = 30) {
    if (!mode) return 0;
    spans.push_back(Span{what, index, nullptr, nullptr, bit});
    if ((mask >> bit) & 1u) {
      spans.back().a = ev();
      cudaEventRecord(spans.back().a, s);
    }
    return spans.size() - 1;
  }
  void close(size_t i, cudaStream_t s) {
    if (!mode || !((mask >> (spans[i].bit + 1)) & 1u)) return;
    spans[i].b = ev();
    cudaEventRecord(spans[i].b, s);
  }
  void stamp(const char* what, int index) {
    if (mode != 2) return;
    const std::chrono::duration<double, std::micro> us = std::chrono::steady_clock::now() - entry;
    stamps.push_back(Stamp{what, index, us.count()});
  }
  // End of a batch: mode 1 prints now (synchronizing the device), mode 2 at the next begin() or flush().
  void end() {
    if (mode == 1) flush();
  }
  void flush() {
    if (!mode || t0 == nullptr) return;
    for (const Stamp& st : stamps)
      fprintf(stderr, "p2p-trace rank %d host %-8s %3d %10.1f us\n", rank, st.what, st.index, st.us);
    for (const Span& sp : spans) {
      float a = -1, b = -1;
      if (sp.a) cudaEventSynchronize(sp.a), cudaEventElapsedTime(&a, t0, sp.a), cudaEventDestroy(sp.a);
      if (sp.b) cudaEventSynchronize(sp.b), cudaEventElapsedTime(&b, t0, sp.b), cudaEventDestroy(sp.b);
      fprintf(stderr, "p2p-trace rank %d %-8s %3d %8.3f %8.3f ms\n", rank, sp.what, sp.index, a, b);
    }
    cudaEventDestroy(t0);
    t0 = nullptr;
    spans.clear();
    stamps.clear();
  }
};

}  // namespace uzip
