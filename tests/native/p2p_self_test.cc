// Native test of the pairing rule of transfers to self (uzip::p2pCheckSelfPairs, nccl/p2p_self.cc), on the
// CPU: mirrored pairs pass, in any interleaving and beside operations to other peers; a lone half, a second
// send without its receive, and pairs that differ in count, dtype or compress are refused with
// UZIP_ERR_INVALID_ARG and a message naming the op. The one-GPU test (tests/fixtures/p2p_self_rank.ts) runs
// the transfers; this pins the rule on every machine. Built and run by scripts/test_native.sh.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <initializer_list>
#include <vector>

#include "p2p.h"

static int g_fail = 0, g_checks = 0;

static uzip_p2p_op op(int peer, int isSend, uint64_t count = 100, int dtype = UZIP_DTYPE_BF16, int compress = 1) {
  return uzip_p2p_op{1ull << 40, count, dtype, peer, isSend, compress};
}

// Checks one batch on rank `rank`: want UZIP_OK, or INVALID_ARG with `needle` in the message.
static void expect(const char* what, std::initializer_list<uzip_p2p_op> list, int rank, const char* needle) {
  g_checks++;
  std::vector<uzip_p2p_op> ops(list);
  const int st = uzip::p2pCheckSelfPairs(ops.data(), (uint32_t)ops.size(), rank);
  const int want = needle ? UZIP_ERR_INVALID_ARG : UZIP_OK;
  const char* msg = uzipLastError();
  if (st != want || (needle && (msg == nullptr || strstr(msg, needle) == nullptr))) {
    printf("FAIL %s: status %d (want %d), message \"%s\" (want \"%s\")\n", what, st, want, msg ? msg : "",
           needle ? needle : "");
    g_fail++;
  }
}

int main() {
  expect("empty batch", {}, 0, nullptr);
  expect("no self ops", {op(1, 1), op(1, 0)}, 0, nullptr);
  expect("one pair", {op(0, 1), op(0, 0)}, 0, nullptr);
  expect("receive first", {op(2, 0), op(2, 1)}, 2, nullptr);
  expect("two pairs interleaved with others", {op(3, 1, 7), op(1, 1), op(3, 1, 9, UZIP_DTYPE_FP32), op(0, 0),
                                               op(3, 0, 7), op(3, 0, 9, UZIP_DTYPE_FP32)},
         3, nullptr);
  expect("plain pair", {op(0, 1, 100, UZIP_DTYPE_BYTES, 0), op(0, 0, 100, UZIP_DTYPE_BYTES, 0)}, 0, nullptr);
  expect("empty pair", {op(0, 1, 0), op(0, 0, 0)}, 0, nullptr);
  expect("lone send", {op(0, 1)}, 0, "op 0: a send to this rank (0) has no matching receive");
  expect("lone receive", {op(1, 0), op(0, 0)}, 0, "op 1: a receive to this rank (0) has no matching send");
  expect("second send unmatched", {op(0, 1), op(0, 0), op(0, 1)}, 0, "op 2: a send");
  expect("another rank's self ops are not ours", {op(1, 1)}, 1, "op 0: a send");
  expect("counts differ", {op(0, 1, 100), op(0, 0, 101)}, 0, "ops 0 and 1: a send to this rank and its receive differ");
  expect("dtypes differ", {op(0, 1, 100, UZIP_DTYPE_BF16), op(0, 0, 100, UZIP_DTYPE_FP16)}, 0, "dtype 1 / 2");
  expect("compress differs", {op(0, 1, 100, UZIP_DTYPE_BF16, 1), op(0, 0, 100, UZIP_DTYPE_BF16, 0)}, 0,
         "compress 1 / 0");
  expect("second pair differs", {op(0, 1, 5), op(0, 0, 5), op(0, 1, 6), op(0, 0, 7)}, 0, "ops 2 and 3");
  printf("p2p_self_test: %d checks, %d failures\n", g_checks, g_fail);
  return g_fail ? 1 : 0;
}
