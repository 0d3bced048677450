/*
 * ssztree's native hashing kernels: SHA-256 of 64-byte messages, a whole
 * layer per call, in two kernels the JavaScript side chooses between per
 * call by layer size (src/dispatch/, from timings taken on the machine
 * itself at start-up):
 *
 *  - avx512: sixteen messages at a time, one per 32-bit lane of the AVX-512
 *    registers. Each group of sixteen is read with sixteen plain 64-byte
 *    loads and transposed in registers (not gathered), and the digests are
 *    transposed back and written with eight plain 64-byte stores (not
 *    scattered): gathers left the kernel 1.6x slower on layers streamed
 *    from memory than in cache on AMD Zen 4, loads and stores keep it flat.
 *  - shani: the SHA extensions (SHA-NI), four messages interleaved so that
 *    four independent round chains hide the latency of SHA256RNDS2, with the
 *    message schedule (W + K) of the next four computed, one step per two
 *    round steps, while the rounds of the current four run: computing the
 *    schedule in step with its own rounds made its dependency chain the
 *    bottleneck. Where SHA-NI is fast (AMD Zen) this beats sixteen AVX-512
 *    lanes; where it is not, the dispatch measures that and uses avx512.
 *
 * What both compute, per message i of a layer:
 *   output[32i, 32i+32) = SHA-256(input[64i, 64i+64)).
 * A 64-byte message is two compression blocks: the data, then a padding
 * block that never changes (0x80, zeros, the bit length 512), whose message
 * schedule plus round constants (PADDING_WK) is computed once at load.
 *
 * Invariants:
 *  - A kernel reads every message of a group (avx512: sixteen; shani: the
 *    four being hashed and the four being scheduled) before it writes a
 *    digest of that group, and groups run front to back, so a layer may be
 *    folded in place (output starting at or before input in the same
 *    memory): digest i only overwrites input bytes below 64(i/2 + 1).
 *  - Only the kernels are compiled for AVX-512 or SHA-NI (target
 *    attributes); everything else is baseline x86-64, so the module loads on
 *    any x86-64 CPU and `kernels()` says which kernels may be called here.
 *    The binding refuses a kernel the CPU or OS cannot run.
 *
 * Built with -DSSZTREE_KERNELS_ONLY the file has no Node-API part, for the
 * C kernel benchmark (bench/hasherKernels.c).
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define SSZTREE_X86 1
#else
#define SSZTREE_X86 0
#endif

static const uint32_t K[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};
static const uint32_t IV[8] = {
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};
/*
 * W[t] + K[t] of the constant padding block, and (for SHA-NI, whose second
 * round of each pair takes its word pair from the low half of a register)
 * PADDING_WK_HI[4j, 4j+2) = PADDING_WK[4j+2, 4j+4). Filled once per process
 * by module_load (a constructor: dlopen runs it once, under the loader's
 * lock), not in the per-environment Node-API init, which worker threads run
 * concurrently while another thread may already be hashing.
 */
static uint32_t PADDING_WK[64] __attribute__((aligned(16)));
static uint32_t PADDING_WK_HI[64] __attribute__((aligned(16)));

