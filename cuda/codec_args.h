// Validation of the compression arguments shared by every entry point that takes them
// (uzipCompressCpu, uzipMaxCompressedSize, uzipGpuCompress), so they accept exactly the same inputs.
#pragma once

#include "status.h"
#include "lanes_format.h"
#include "pairs_format.h"
#include "uzip_format.h"

// Checks dtype, flags, block size and count. A block size of 0 becomes the library's default, in place: the
// coding's too where uzip_default_lean_log2 says so (the lean flag added to *flags, its block size), else
// uzip_default_log2_block. Returns a uzip_status with the thread's last error set on failure.
static inline int uzipCheckCodecArgs(int dtype, uint32_t* flagsInOut, uint32_t* log2Block, uint64_t count) {
  if (dtype < 0 || dtype >= UZIP_DTYPE_COUNT) return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown dtype %d", dtype);
  if (*flagsInOut & ~UZIP_FLAGS_KNOWN) return uzipSetError(UZIP_ERR_INVALID_ARG, "unknown flags 0x%x", *flagsInOut);
  if (*log2Block == 0) {
    if (const uint32_t lean = uzip_default_lean_log2(count, (uint32_t)dtype, *flagsInOut)) {
      *flagsInOut |= UZIP_FLAG_LEAN;
      *log2Block = lean;
    }
  }
  const uint32_t flags = *flagsInOut;
  if (*log2Block == 0) {
    *log2Block = uzip_default_log2_block(count, (uint32_t)dtype);
    if ((flags & UZIP_FLAG_LANES) && *log2Block > UZIP_LANES_LOG2_BLOCK_MAX) *log2Block = UZIP_LANES_LOG2_BLOCK_MAX;
  }
  if (*log2Block < UZIP_LOG2_BLOCK_MIN || *log2Block > UZIP_LOG2_BLOCK_MAX)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "log2Block %u outside %u..%u", *log2Block, UZIP_LOG2_BLOCK_MIN,
                        UZIP_LOG2_BLOCK_MAX);
  // Lane streams (FORMAT.md "Lane streams") live in the split layout, with blocks of at most 2^14 elements.
  if ((flags & UZIP_FLAG_LANES) && !(flags & UZIP_FLAG_SPLIT))
    return uzipSetError(UZIP_ERR_INVALID_ARG, "the lanes flag needs the split flag");
  if ((flags & UZIP_FLAG_LANES) && *log2Block > UZIP_LANES_LOG2_BLOCK_MAX)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "log2Block %u: lane streams take blocks of at most 2^%u elements",
                        *log2Block, UZIP_LANES_LOG2_BLOCK_MAX);
  // Pair coding (FORMAT.md "Pair coding") is for 8-bit exponent symbols, and codes the symbol planes that
  // lane streams would.
  if ((flags & UZIP_FLAG_PAIRS) && !uzip_pairs_dtype_ok((uint32_t)dtype))
    return uzipSetError(UZIP_ERR_INVALID_ARG, "the pairs flag takes bf16 or fp32 (dtype %d)", dtype);
  if ((flags & UZIP_FLAG_PAIRS) && (flags & UZIP_FLAG_LANES))
    return uzipSetError(UZIP_ERR_INVALID_ARG, "the pairs and lanes flags exclude each other");
  // Lean sections (FORMAT.md "Lean sections") change the ANS sections of the default coding only.
  if ((flags & UZIP_FLAG_LEAN) && (flags & (UZIP_FLAG_LANES | UZIP_FLAG_PAIRS)))
    return uzipSetError(UZIP_ERR_INVALID_ARG, "the lean flag excludes the lanes and pairs flags");
  // 2^48 elements and 2^32 blocks keep every offset of the format in range.
  if (count > ((uint64_t)1 << 48) || uzip_nblocks(count, *log2Block) > 0xFFFFFFFFull)
    return uzipSetError(UZIP_ERR_INVALID_ARG, "count %llu of dtype %d is too large for one stream",
                        (unsigned long long)count, dtype);
  return UZIP_OK;
}
