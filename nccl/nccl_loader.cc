// dlopen of NCCL and its function table (see nccl_loader.h).
#include "nccl_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mutex>

#include "status.h"

namespace uzip {
namespace {

NcclApi g_api;
int g_status = -1;         // -1: not tried yet
char g_message[512] = "";  // the load failure, repeated on every later call

template <typename F>
bool resolve(void* lib, const char* name, F* out, bool required) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  if (*out == nullptr && required) {
    snprintf(g_message, sizeof g_message, "NCCL library lacks the function %s", name);
    return false;
  }
  return true;
}

int loadOnce() {
  const char* path = getenv("UZIP_NCCL_LIB");
  if (path == nullptr || path[0] == 0) path = "libnccl.so.2";
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = dlerror();
    snprintf(g_message, sizeof g_message,
             "cannot load NCCL from '%s' (%s). Install NCCL >= 2.19 or set UZIP_NCCL_LIB to libnccl.so.2",
             path, why ? why : "unknown dlopen error");
    return UZIP_ERR_NCCL;
  }
  NcclApi& a = g_api;
  bool ok = resolve(lib, "ncclGetVersion", &a.getVersion, true) &&
            resolve(lib, "ncclGetErrorString", &a.getErrorString, true) &&
            resolve(lib, "ncclGetLastError", &a.getLastError, false) &&
            resolve(lib, "ncclGetUniqueId", &a.getUniqueId, true) &&
            resolve(lib, "ncclCommInitRankConfig", &a.commInitRankConfig, true) &&
            resolve(lib, "ncclCommSplit", &a.commSplit, true) &&
            resolve(lib, "ncclCommFinalize", &a.commFinalize, true) &&
            resolve(lib, "ncclCommDestroy", &a.commDestroy, true) &&
            resolve(lib, "ncclCommAbort", &a.commAbort, true) &&
            resolve(lib, "ncclCommGetAsyncError", &a.commGetAsyncError, true) &&
            resolve(lib, "ncclCommCount", &a.commCount, true) &&
            resolve(lib, "ncclCommUserRank", &a.commUserRank, true) &&
            resolve(lib, "ncclCommCuDevice", &a.commCuDevice, true) &&
            resolve(lib, "ncclSend", &a.send, true) && resolve(lib, "ncclRecv", &a.recv, true) &&
            resolve(lib, "ncclGroupStart", &a.groupStart, true) &&
            resolve(lib, "ncclGroupEnd", &a.groupEnd, true) &&
            resolve(lib, "ncclAllReduce", &a.allReduce, true) &&
            resolve(lib, "ncclBroadcast", &a.broadcast, true) &&
            resolve(lib, "ncclAllGather", &a.allGather, true) &&
            resolve(lib, "ncclReduceScatter", &a.reduceScatter, true);
  if (!ok) {
    // g_message already names the missing function; add the path.
    size_t n = strlen(g_message);
    snprintf(g_message + n, sizeof g_message - n, " ('%s' is too old or not NCCL; need >= 2.19)", path);
    dlclose(lib);
    return UZIP_ERR_NCCL;
  }
  int v = 0;
  if (a.getVersion(&v) != ncclSuccess) {
    snprintf(g_message, sizeof g_message, "ncclGetVersion failed in '%s'", path);
    return UZIP_ERR_NCCL;
  }
  a.version = v;
  if (v < UZIP_NCCL_MIN_VERSION) {
    snprintf(g_message, sizeof g_message, "NCCL at '%s' is version %d.%d.%d; @uccl/zip needs >= 2.19", path,
             v / 10000, (v / 100) % 100, v % 100);
    return UZIP_ERR_NCCL;
  }
  return UZIP_OK;
}

}  // namespace

int ncclLoad(const NcclApi** out) {
  static std::once_flag once;
  std::call_once(once, [] { g_status = loadOnce(); });
  if (g_status != UZIP_OK) return uzipSetError(g_status, "%s", g_message);
  *out = &g_api;
  return UZIP_OK;
}

int ncclStatus(ncclResult_t r, ncclComm_t comm, const char* what) {
  if (r == ncclSuccess) return UZIP_OK;
  const char* s = g_api.getErrorString ? g_api.getErrorString(r) : "unknown";
  const char* last = (g_api.getLastError && comm) ? g_api.getLastError(comm) : "";
  return uzipSetError(UZIP_ERR_NCCL, "%s: NCCL error %d: %s%s%s%s", what, (int)r, s, last && last[0] ? " (" : "",
                      last ? last : "", last && last[0] ? ")" : "");
}

}  // namespace uzip