static uint32_t rotr32(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void init_padding_schedule(void) {
  uint32_t w[64] = { 0 };
  w[0] = 0x80000000u;
  w[15] = 512; /* the message length in bits */
  for (int t = 16; t < 64; t++) {
    uint32_t s0 = rotr32(w[t - 15], 7) ^ rotr32(w[t - 15], 18) ^ (w[t - 15] >> 3);
    uint32_t s1 = rotr32(w[t - 2], 17) ^ rotr32(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  for (int t = 0; t < 64; t++) PADDING_WK[t] = w[t] + K[t];
  for (int j = 0; j < 16; j++) {
    PADDING_WK_HI[4 * j] = PADDING_WK[4 * j + 2];
    PADDING_WK_HI[4 * j + 1] = PADDING_WK[4 * j + 3];
  }
}

/* The kernels a CPU may run, as bits of `kernels_here`. */
enum { KERNEL_AVX512 = 1, KERNEL_SHANI = 2 };

#if SSZTREE_X86
/* ---------------------------------------------------------------- avx512 */
#define AVX512 __attribute__((target("avx512f,avx512bw")))
#define ROR(x, n) _mm512_ror_epi32((x), (n))
#define XOR3(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0x96)
#define CH(e, f, g) _mm512_ternarylogic_epi32((e), (f), (g), 0xCA)
#define MAJ(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0xE8)
#define ADD(a, b) _mm512_add_epi32((a), (b))
/* Byte order: SHA-256 words are big-endian. */
#define BSWAP32X16 _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203)

/* One round; the caller rotates the names instead of moving registers. */
#define ROUND(a, b, c, d, e, f, g, h, wk)                                                    \
  do {                                                                                       \
    __m512i t1 = ADD(ADD(h, XOR3(ROR(e, 6), ROR(e, 11), ROR(e, 25))), ADD(CH(e, f, g), wk)); \
    __m512i t2 = ADD(XOR3(ROR(a, 2), ROR(a, 13), ROR(a, 22)), MAJ(a, b, c));                 \
    d = ADD(d, t1);                                                                          \
    h = ADD(t1, t2);                                                                         \
  } while (0)

#define EIGHT_ROUNDS(WK)                 \
  ROUND(a, b, c, d, e, f, g, h, WK(0));  \
  ROUND(h, a, b, c, d, e, f, g, WK(1));  \
  ROUND(g, h, a, b, c, d, e, f, WK(2));  \
  ROUND(f, g, h, a, b, c, d, e, WK(3));  \
  ROUND(e, f, g, h, a, b, c, d, WK(4));  \
  ROUND(d, e, f, g, h, a, b, c, WK(5));  \
  ROUND(c, d, e, f, g, h, a, b, WK(6));  \
  ROUND(b, c, d, e, f, g, h, a, WK(7))

/*
 * The first two stages of a transposition of 32-bit words, over `n` (8 or
 * 16) registers: 32-bit pairs, then 64-bit pairs, interleaved within each
 * 128-bit quarter. Afterwards quarter q of out[4g + j] holds word 4q + j of
 * rows 4g..4g+3 (j = 0..3), when row i was in[i].
 */
static inline AVX512 __attribute__((always_inline)) void interleave_quarters(__m512i out[], const __m512i in[], int n) {
  __m512i t[16];
  for (int i = 0; i < n; i += 2) {
    t[i] = _mm512_unpacklo_epi32(in[i], in[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(in[i], in[i + 1]);
  }
  for (int i = 0; i < n; i += 4) {
    out[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
    out[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
    out[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
    out[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
}

/*
 * r[i] = the sixteen words of message i  ->  r[t] = word t of messages
 * 0..15 (lane i): the two in-quarter stages, then 128-bit quarters across
 * registers.
 */
static inline AVX512 __attribute__((always_inline)) void transpose_16x16(__m512i r[16]) {
  __m512i t[16];
  interleave_quarters(r, r, 16);
  for (int j = 0; j < 4; j++) {
    t[j] = _mm512_shuffle_i32x4(r[j], r[4 + j], 0x88);
    t[4 + j] = _mm512_shuffle_i32x4(r[j], r[4 + j], 0xDD);
    t[8 + j] = _mm512_shuffle_i32x4(r[8 + j], r[12 + j], 0x88);
    t[12 + j] = _mm512_shuffle_i32x4(r[8 + j], r[12 + j], 0xDD);
  }
  for (int j = 0; j < 4; j++) {
    r[j] = _mm512_shuffle_i32x4(t[j], t[8 + j], 0x88);
    r[8 + j] = _mm512_shuffle_i32x4(t[j], t[8 + j], 0xDD);
    r[4 + j] = _mm512_shuffle_i32x4(t[4 + j], t[12 + j], 0x88);
    r[12 + j] = _mm512_shuffle_i32x4(t[4 + j], t[12 + j], 0xDD);
  }
}

/*
 * d[j] = word j of digests 0..15  ->  o[k] = digests 2k and 2k+1 (the 64
 * bytes they occupy in the output), so the group writes with plain stores.
 */
static inline AVX512 __attribute__((always_inline)) void transpose_digests(__m512i o[8], const __m512i d[8]) {
  __m512i t[8], u[8];
  interleave_quarters(u, d, 8);
  /* Quarter q of u[m] holds words 0-3 of digest 4q + m; of u[4 + m], words 4-7. */
  const __m512i order = _mm512_set_epi64(7, 6, 3, 2, 5, 4, 1, 0);
  for (int m = 0; m < 4; m++) {
    t[2 * m] = _mm512_permutexvar_epi64(order, _mm512_shuffle_i32x4(u[m], u[4 + m], 0x44));
    t[2 * m + 1] = _mm512_permutexvar_epi64(order, _mm512_shuffle_i32x4(u[m], u[4 + m], 0xEE));
  }
  /* t[2m] holds digests m and 4 + m; t[2m + 1] digests 8 + m and 12 + m (256 bits each). */
  for (int k = 0; k < 8; k++) {
    const int q = (2 * k) >> 2, m0 = (2 * k) & 3, m1 = (2 * k + 1) & 3;
    const __m512i lo = t[2 * m0 + (q >> 1)], hi = t[2 * m1 + (q >> 1)];
    o[k] = (q & 1) ? _mm512_shuffle_i64x2(lo, hi, 0xEE) : _mm512_shuffle_i64x2(lo, hi, 0x44);
  }
}

/* w[t] = word t of the sixteen messages at `in` (stride 64), in host order. */
static inline AVX512 __attribute__((always_inline)) void load_group16(__m512i w[16], const uint8_t *in) {
  for (int i = 0; i < 16; i++) w[i] = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(in + 64 * i)), BSWAP32X16);
  transpose_16x16(w);
}

/* Schedule words t..t+n-1 (t >= 16) of sixteen messages, in place: w holds the last sixteen words. */
static inline AVX512 __attribute__((always_inline)) void expand_schedule(__m512i w[16], int t, int n) {
  for (int j = t; j < t + n; j++) {
    __m512i x = w[(j - 15) & 15], y = w[(j - 2) & 15];
    __m512i s0 = XOR3(ROR(x, 7), ROR(x, 18), _mm512_srli_epi32(x, 3));
    __m512i s1 = XOR3(ROR(y, 17), ROR(y, 19), _mm512_srli_epi32(y, 10));
    w[j & 15] = ADD(ADD(w[j & 15], s0), ADD(w[(j - 7) & 15], s1));
  }
}

/* The sixteen digests (digest[j] = word j, big-endian) of the messages in w (consumed: it holds the schedule). */
static inline AVX512 __attribute__((always_inline)) void compress_group16(__m512i w[16], __m512i digest[8]) {
  __m512i a = _mm512_set1_epi32((int)IV[0]), b = _mm512_set1_epi32((int)IV[1]);
  __m512i c = _mm512_set1_epi32((int)IV[2]), d = _mm512_set1_epi32((int)IV[3]);
  __m512i e = _mm512_set1_epi32((int)IV[4]), f = _mm512_set1_epi32((int)IV[5]);
  __m512i g = _mm512_set1_epi32((int)IV[6]), h = _mm512_set1_epi32((int)IV[7]);
  /* Block 1: the message, its schedule expanded eight words at a time. */
  for (int t = 0; t < 64; t += 8) {
    if (t >= 16) expand_schedule(w, t, 8);
#define MESSAGE_WK(i) ADD(w[(t + (i)) & 15], _mm512_set1_epi32((int)K[t + (i)]))
    EIGHT_ROUNDS(MESSAGE_WK);
#undef MESSAGE_WK
  }
  a = ADD(a, _mm512_set1_epi32((int)IV[0])); b = ADD(b, _mm512_set1_epi32((int)IV[1]));
  c = ADD(c, _mm512_set1_epi32((int)IV[2])); d = ADD(d, _mm512_set1_epi32((int)IV[3]));
  e = ADD(e, _mm512_set1_epi32((int)IV[4])); f = ADD(f, _mm512_set1_epi32((int)IV[5]));
  g = ADD(g, _mm512_set1_epi32((int)IV[6])); h = ADD(h, _mm512_set1_epi32((int)IV[7]));
  const __m512i mid[8] = { a, b, c, d, e, f, g, h };
  /* Block 2: the constant padding block, schedule precomputed. */
  for (int t = 0; t < 64; t += 8) {
#define PADDING(i) _mm512_set1_epi32((int)PADDING_WK[t + (i)])
    EIGHT_ROUNDS(PADDING);
#undef PADDING
  }
  digest[0] = _mm512_shuffle_epi8(ADD(a, mid[0]), BSWAP32X16); digest[1] = _mm512_shuffle_epi8(ADD(b, mid[1]), BSWAP32X16);
  digest[2] = _mm512_shuffle_epi8(ADD(c, mid[2]), BSWAP32X16); digest[3] = _mm512_shuffle_epi8(ADD(d, mid[3]), BSWAP32X16);
  digest[4] = _mm512_shuffle_epi8(ADD(e, mid[4]), BSWAP32X16); digest[5] = _mm512_shuffle_epi8(ADD(f, mid[5]), BSWAP32X16);
  digest[6] = _mm512_shuffle_epi8(ADD(g, mid[6]), BSWAP32X16); digest[7] = _mm512_shuffle_epi8(ADD(h, mid[7]), BSWAP32X16);
}

/* Sixteen whole messages from `in` (stride 64) to `out` (stride 32). */
static AVX512 void hash_group16(uint8_t *out, const uint8_t *in) {
  __m512i w[16], digest[8], o[8];
  load_group16(w, in);
  compress_group16(w, digest);
  transpose_digests(o, digest);
  for (int k = 0; k < 8; k++) _mm512_storeu_si512((void *)(out + 64 * k), o[k]);
}

static AVX512 void sha256_layer_avx512(uint8_t *out, const uint8_t *in, size_t count) {
  size_t i = 0;
  for (; i + 16 <= count; i += 16) hash_group16(out + 32 * i, in + 64 * i);
  if (i < count) {
    /* The last 1..15 messages through a zero-padded group on the stack: read first, then written. */
    uint8_t staged_in[16 * 64], staged_out[16 * 32];
    memset(staged_in, 0, sizeof staged_in);
    memcpy(staged_in, in + 64 * i, 64 * (count - i));
    hash_group16(staged_out, staged_in);
    memcpy(out + 32 * i, staged_out, 32 * (count - i));
  }
}

/* ----------------------------------------------------------------- shani */
#define SHANI __attribute__((target("sha,avx2")))
/* Messages per batch of the pipelined kernel: four round chains cover SHA256RNDS2's latency. */
#define SHANI_LANES 4

static inline SHANI __attribute__((always_inline)) __m128i shani_bswap(void) {
  return _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
}

/* The initial state in SHA-NI's register layout: ABEF and CDGH. */
static inline SHANI __attribute__((always_inline)) void shani_iv(__m128i *abef, __m128i *cdgh) {
  const __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&IV[0]), 0xB1);
  const __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&IV[4]), 0x1B);
  *abef = _mm_alignr_epi8(abcd, efgh, 8);
  *cdgh = _mm_blend_epi16(efgh, abcd, 0xF0);
}

/* Writes the digest held as ABEF / CDGH to out[0, 32) in big-endian order. */
static inline SHANI __attribute__((always_inline)) void shani_store(uint8_t *out, __m128i abef, __m128i cdgh) {
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(_mm_blend_epi16(feba, dchg, 0xF0), shani_bswap()));
  _mm_storeu_si128((__m128i *)(out + 16), _mm_shuffle_epi8(_mm_alignr_epi8(dchg, feba, 8), shani_bswap()));
}

/*
 * Schedule words 4s..4s+3 of `n` messages: w[l][s] = W, wk[l][s] = W + K.
 * The batch kernel passes buffers in memory (indexed by batch parity, so the
 * compiler cannot keep them in registers): the schedule's own words then
 * reload from L1 instead of crowding out the round state, which has only
 * the sixteen xmm registers SHA-NI can name.
 */
static inline SHANI __attribute__((always_inline)) void shani_schedule_step(int s, int n, const uint8_t *in, __m128i w[][16], __m128i wk[][16]) {
  const __m128i k = _mm_loadu_si128((const __m128i *)&K[4 * s]);
#pragma GCC unroll 4
  for (int l = 0; l < n; l++) {
    __m128i x;
    if (s < 4) {
      x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 64 * l + 16 * s)), shani_bswap());
    } else {
      x = _mm_sha256msg1_epu32(w[l][s - 4], w[l][s - 3]);
      x = _mm_add_epi32(x, _mm_alignr_epi8(w[l][s - 1], w[l][s - 2], 4));
      x = _mm_sha256msg2_epu32(x, w[l][s - 1]);
    }
    w[l][s] = x;
    wk[l][s] = _mm_add_epi32(x, k);
  }
}

