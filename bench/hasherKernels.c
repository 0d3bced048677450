/*
 * The native kernels' lab: times the two kernels of
 * packages/hasher/native/sha256x16.c against the alternatives that were
 * tried and dropped, in C (no Node-API call in the timing), on the CPU it
 * runs on. Every kernel is first checked byte for byte against a scalar
 * reference (0..70 messages, unaligned buffers, and an in-place fold).
 *
 *   cc -O3 -std=gnu11 -o /tmp/hasher-kernels bench/hasherKernels.c
 *   /tmp/hasher-kernels [--rounds 60] [--sizes 10,14,18,20] [kernel ...]
 *
 * Per size, each round runs every kernel once (order rotated by round) on
 * the same layer, timed with the thread's CPU clock (so time the thread was
 * descheduled on a shared machine does not count); it prints min and median
 * ns per message and the median of the per-round ratios to the first
 * kernel named (> 1: faster than it).
 *
 * Kernels: the two shipped ones, `avx512` and `shani`, and
 *   avx512-gather-scatter  sixteen lanes, input gathered, digests scattered
 *   avx512-gather          input gathered, digests transposed and stored
 *   avx512-prefetch        `avx512` with prefetcht0 four groups ahead
 *   avx512-stream          `avx512` with non-temporal stores (64-byte aligned output)
 *   shani-prefetch8/32     `shani` with prefetcht0 8 / 32 batches (2 / 8 KiB) ahead
 *   shani-x2, shani-x4     SHA-NI, 2 / 4 messages interleaved, schedule in step with the rounds
 *   mixed                  one instruction stream: 16 AVX-512 lanes + 4 SHA-NI messages
 *   hybrid                 AVX-512 computes 16 schedules (W + K), SHA-NI runs the rounds
 * (x86-64 with AVX-512 F/BW and SHA-NI + AVX2 only; a kernel the CPU lacks is skipped.)
 */
#define SSZTREE_KERNELS_ONLY 1
#include "../packages/hasher/native/sha256x16.c"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if !SSZTREE_X86
int main(void) { puts("hasherKernels: x86-64 only"); return 0; }
#else

