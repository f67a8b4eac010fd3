// CPU reference of the lane-stream symbol coding (FORMAT.md "Lane streams", cuda/lanes_format.h): the
// mode choice and section writer of the encoder, and the validating section decoder. The GPU kernels
// (gpu_lanes.cu) must produce the same bytes.
#include "cpu_internal.h"
#include "lanes_format.h"

namespace uzip_cpu {

uint64_t lanes_encode_plane(const uint8_t* sym, uint32_t m, uint32_t width, uint32_t log2_block, uint8_t* out,
                            uint32_t* mode) {
  uint32_t lo = 255, hi = 0;
  for (uint32_t i = 0; i < m; i++) {
    lo = sym[i] < lo ? sym[i] : lo;
    hi = sym[i] > hi ? sym[i] : hi;
  }
  if (lo == hi) {
    out[0] = (uint8_t)lo;
    *mode = UZIP_MODE_CONST;
    return 1;
  }
  uint32_t counts[256] = {0}, freqs[256], cum[256];
  for (uint32_t i = 0; i < m; i += 1u << UZIP_LANES_SAMPLE_SHIFT) counts[sym[i]]++;
  const uint32_t total = (m + (1u << UZIP_LANES_SAMPLE_SHIFT) - 1u) >> UZIP_LANES_SAMPLE_SHIFT;
  uzip_lanes_normalize(counts, total, lo, hi, freqs);
  cumulate_freqs(freqs, cum);
  uzip_lanes_enc_sym enc[256];
  for (uint32_t s = lo; s <= hi; s++) enc[s] = uzip_lanes_enc_entry(freqs[s], cum[s]);

  const uint32_t table = uzip_lanes_table_bytes(lo, hi), cap = uzip_lanes_word_cap(log2_block);
  uint8_t* states = out + table;
  uint8_t* nwords = states + 4u * UZIP_LANES_N;
  uint8_t* words = nwords + 2u * UZIP_LANES_N;
  uint64_t w = 0;  // words written so far (all lanes)
  for (uint32_t l = 0; l < UZIP_LANES_N; l++) {
    const uint32_t n = uzip_lanes_lane_len(m, width, l);
    uint32_t x = UZIP_LANES_L, lane_words = 0;
    for (uint32_t k = 0; k < n; k++) {
      uint16_t word;
      if (uzip_lanes_encode(&x, enc[sym[uzip_lanes_elem(width, l, k)]], &word)) {
        if (lane_words == cap) {  // over the lane's budget: the plane stays RAW
          *mode = UZIP_MODE_RAW;
          return m;
        }
        st16(words + 2u * (w + lane_words), word);
        lane_words++;
      }
    }
    st32(states + 4u * l, x);
    st16(nwords + 2u * l, (uint16_t)lane_words);
    w += lane_words;
  }
  const uint64_t used = table + UZIP_LANES_FIXED_BYTES + 2u * w;
  if (used >= m) {
    *mode = UZIP_MODE_RAW;
    return m;
  }
  out[0] = (uint8_t)lo;
  out[1] = (uint8_t)hi;
  st16(out + 2, 0);
  for (uint32_t s = lo; s <= hi; s++) st16(out + 4u + 2u * (s - lo), (uint16_t)freqs[s]);
  memset(out + 4u + 2u * (hi - lo + 1u), 0, table - (4u + 2u * (hi - lo + 1u)));
  *mode = UZIP_MODE_LANES;
  return used;
}

int lanes_decode_section(const uint8_t* p, uint64_t avail, uint32_t m, uint32_t width, uint32_t log2_block,
                         uint8_t* out, uint64_t* used, uint64_t block) {
  const unsigned long long bl = (unsigned long long)block;
  if (avail < 4)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: lane table runs past the block payload", bl);
  const uint32_t lo = p[0], hi = p[1];
  if (lo >= hi || ld16(p + 2) != 0)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: lane table range %u..%u or reserved field invalid", bl, lo,
                        hi);
  const uint32_t table = uzip_lanes_table_bytes(lo, hi);
  if (avail < (uint64_t)table + UZIP_LANES_FIXED_BYTES)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: lane table and states run past the block payload", bl);
  uint32_t freqs[256] = {0}, cum[256], sum = 0;
  for (uint32_t s = lo; s <= hi; s++) {
    freqs[s] = ld16(p + 4u + 2u * (s - lo));
    if (freqs[s] == 0 || freqs[s] >= UZIP_ANS_M)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: lane table frequency %u of symbol %u invalid", bl, freqs[s],
                          s);
    sum += freqs[s];
  }
  if (sum != UZIP_ANS_M)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: lane table frequencies sum to %u, not 2048", bl, sum);
  if (!all_zero(p + 4u + 2u * (hi - lo + 1u), table - (4u + 2u * (hi - lo + 1u))))
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: lane table padding not zero", bl);
  cumulate_freqs(freqs, cum);
  const uint8_t* states = p + table;
  const uint8_t* nwords = states + 4u * UZIP_LANES_N;
  const uint8_t* words = nwords + 2u * UZIP_LANES_N;
  const uint32_t cap = uzip_lanes_word_cap(log2_block);
  uint64_t total_words = 0;
  for (uint32_t l = 0; l < UZIP_LANES_N; l++) {
    const uint32_t x = ld32(states + 4u * l), n = ld16(nwords + 2u * l);
    if (x < UZIP_LANES_L || x >= UZIP_ANS_X_END || n > cap)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: lane %u state 0x%08x or word count %u invalid", bl, l, x, n);
    total_words += n;
  }
  *used = table + UZIP_LANES_FIXED_BYTES + 2u * total_words;
  if (*used >= m)  // an encoder keeps LANES only when smaller than RAW (and a GPU decoder stages < m bytes)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: lane section of %llu bytes is not smaller than its %u symbols",
                        bl, (unsigned long long)*used, m);
  if (*used > avail)
    return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: lane words run past the block payload", bl);
  if (!out) return UZIP_OK;
  // Slot -> symbol for the decoder.
  uint8_t slot_sym[UZIP_ANS_M];
  for (uint32_t s = lo; s <= hi; s++) memset(slot_sym + cum[s], (int)s, freqs[s]);
  uint64_t start = 0;
  for (uint32_t l = 0; l < UZIP_LANES_N; l++) {
    uint32_t x = ld32(states + 4u * l);
    const uint32_t nw = ld16(nwords + 2u * l), n = uzip_lanes_lane_len(m, width, l);
    uint32_t pos = nw;  // words are read from the lane's last one down
    for (uint32_t k = n; k-- > 0;) {
      const uint32_t s = slot_sym[x & (UZIP_ANS_M - 1u)];
      out[uzip_lanes_elem(width, l, k)] = (uint8_t)s;
      if (uzip_lanes_decode(&x, freqs[s], cum[s])) {
        if (pos == 0)
          return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: lane %u needs more than its %u words", bl, l, nw);
        x = (x << 16) | ld16(words + 2u * (start + --pos));
      }
    }
    if (x != UZIP_LANES_L || pos != 0)
      return uzipSetError(UZIP_ERR_CORRUPT, "block %llu: lane %u ends in state 0x%08x with %u words unread", bl, l, x,
                          pos);
    start += nw;
  }
  return UZIP_OK;
}

}  // namespace uzip_cpu
