// Thread-local last-error message and status names.
#include "status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "uzip_format.h"

namespace {
thread_local char g_last_error[512] = "";
}

extern "C" int uzipSetError(int status, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_last_error, sizeof g_last_error, fmt, ap);
  va_end(ap);
  return status;
}

extern "C" void uzipClearError(void) { g_last_error[0] = '\0'; }

extern "C" int uzipCopyError(int status, char* msg, uint64_t capacity) {
  if (status != 0 && msg && capacity > 0) {
    strncpy(msg, g_last_error, capacity - 1);
    msg[capacity - 1] = '\0';
  }
  return status;
}

extern "C" UZIP_API const char* uzipLastError(void) { return g_last_error; }

extern "C" UZIP_API int uzipVersion(void) { return 200; /* 0.2.0: stream format version 2 */ }

extern "C" UZIP_API int uzipFormatVersion(void) { return (int)UZIP_VERSION; }

// UZIP_CPU_ONLY: scripts/build.sh --cpu-only, which compiles the CPU codec alone with a host compiler.
extern "C" UZIP_API int uzipBuildFeatures(void) {
#ifdef UZIP_CPU_ONLY
  return 0;
#else
  return UZIP_FEATURE_CUDA | UZIP_FEATURE_NCCL;
#endif
}

extern "C" UZIP_API const char* uzipStatusName(int status) {
  switch (status) {
    case UZIP_OK: return "OK";
    case UZIP_ERR_INVALID_ARG: return "INVALID_ARG";
    case UZIP_ERR_CORRUPT: return "CORRUPT";
    case UZIP_ERR_TRUNCATED: return "TRUNCATED";
    case UZIP_ERR_BUFFER_TOO_SMALL: return "BUFFER_TOO_SMALL";
    case UZIP_ERR_UNSUPPORTED: return "UNSUPPORTED";
    case UZIP_ERR_CHECKSUM: return "CHECKSUM";
    case UZIP_ERR_CUDA: return "CUDA";
    case UZIP_ERR_NO_DEVICE: return "NO_DEVICE";
    case UZIP_ERR_NCCL: return "NCCL";
    case UZIP_ERR_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    case UZIP_ERR_TIMEOUT: return "TIMEOUT";
    case UZIP_ERR_INTERNAL: return "INTERNAL";
    default: return "UNKNOWN";
  }
}