/* Four rounds of message l from a W + K quadruple in memory (the pair for the second two rounds loaded from its upper half). */
#define SHANI_ROUNDS4(abef, cdgh, quad)                                                                          \
  do {                                                                                                          \
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, _mm_load_si128(quad));                                             \
    abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_loadl_epi64((const __m128i *)((const uint32_t *)(quad) + 2))); \
  } while (0)

/*
 * Hashes `n` (1..SHANI_LANES) messages whose block-1 schedule is in
 * wk[0..n), while (if `next` is not NULL) scheduling the following
 * SHANI_LANES messages from `next` into next_wk: one schedule step after
 * every second round step, so the two dependency chains overlap.
 */
static inline SHANI __attribute__((always_inline)) void shani_rounds(uint8_t *out, int n, __m128i wk[][16], const uint8_t *next, __m128i next_w[][16], __m128i next_wk[][16]) {
  __m128i abef[SHANI_LANES], cdgh[SHANI_LANES], mid_abef[SHANI_LANES], mid_cdgh[SHANI_LANES], iv_abef, iv_cdgh;
  shani_iv(&iv_abef, &iv_cdgh);
  for (int l = 0; l < n; l++) { abef[l] = iv_abef; cdgh[l] = iv_cdgh; }
#pragma GCC unroll 16
  for (int i = 0; i < 16; i++) {
#pragma GCC unroll 4
    for (int l = 0; l < n; l++) SHANI_ROUNDS4(abef[l], cdgh[l], &wk[l][i]);
    if (next != NULL && (i & 1) == 0) shani_schedule_step(i / 2, SHANI_LANES, next, next_w, next_wk);
  }
  for (int l = 0; l < n; l++) {
    mid_abef[l] = abef[l] = _mm_add_epi32(abef[l], iv_abef);
    mid_cdgh[l] = cdgh[l] = _mm_add_epi32(cdgh[l], iv_cdgh);
  }
#pragma GCC unroll 16
  for (int i = 0; i < 16; i++) {
    const __m128i lo = _mm_load_si128((const __m128i *)&PADDING_WK[4 * i]);
    const __m128i hi = _mm_load_si128((const __m128i *)&PADDING_WK_HI[4 * i]);
    /* All first pairs, then all second pairs: the padding words are shared. */
#pragma GCC unroll 4
    for (int l = 0; l < n; l++) cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], lo);
