// NCCL, loaded at run time. libuzip never links NCCL: the first communicator call dlopens it
// (libnccl.so.2, or the path in UZIP_NCCL_LIB), resolves the functions below and checks the version
// (>= 2.19, for non-blocking init and ncclCommGetAsyncError). The few NCCL types used here are
// declared from NCCL's public API, because nccl.h is not present on the build machine.
#pragma once

#include <stddef.h>
#include <stdint.h>

extern "C" {
typedef struct ncclComm* ncclComm_t;
typedef struct {
  char internal[128];
} ncclUniqueId;
typedef enum {
  ncclSuccess = 0,
  ncclUnhandledCudaError = 1,
  ncclSystemError = 2,
  ncclInternalError = 3,
  ncclInvalidArgument = 4,
  ncclInvalidUsage = 5,
  ncclRemoteError = 6,
  ncclInProgress = 7,
} ncclResult_t;
typedef enum {
  ncclInt8 = 0,
  ncclUint8 = 1,
  ncclInt32 = 2,
  ncclUint32 = 3,
  ncclInt64 = 4,
  ncclUint64 = 5,
  ncclFloat16 = 6,
  ncclFloat32 = 7,
  ncclFloat64 = 8,
  ncclBfloat16 = 9,
} ncclDataType_t;
typedef enum { ncclSum = 0, ncclProd = 1, ncclMax = 2, ncclMin = 3, ncclAvg = 4 } ncclRedOp_t;
// The 2.17 layout of ncclConfig_t (with 2.18's splitShare). NCCL reads `size` and `version` to know
// which fields a caller filled, so newer libraries accept it and default the fields it lacks.
typedef struct {
  size_t size;
  unsigned int magic;
  unsigned int version;
  int blocking;
  int cgaClusterSize;
  int minCTAs;
  int maxCTAs;
  const char* netName;
  int splitShare;
} ncclConfig_t;
typedef struct CUstream_st* ncclStream_t;  // cudaStream_t
}

#define UZIP_NCCL_CONFIG_UNDEF_INT (-2147483647 - 1)
#define UZIP_NCCL_MIN_VERSION 21900  // 2.19.0

namespace uzip {

// The resolved functions. Required ones are never null once ncclLoad() succeeded; the collectives
// (allReduce, ...) are resolved too for baselines and may be used freely (present since NCCL 2.0).
struct NcclApi {
  int version = 0;  // ncclGetVersion, e.g. 22805
  ncclResult_t (*getVersion)(int*);
  const char* (*getErrorString)(ncclResult_t);
  const char* (*getLastError)(ncclComm_t);  // may be null
  ncclResult_t (*getUniqueId)(ncclUniqueId*);
  ncclResult_t (*commInitRankConfig)(ncclComm_t*, int, ncclUniqueId, int, ncclConfig_t*);
  ncclResult_t (*commSplit)(ncclComm_t, int, int, ncclComm_t*, ncclConfig_t*);
  ncclResult_t (*commFinalize)(ncclComm_t);
  ncclResult_t (*commDestroy)(ncclComm_t);
  ncclResult_t (*commAbort)(ncclComm_t);
  ncclResult_t (*commGetAsyncError)(ncclComm_t, ncclResult_t*);
  ncclResult_t (*commCount)(ncclComm_t, int*);
  ncclResult_t (*commUserRank)(ncclComm_t, int*);
  ncclResult_t (*commCuDevice)(ncclComm_t, int*);
  ncclResult_t (*send)(const void*, size_t, ncclDataType_t, int, ncclComm_t, ncclStream_t);
  ncclResult_t (*recv)(void*, size_t, ncclDataType_t, int, ncclComm_t, ncclStream_t);
  ncclResult_t (*groupStart)();
  ncclResult_t (*groupEnd)();
  ncclResult_t (*allReduce)(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t,
                            ncclStream_t);
  ncclResult_t (*broadcast)(const void*, void*, size_t, ncclDataType_t, int, ncclComm_t, ncclStream_t);
  ncclResult_t (*allGather)(const void*, void*, size_t, ncclDataType_t, ncclComm_t, ncclStream_t);
  ncclResult_t (*reduceScatter)(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t,
                                ncclStream_t);
};

// Loads NCCL once (thread-safe). On failure returns UZIP_ERR_NCCL with a message naming the library
// path tried, the dlerror, or the version found; later calls return the same failure.
int ncclLoad(const NcclApi** out);

// Turns a NCCL result into a uzip status with a message "<what>: <NCCL error string> (<last error>)".
// ncclSuccess -> UZIP_OK. ncclInProgress is not an error and must be handled by the caller.
int ncclStatus(ncclResult_t r, ncclComm_t comm, const char* what);

}  // namespace uzip
