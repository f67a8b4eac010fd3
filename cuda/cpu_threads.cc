#include "cpu_threads.h"

#include <stdlib.h>

namespace uzip_cpu {

uint32_t cpu_threads(int32_t requested, uint64_t nblocks) {
  if (nblocks < 2) return 1;
  uint64_t t;
  if (requested > 0) {
    t = (uint64_t)requested;
  } else {
    t = std::thread::hardware_concurrency();
    const char* env = getenv("UZIP_CPU_THREADS");
    const long cap = env ? strtol(env, nullptr, 10) : 0;
    if (cap > 0 && (uint64_t)cap < t) t = (uint64_t)cap;
    const uint64_t byWork = nblocks / 4;
    if (byWork < t) t = byWork;
  }
  if (t > nblocks) t = nblocks;
  if (t > 256) t = 256;
  return t < 1 ? 1u : (uint32_t)t;
}

}  // namespace uzip_cpu