#pragma GCC unroll 4
    for (int l = 0; l < n; l++) abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], hi);
    if (next != NULL && (i & 1) == 0) shani_schedule_step(8 + i / 2, SHANI_LANES, next, next_w, next_wk);
  }
  for (int l = 0; l < n; l++) shani_store(out + 32 * l, _mm_add_epi32(abef[l], mid_abef[l]), _mm_add_epi32(cdgh[l], mid_cdgh[l]));
}

/* `n` messages (a compile-time constant once inlined): scheduled, then hashed side by side. */
static inline SHANI __attribute__((always_inline)) void shani_few(uint8_t *out, const uint8_t *in, int n) {
  __m128i w[SHANI_LANES][16], wk[SHANI_LANES][16] __attribute__((aligned(16)));
#pragma GCC unroll 16
  for (int s = 0; s < 16; s++) shani_schedule_step(s, n, in, w, wk);
  shani_rounds(out, n, wk, NULL, w, wk);
}

/* The last 1..3 messages of a layer (or the whole of a small one). */
static SHANI void shani_tail(uint8_t *out, const uint8_t *in, int n) {
  if (n == 1) shani_few(out, in, 1);
  else if (n == 2) shani_few(out, in, 2);
  else shani_few(out, in, 3);
}

static SHANI void sha256_layer_shani(uint8_t *out, const uint8_t *in, size_t count) {
  /* Double-buffered: batch b's schedule in [b & 1] while batch b + 1's is written to the other half. */
  __m128i w[2][SHANI_LANES][16], wk[2][SHANI_LANES][16] __attribute__((aligned(16)));
  const size_t batches = count / SHANI_LANES;
  if (batches > 0) {
    for (int s = 0; s < 16; s++) shani_schedule_step(s, SHANI_LANES, in, w[0], wk[0]);
  }
  for (size_t b = 0; b < batches; b++) {
    const uint8_t *next = b + 1 < batches ? in + 64 * SHANI_LANES * (b + 1) : NULL;
    shani_rounds(out + 32 * SHANI_LANES * b, SHANI_LANES, wk[b & 1], next, w[(b + 1) & 1], wk[(b + 1) & 1]);
  }
  const size_t done = SHANI_LANES * batches;
  if (done < count) shani_tail(out + 32 * done, in + 64 * done, (int)(count - done));
}