/* ------------------------------------------------------------ reference */
static void reference_one(uint8_t *out, const uint8_t *in) {
  uint32_t st[8];
  memcpy(st, IV, sizeof st);
  for (int block = 0; block < 2; block++) {
    uint32_t w[64];
    for (int t = 0; t < 16; t++) {
      const uint8_t *p = in + 4 * t;
      w[t] = block == 1 ? (t == 0 ? 0x80000000u : t == 15 ? 512 : 0) : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    }
    for (int t = 16; t < 64; t++) {
      uint32_t s0 = rotr32(w[t - 15], 7) ^ rotr32(w[t - 15], 18) ^ (w[t - 15] >> 3);
      uint32_t s1 = rotr32(w[t - 2], 17) ^ rotr32(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
    for (int t = 0; t < 64; t++) {
      uint32_t t1 = h + (rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
      uint32_t t2 = (rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    st[0] += a; st[1] += b; st[2] += c; st[3] += d; st[4] += e; st[5] += f; st[6] += g; st[7] += h;
  }
  for (int j = 0; j < 8; j++) for (int k = 0; k < 4; k++) out[4 * j + k] = (uint8_t)(st[j] >> (24 - 8 * k));
}

/* ------------------------------------------------- AVX-512 alternatives */
static inline AVX512 __attribute__((always_inline)) __m512i lane_offsets(int shift) {
  return _mm512_slli_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), shift);
}
static inline AVX512 __attribute__((always_inline)) void gather_group16(__m512i w[16], const uint8_t *in, __mmask16 lanes) {
  for (int t = 0; t < 16; t++)
    w[t] = _mm512_shuffle_epi8(_mm512_mask_i32gather_epi32(_mm512_setzero_si512(), lanes, lane_offsets(6), (const void *)(in + 4 * t), 1), BSWAP32X16);
}
static inline AVX512 __attribute__((always_inline)) void scatter_group16(uint8_t *out, const __m512i digest[8], __mmask16 lanes) {
  for (int j = 0; j < 8; j++) _mm512_mask_i32scatter_epi32((void *)(out + 4 * j), lanes, lane_offsets(5), digest[j], 1);
}
static AVX512 void gather_scatter_group(uint8_t *out, const uint8_t *in, __mmask16 lanes) {
  __m512i w[16], digest[8];
  gather_group16(w, in, lanes);
  compress_group16(w, digest);
  scatter_group16(out, digest, lanes);
}
static AVX512 void k_avx512_gather_scatter(uint8_t *out, const uint8_t *in, size_t count) {
  size_t i = 0;
  for (; i + 16 <= count; i += 16) gather_scatter_group(out + 32 * i, in + 64 * i, 0xFFFF);
  if (i < count) gather_scatter_group(out + 32 * i, in + 64 * i, (__mmask16)((1u << (count - i)) - 1));
}
static AVX512 void k_avx512_gather(uint8_t *out, const uint8_t *in, size_t count) {
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    __m512i w[16], digest[8], o[8];
    gather_group16(w, in + 64 * i, 0xFFFF);
    compress_group16(w, digest);
    transpose_digests(o, digest);
    for (int k = 0; k < 8; k++) _mm512_storeu_si512((void *)(out + 32 * i + 64 * k), o[k]);
  }
  if (i < count) sha256_layer_avx512(out + 32 * i, in + 64 * i, count - i);
}
static AVX512 void k_avx512_prefetch(uint8_t *out, const uint8_t *in, size_t count) {
  enum { AHEAD = 4 };
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    if (i + 16 * (AHEAD + 1) <= count)
      for (int l = 0; l < 16; l++) _mm_prefetch((const char *)(in + 64 * (i + 16 * AHEAD + l)), _MM_HINT_T0);
    hash_group16(out + 32 * i, in + 64 * i);
  }
  if (i < count) sha256_layer_avx512(out + 32 * i, in + 64 * i, count - i);
}
static AVX512 void k_avx512_stream(uint8_t *out, const uint8_t *in, size_t count) {
  if (((uintptr_t)out & 63) != 0) { sha256_layer_avx512(out, in, count); return; }
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    __m512i w[16], digest[8], o[8];
    load_group16(w, in + 64 * i);
    compress_group16(w, digest);
    transpose_digests(o, digest);
    for (int k = 0; k < 8; k++) _mm512_stream_si512((void *)(out + 32 * i + 64 * k), o[k]);
  }
  _mm_sfence();
  if (i < count) sha256_layer_avx512(out + 32 * i, in + 64 * i, count - i);
}

