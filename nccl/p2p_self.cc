// The pairing rule of transfers to self (uzipP2pRun): an operation whose peer is the calling rank is NCCL's
// send/receive to self, whose two halves must be posted in the same group. A batch therefore holds them in
// mirrored pairs, the k-th send to self with the k-th receive from self, alike in count, dtype and compress;
// anything else would leave NCCL (or the compressed pipeline's lock-step groups) waiting forever for a half
// that is never posted, so it is refused before anything is. No GPU needed (tests/native/p2p_self_test.cc).
#include <algorithm>
#include <vector>

#include "p2p.h"
#include "status.h"

namespace uzip {

int p2pCheckSelfPairs(const uzip_p2p_op* ops, uint32_t nops, int rank) {
  // Most batches (every collective's exchange) have no op to self: no allocation for them.
  if (std::none_of(ops, ops + nops, [rank](const uzip_p2p_op& o) { return o.peer == rank; })) return UZIP_OK;
  std::vector<uint32_t> sends, recvs;
  for (uint32_t i = 0; i < nops; i++)
    if (ops[i].peer == rank) (ops[i].isSend ? sends : recvs).push_back(i);
  for (size_t k = 0; k < std::max(sends.size(), recvs.size()); k++) {
    if (k >= sends.size() || k >= recvs.size()) {
      const bool send = k < sends.size();
      return uzipSetError(UZIP_ERR_INVALID_ARG, "op %u: a %s to this rank (%d) has no matching %s in the batch",
                          send ? sends[k] : recvs[k], send ? "send" : "receive", rank, send ? "receive" : "send");
    }
    const uzip_p2p_op &s = ops[sends[k]], &r = ops[recvs[k]];
    if (s.count != r.count || s.dtype != r.dtype || s.compress != r.compress)
      return uzipSetError(UZIP_ERR_INVALID_ARG,
                          "ops %u and %u: a send to this rank and its receive differ (%llu / %llu elements, dtype "
                          "%d / %d, compress %d / %d)",
                          sends[k], recvs[k], (unsigned long long)s.count, (unsigned long long)r.count, s.dtype,
                          r.dtype, s.compress, r.compress);
  }
  return UZIP_OK;
}

}  // namespace uzip