/* ------------------------------------------------------------ CPU checks */
/* XCR0: which register state the OS saves (SSE, AVX, and the three AVX-512 parts). */
static uint64_t os_saved_state(void) {
  uint32_t a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return 0;
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
}

static int cpu_kernels(void) {
  uint32_t a, b, c, d;
  if (__get_cpuid_max(0, NULL) < 7) return 0;
  __cpuid_count(7, 0, a, b, c, d);
  const uint64_t xcr0 = os_saved_state();
  const int avx_state = (xcr0 & 0x6) == 0x6;
  const int avx512_state = avx_state && (xcr0 & 0xE0) == 0xE0;
  int kernels = 0;
  if (avx512_state && (b & bit_AVX512F) && (b & bit_AVX512BW)) kernels |= KERNEL_AVX512;
  if (avx_state && (b & bit_SHA) && (b & bit_AVX2)) kernels |= KERNEL_SHANI;
  return kernels;
}
#else
static void sha256_layer_avx512(uint8_t *out, const uint8_t *in, size_t count) { (void)out; (void)in; (void)count; }
static void sha256_layer_shani(uint8_t *out, const uint8_t *in, size_t count) { (void)out; (void)in; (void)count; }
static int cpu_kernels(void) { return 0; }
#endif

/* Which kernels this CPU and OS run (KERNEL_* bits); set once by module_load. */
static int kernels_here;

