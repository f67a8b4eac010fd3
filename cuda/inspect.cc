// Size bound and stream inspection (C ABI). Inspection validates the header, the directory and the
// structure of every section (ANS tables and segment sizes) without decoding any symbol.
#include "cpu_internal.h"

extern "C" UZIP_API int uzipMaxCompressedSize(int dtype, uint64_t count, uint32_t flags, uint32_t log2Block,
                                              uint64_t* outBytes) {
  uzipClearError();
  if (!outBytes) return uzipSetError(UZIP_ERR_INVALID_ARG, "outBytes is null");
  *outBytes = 0;
  if (int st = uzipCheckCodecArgs(dtype, &flags, &log2Block, count)) return st;
  *outBytes = uzip_max_compressed_size(count, (uint32_t)dtype, flags, log2Block);
  return UZIP_OK;
}

extern "C" UZIP_API int uzipInspect(const void* src, uint64_t srcBytes, uzip_info* out) {
  uzipClearError();
  if (!out) return uzipSetError(UZIP_ERR_INVALID_ARG, "out is null");
  memset(out, 0, sizeof *out);
  if (!src) return uzipSetError(UZIP_ERR_INVALID_ARG, "src is null");
  uzip_info info;
  memset(&info, 0, sizeof info);
  int st = uzip_cpu::walk_stream((const uint8_t*)src, srcBytes, nullptr, 0, &info);
  if (st) return st;
  *out = info;
  return UZIP_OK;
}
