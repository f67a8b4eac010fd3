// Block-parallel runs of the CPU codec (uzipCompressCpuMt / uzipDecompressCpuMt). Every block of a stream is
// coded alone, so threads take blocks by ticket; the bytes are the single-threaded codec's, and an error is
// the one a walk in block order meets first (the lowest failing block's status and message).
#pragma once

#include <stdint.h>
#include <string.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "status.h"
#include "uzip.h"

namespace uzip_cpu {

// Threads for a call over nblocks blocks. requested > 0: that many (at most nblocks and 256); 0: the
// machine's hardware threads, capped by $UZIP_CPU_THREADS when it is a positive integer, and by one thread
// for every 4 blocks (a thread costs ~20-50 us to start: a block of 2^14 bf16 elements is ~50 us of coding).
uint32_t cpu_threads(int32_t requested, uint64_t nblocks);

// Runs fn(b) for every b in [0, n) on `threads` threads, the caller's among them, each block once. fn
// returns 0 or a uzip_status with the thread's last error set (uzipSetError). Once a block fails, blocks
// above it may be skipped. Returns 0, or the status of the lowest failing block with its message set on
// the calling thread. Threads that cannot be started leave their share to the others. A template, not a
// std::function: nothing here allocates but the thread list, and no exception leaves it.
template <class Fn>
int for_each_block(uint64_t n, uint32_t threads, const Fn& fn) {
  if (threads <= 1 || n < 2) {
    for (uint64_t b = 0; b < n; b++)
      if (int st = fn(b)) return st;
    return UZIP_OK;
  }
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> failedAt{UINT64_MAX};  // blocks above the lowest failure so far are skipped
  std::mutex mu;
  int status = UZIP_OK;
  char message[512] = "";
  auto work = [&]() {
    for (;;) {
      const uint64_t b = next.fetch_add(1, std::memory_order_relaxed);
      if (b >= n || b > failedAt.load(std::memory_order_relaxed)) return;
      const int st = fn(b);
      if (!st) continue;
      std::lock_guard<std::mutex> lock(mu);
      if (b < failedAt.load(std::memory_order_relaxed)) {
        failedAt.store(b, std::memory_order_relaxed);
        status = st;
        strncpy(message, uzipLastError(), sizeof message - 1);  // this thread's message
        message[sizeof message - 1] = '\0';
      }
    }
  };
  std::vector<std::thread> pool;
  try {
    pool.reserve(threads - 1);
    for (uint32_t i = 1; i < threads; i++) pool.emplace_back(work);
  } catch (...) {  // no more threads: the started ones and the caller share the blocks
  }
  work();
  for (std::thread& t : pool) t.join();
  if (status) return uzipSetError(status, "%s", message);
  return UZIP_OK;
}

}  // namespace uzip_cpu