__attribute__((constructor)) static void module_load(void) {
  init_padding_schedule();
  kernels_here = cpu_kernels();
}

#ifndef SSZTREE_KERNELS_ONLY
#include <node_api.h>

/*
 * The bytes of a Uint8Array argument; NULL (with a pending JS exception) if
 * it is not one. napi_get_typedarray_info itself fails on anything but a
 * typed array, so no separate napi_is_typedarray call (a pair hash is one
 * call of a few hundred ns, and each Node-API call is a noticeable part).
 */
static uint8_t *bytes_of(napi_env env, napi_value value, size_t *length, const char *what) {
  napi_typedarray_type type;
  void *data = NULL;
  if (napi_get_typedarray_info(env, value, &type, length, &data, NULL, NULL) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", what);
    return NULL;
  }
  return (uint8_t *)data;
}

typedef void (*layer_kernel)(uint8_t *out, const uint8_t *in, size_t count);

/* The shared body of the hashing functions: checks the arguments, then runs `kernel` (bit `needs`). */
static napi_value hash_layer(napi_env env, napi_callback_info info, layer_kernel kernel, int needs, const char *name) {
  size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  if (argc < 2) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "hashInto(input, output): two Uint8Arrays expected");
    return NULL;
  }
  size_t in_length = 0, out_length = 0;
  const uint8_t *in = bytes_of(env, argv[0], &in_length, "hashInto: input must be a Uint8Array");
  if (in == NULL) return NULL;
  uint8_t *out = bytes_of(env, argv[1], &out_length, "hashInto: output must be a Uint8Array");
  if (out == NULL) return NULL;
  if (in_length % 64 != 0 || out_length * 2 != in_length) {
    napi_throw_range_error(env, "ERR_OUT_OF_RANGE", "hashInto: input must be 64-byte messages and output 32 bytes per message");
    return NULL;
  }
  if (!(kernels_here & needs)) {
    napi_throw_error(env, "ERR_UNSUPPORTED", name);
    return NULL;
  }
  kernel(out, in, in_length / 64);
  return NULL;
}