/* ------------------------------------------------- SHA-NI alternatives */
/* N messages, the schedule computed in step with the rounds (no pipelining): one step of all N per four rounds. */
#define SHANI_IN_STEP(NAME, N)                                                                                   \
  static SHANI void NAME##_batch(uint8_t *out, const uint8_t *in) {                                             \
    __m128i iv_abef, iv_cdgh, abef[N], cdgh[N], mid_abef[N], mid_cdgh[N], m[N][4];                              \
    shani_iv(&iv_abef, &iv_cdgh);                                                                               \
    for (int l = 0; l < N; l++) {                                                                               \
      abef[l] = iv_abef; cdgh[l] = iv_cdgh;                                                                     \
      for (int q = 0; q < 4; q++) m[l][q] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 64 * l + 16 * q)), shani_bswap()); \
    }                                                                                                           \
    _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++) {                                                     \
      const __m128i k = _mm_loadu_si128((const __m128i *)&K[4 * i]);                                            \
      _Pragma("GCC unroll 8") for (int l = 0; l < N; l++) {                                                     \
        if (i >= 4) {                                                                                           \
          __m128i x = _mm_sha256msg1_epu32(m[l][i & 3], m[l][(i + 1) & 3]);                                     \
          x = _mm_add_epi32(x, _mm_alignr_epi8(m[l][(i + 3) & 3], m[l][(i + 2) & 3], 4));                       \
          m[l][i & 3] = _mm_sha256msg2_epu32(x, m[l][(i + 3) & 3]);                                             \
        }                                                                                                       \
        const __m128i wk = _mm_add_epi32(m[l][i & 3], k);                                                       \
        cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], wk);                                                  \
        abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], _mm_shuffle_epi32(wk, 0x0E));                         \
      }                                                                                                         \
    }                                                                                                           \
    for (int l = 0; l < N; l++) {                                                                               \
      mid_abef[l] = abef[l] = _mm_add_epi32(abef[l], iv_abef);                                                  \
      mid_cdgh[l] = cdgh[l] = _mm_add_epi32(cdgh[l], iv_cdgh);                                                  \
    }                                                                                                           \
    _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++) {                                                     \
      const __m128i lo = _mm_load_si128((const __m128i *)&PADDING_WK[4 * i]);                                   \
      const __m128i hi = _mm_load_si128((const __m128i *)&PADDING_WK_HI[4 * i]);                                \
      _Pragma("GCC unroll 8") for (int l = 0; l < N; l++) {                                                     \
        cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], lo);                                                  \
        abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], hi);                                                  \
      }                                                                                                         \
    }                                                                                                           \
    for (int l = 0; l < N; l++) shani_store(out + 32 * l, _mm_add_epi32(abef[l], mid_abef[l]), _mm_add_epi32(cdgh[l], mid_cdgh[l])); \
  }                                                                                                             \
  static SHANI void NAME(uint8_t *out, const uint8_t *in, size_t count) {                                       \
    size_t i = 0;                                                                                               \
    for (; i + N <= count; i += N) NAME##_batch(out + 32 * i, in + 64 * i);                                     \
    if (i < count) sha256_layer_shani(out + 32 * i, in + 64 * i, count - i);                                    \
  }
SHANI_IN_STEP(k_shani_x2, 2)
SHANI_IN_STEP(k_shani_x4, 4)

/* `shani` with prefetcht0 of the input AHEAD batches (4 messages each) ahead. */
#define SHANI_PREFETCH(NAME, AHEAD)                                                                                  \
  static SHANI void NAME(uint8_t *out, const uint8_t *in, size_t count) {                                           \
    __m128i w[2][SHANI_LANES][16], wk[2][SHANI_LANES][16] __attribute__((aligned(16)));                             \
    const size_t batches = count / SHANI_LANES;                                                                     \
    if (batches > 0)                                                                                                \
      for (int s = 0; s < 16; s++) shani_schedule_step(s, SHANI_LANES, in, w[0], wk[0]);                            \
    for (size_t b = 0; b < batches; b++) {                                                                          \
      if (b + (AHEAD) < batches)                                                                                    \
        for (int l = 0; l < SHANI_LANES; l++) _mm_prefetch((const char *)(in + 64 * (SHANI_LANES * (b + (AHEAD)) + l)), _MM_HINT_T0); \
      const uint8_t *next = b + 1 < batches ? in + 64 * SHANI_LANES * (b + 1) : NULL;                               \
      shani_rounds(out + 32 * SHANI_LANES * b, SHANI_LANES, wk[b & 1], next, w[(b + 1) & 1], wk[(b + 1) & 1]);      \
    }                                                                                                               \
    const size_t done = SHANI_LANES * batches;                                                                      \
    if (done < count) shani_tail(out + 32 * done, in + 64 * done, (int)(count - done));                             \
  }
SHANI_PREFETCH(k_shani_prefetch8, 8)
SHANI_PREFETCH(k_shani_prefetch32, 32)

/* --------------------------------------------------- mixed and hybrid */
#define BOTH __attribute__((target("avx512f,avx512bw,sha,avx2")))

