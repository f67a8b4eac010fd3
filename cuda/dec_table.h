// How load_ans_table (cuda/gpu_decode.cuh) fills a block's decode table, by the table's symbol count k, kept
// free of CUDA so that tests/native/dec_table_test.cc can check that the GPU tests' data reach every fill.
#pragma once

#include <stdint.h>

// Up to this many symbols (bf16 and fp32 exponents: k ~ 15-40), the compact kernels (calls of many rounds) fill
// symbol by symbol, 32 slots per store; the others by the slot rounds below (session 55).
constexpr uint32_t UZIP_DEC_TAB_FEW_K = 64u;
// Up to this many (fp16, fp8: k ~ 50-130; and the few above outside the compact kernels): by slot rounds over
// a bitmap of the symbols' first slots, which lives in the info array after this many entries, eight rounds'
// loads before their stores. More: each lane walks the symbols along its slots.
constexpr uint32_t UZIP_DEC_TAB_BITMAP_K = 192u;