/* avx512(input, output) and shani(input, output): one kernel each. */
static napi_value hash_avx512(napi_env env, napi_callback_info info) {
  return hash_layer(env, info, sha256_layer_avx512, KERNEL_AVX512, "avx512: this CPU or OS lacks AVX-512 (F and BW)");
}
static napi_value hash_shani(napi_env env, napi_callback_info info) {
  return hash_layer(env, info, sha256_layer_shani, KERNEL_SHANI, "shani: this CPU or OS lacks SHA-NI and AVX2");
}

/* hashInto(input, output): the avx512 kernel where the CPU has it, else shani (for the build's known-answer check). */
static napi_value hash_into(napi_env env, napi_callback_info info) {
  if (kernels_here & KERNEL_AVX512) return hash_avx512(env, info);
  return hash_shani(env, info);
}

/* supported(): whether this CPU and OS run any of the kernels. */
static napi_value supported(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  napi_get_boolean(env, kernels_here != 0, &result);
  return result;
}

/* kernels(): the names of the kernels this CPU and OS run. */
static napi_value kernels(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value list, name;
  uint32_t n = 0;
  napi_create_array(env, &list);
  if (kernels_here & KERNEL_AVX512) {
    napi_create_string_utf8(env, "avx512", NAPI_AUTO_LENGTH, &name);
    napi_set_element(env, list, n++, name);
  }
  if (kernels_here & KERNEL_SHANI) {
    napi_create_string_utf8(env, "shani", NAPI_AUTO_LENGTH, &name);
    napi_set_element(env, list, n++, name);
  }
  return list;
}

static void export_function(napi_env env, napi_value exports, const char *name, napi_callback cb) {
  napi_value fn;
  napi_create_function(env, name, NAPI_AUTO_LENGTH, cb, NULL, &fn);
  napi_set_named_property(env, exports, name, fn);
}

NAPI_MODULE_INIT() {
  export_function(env, exports, "hashInto", hash_into);
  export_function(env, exports, "avx512", hash_avx512);
  export_function(env, exports, "shani", hash_shani);
  export_function(env, exports, "supported", supported);
  export_function(env, exports, "kernels", kernels);
  return exports;
}
#endif