/* Sixteen AVX-512 lanes and four SHA-NI messages in one instruction stream: two SHA-NI round steps per eight AVX-512 rounds. */
static BOTH void mixed_batch(uint8_t *out, const uint8_t *in) {
  const uint8_t *sin = in + 64 * 16;
  __m128i w4[4][16], wk4[4][16] __attribute__((aligned(16)));
  for (int s = 0; s < 16; s++) shani_schedule_step(s, 4, sin, w4, wk4);
  __m128i iv_abef, iv_cdgh, abef[4], cdgh[4], mid_abef[4], mid_cdgh[4];
  shani_iv(&iv_abef, &iv_cdgh);
  for (int l = 0; l < 4; l++) { abef[l] = iv_abef; cdgh[l] = iv_cdgh; }
#define SHA_STEP(i)                                                                                   \
  do {                                                                                                \
    if ((i) < 16) {                                                                                   \
      for (int l = 0; l < 4; l++) SHANI_ROUNDS4(abef[l], cdgh[l], &wk4[l][(i)]);                      \
      if ((i) == 15) for (int l = 0; l < 4; l++) {                                                    \
        mid_abef[l] = abef[l] = _mm_add_epi32(abef[l], iv_abef);                                      \
        mid_cdgh[l] = cdgh[l] = _mm_add_epi32(cdgh[l], iv_cdgh);                                      \
      }                                                                                               \
    } else {                                                                                          \
      const __m128i lo = _mm_load_si128((const __m128i *)&PADDING_WK[4 * ((i) - 16)]);                \
      const __m128i hi = _mm_load_si128((const __m128i *)&PADDING_WK_HI[4 * ((i) - 16)]);             \
      for (int l = 0; l < 4; l++) {                                                                   \
        cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], lo);                                        \
        abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], hi);                                        \
      }                                                                                               \
    }                                                                                                 \
  } while (0)
  __m512i w[16], digest[8], o[8];
  load_group16(w, in);
  __m512i a = _mm512_set1_epi32((int)IV[0]), b = _mm512_set1_epi32((int)IV[1]);
  __m512i c = _mm512_set1_epi32((int)IV[2]), d = _mm512_set1_epi32((int)IV[3]);
  __m512i e = _mm512_set1_epi32((int)IV[4]), f = _mm512_set1_epi32((int)IV[5]);
  __m512i g = _mm512_set1_epi32((int)IV[6]), h = _mm512_set1_epi32((int)IV[7]);
#pragma GCC unroll 8
  for (int t = 0; t < 64; t += 8) {
    if (t >= 16) expand_schedule(w, t, 8);
    SHA_STEP(t / 4);
#define MESSAGE_WK(i) ADD(w[(t + (i)) & 15], _mm512_set1_epi32((int)K[t + (i)]))
    EIGHT_ROUNDS(MESSAGE_WK);
#undef MESSAGE_WK
    SHA_STEP(t / 4 + 1);
  }
  a = ADD(a, _mm512_set1_epi32((int)IV[0])); b = ADD(b, _mm512_set1_epi32((int)IV[1]));
  c = ADD(c, _mm512_set1_epi32((int)IV[2])); d = ADD(d, _mm512_set1_epi32((int)IV[3]));
  e = ADD(e, _mm512_set1_epi32((int)IV[4])); f = ADD(f, _mm512_set1_epi32((int)IV[5]));
  g = ADD(g, _mm512_set1_epi32((int)IV[6])); h = ADD(h, _mm512_set1_epi32((int)IV[7]));
  const __m512i mid[8] = { a, b, c, d, e, f, g, h };
#pragma GCC unroll 8
  for (int t = 0; t < 64; t += 8) {
    SHA_STEP(16 + t / 4);
#define PADDING(i) _mm512_set1_epi32((int)PADDING_WK[t + (i)])
    EIGHT_ROUNDS(PADDING);
#undef PADDING
    SHA_STEP(16 + t / 4 + 1);
  }
#undef SHA_STEP
  const __m512i sum[8] = { ADD(a, mid[0]), ADD(b, mid[1]), ADD(c, mid[2]), ADD(d, mid[3]), ADD(e, mid[4]), ADD(f, mid[5]), ADD(g, mid[6]), ADD(h, mid[7]) };
  for (int j = 0; j < 8; j++) digest[j] = _mm512_shuffle_epi8(sum[j], BSWAP32X16);
  transpose_digests(o, digest);
  for (int k = 0; k < 8; k++) _mm512_storeu_si512((void *)(out + 64 * k), o[k]);
  for (int l = 0; l < 4; l++) shani_store(out + 32 * (16 + l), _mm_add_epi32(abef[l], mid_abef[l]), _mm_add_epi32(cdgh[l], mid_cdgh[l]));
}
static BOTH void k_mixed(uint8_t *out, const uint8_t *in, size_t count) {
  size_t i = 0;
  for (; i + 20 <= count; i += 20) mixed_batch(out + 32 * i, in + 64 * i);
  if (i < count) sha256_layer_shani(out + 32 * i, in + 64 * i, count - i);
}

/* AVX-512 computes W + K of sixteen messages (transposed back per message); SHA-NI runs their rounds, four at a time. */
static BOTH void k_hybrid(uint8_t *out, const uint8_t *in, size_t count) {
  __m128i wk[16][16] __attribute__((aligned(64)));
  __m128i unused_w[4][16];
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    __m512i w[16], q[16];
    load_group16(w, in + 64 * i);
    for (int part = 0; part < 4; part++) {
      if (part > 0) expand_schedule(w, 16 * part, 16);
      for (int j = 16 * part; j < 16 * part + 16; j++) q[j & 15] = ADD(w[j & 15], _mm512_set1_epi32((int)K[j]));
      transpose_16x16(q);
      for (int l = 0; l < 16; l++) _mm512_store_si512((void *)&wk[l][4 * part], q[l]);
    }
    for (int b = 0; b < 4; b++) shani_rounds(out + 32 * (i + 4 * b), 4, &wk[4 * b], NULL, unused_w, &wk[4 * b]);
  }
  if (i < count) sha256_layer_shani(out + 32 * i, in + 64 * i, count - i);
}

/* ---------------------------------------------------------------- timing */
typedef void (*kernel_fn)(uint8_t *out, const uint8_t *in, size_t count);
struct kernel { const char *name; kernel_fn fn; int needs; };
static const struct kernel KERNELS[] = {
  { "avx512", sha256_layer_avx512, KERNEL_AVX512 },
  { "shani", sha256_layer_shani, KERNEL_SHANI },
  { "avx512-gather-scatter", k_avx512_gather_scatter, KERNEL_AVX512 },
  { "avx512-gather", k_avx512_gather, KERNEL_AVX512 },
  { "avx512-prefetch", k_avx512_prefetch, KERNEL_AVX512 },
  { "avx512-stream", k_avx512_stream, KERNEL_AVX512 },
  { "shani-prefetch8", k_shani_prefetch8, KERNEL_SHANI },
  { "shani-prefetch32", k_shani_prefetch32, KERNEL_SHANI },
  { "shani-x2", k_shani_x2, KERNEL_SHANI },
  { "shani-x4", k_shani_x4, KERNEL_SHANI },
  { "mixed", k_mixed, KERNEL_AVX512 | KERNEL_SHANI },
  { "hybrid", k_hybrid, KERNEL_AVX512 | KERNEL_SHANI },
};
enum { KERNEL_COUNT = sizeof KERNELS / sizeof KERNELS[0] };

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static int by_value(const void *x, const void *y) {
  const double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}
static double median_of(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Byte-identical to the reference on 0..70 messages (odd offsets) and on an in-place fold of 70. */
static int check(const struct kernel *k) {
  enum { MAX = 70 };
  static uint8_t in[64 * MAX + 8], out[32 * MAX + 8], expected[32 * MAX], fold[64 * MAX];
  for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)(i * 131 + 7);
  for (int n = 0; n <= MAX; n++) {
    for (int i = 0; i < n; i++) reference_one(expected + 32 * i, in + 3 + 64 * i);
    k->fn(out + 1, in + 3, (size_t)n);
    if (memcmp(out + 1, expected, 32 * (size_t)n) != 0) return 0;
  }
  memcpy(fold, in + 3, sizeof fold);
  k->fn(fold, fold, MAX);
  return memcmp(fold, expected, 32 * MAX) == 0;
}

int main(int argc, char **argv) {
  int rounds = 60, sizes[32], size_count = 0, chosen[KERNEL_COUNT], chosen_count = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--rounds") && a + 1 < argc) rounds = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--sizes") && a + 1 < argc) {
      for (char *p = strtok(argv[++a], ","); p != NULL && size_count < 32; p = strtok(NULL, ",")) sizes[size_count++] = atoi(p);
    } else {
      for (int k = 0; k < KERNEL_COUNT; k++) if (!strcmp(argv[a], KERNELS[k].name)) chosen[chosen_count++] = k;
    }
  }
  if (size_count == 0) { const int d[] = { 4, 8, 10, 14, 18, 20 }; for (int i = 0; i < 6; i++) sizes[size_count++] = d[i]; }
  if (chosen_count == 0) for (int k = 0; k < KERNEL_COUNT; k++) chosen[chosen_count++] = k;
  int usable[KERNEL_COUNT], usable_count = 0;
  for (int c = 0; c < chosen_count; c++) {
    const struct kernel *k = &KERNELS[chosen[c]];
    if ((kernels_here & k->needs) != k->needs) { printf("%s: skipped (this CPU lacks it)\n", k->name); continue; }
    if (!check(k)) { printf("%s: WRONG DIGESTS\n", k->name); return 1; }
    usable[usable_count++] = chosen[c];
  }
  printf("all %d kernels match the reference\n", usable_count);
  if (usable_count == 0 || rounds < 1) return 0;
  printf("%d rounds per size, thread CPU time\n", rounds);
  int max_exp = 0;
  for (int s = 0; s < size_count; s++) if (sizes[s] > max_exp) max_exp = sizes[s];
  const size_t max_n = (size_t)1 << max_exp;
  uint8_t *in = aligned_alloc(64, 64 * max_n), *out = aligned_alloc(64, 32 * max_n);
  for (size_t i = 0; i < 64 * max_n; i++) in[i] = (uint8_t)(i * 2654435761u >> 13);
  double *t = malloc(sizeof(double) * (size_t)rounds * KERNEL_COUNT), *ratio = malloc(sizeof(double) * (size_t)rounds);
  for (int s = 0; s < size_count; s++) {
    const size_t n = (size_t)1 << sizes[s];
    const size_t reps = n >= (1u << 16) ? 1 : (1u << 16) / n; /* about 2 ms of work per sample */
    for (int r = 0; r < rounds; r++) {
      for (int c0 = 0; c0 < usable_count; c0++) {
        const int c = (c0 + r) % usable_count;
        const double start = cpu_seconds();
        for (size_t j = 0; j < reps; j++) KERNELS[usable[c]].fn(out, in, n);
        t[c * rounds + r] = (cpu_seconds() - start) * 1e9 / (double)(reps * n);
      }
    }
    printf("2^%d messages:\n", sizes[s]);
    double paired[KERNEL_COUNT];
    for (int c = 0; c < usable_count; c++) { /* before any sorting: round r against round r */
      for (int r = 0; r < rounds; r++) ratio[r] = t[r] / t[c * rounds + r];
      paired[c] = median_of(ratio, rounds);
    }
    for (int c = 0; c < usable_count; c++) {
      const double med = median_of(t + c * rounds, rounds);
      printf("  %-22s min %6.2f  median %6.2f ns/msg   x%.3f vs %s\n", KERNELS[usable[c]].name, t[c * rounds], med, paired[c], KERNELS[usable[0]].name);
    }
    fflush(stdout);
  }
  free(t); free(ratio); free(in); free(out);
  return 0;
}
#endif
