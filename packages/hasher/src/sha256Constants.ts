/**
 * SHA-256 constants (FIPS 180-4 §4.2.2, §5.3.3) and the precomputed schedule of
 * the padding block that follows every 64-byte message.
 *
 * A 64-byte message is hashed as two blocks: the data block, then a constant
 * padding block (0x80, zeros, bit length 512). The second block's message
 * schedule never changes, so `PADDING_WK[t] = W[t] + K[t]` is computed once
 * here and every backend adds it in place of the per-round schedule work —
 * roughly 40% of the hashing cost of a 64-byte input saved.
 * @module
 */

/** Round constants K[0..63] (FIPS 180-4 §4.2.2). */
export const K = /* @__PURE__ */ Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Initial hash value H(0) (FIPS 180-4 §5.3.3). */
export const IV = /* @__PURE__ */ Uint32Array.from([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** The padding block of a 64-byte message: 0x80, zeros, then the bit length 512 big-endian. */
export const PADDING_BLOCK = /* @__PURE__ */ (() => {
  const block = new Uint8Array(64);
  block[0] = 0x80;
  block[62] = 0x02; // 512 = 0x0200
  return block;
})();

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** W[t] + K[t] (mod 2^32) for the padding block, t = 0..63. */
export const PADDING_WK = /* @__PURE__ */ (() => {
  const w = new Uint32Array(64);
  for (let t = 0; t < 16; t++) {
    w[t] = (PADDING_BLOCK[4 * t]! << 24) | (PADDING_BLOCK[4 * t + 1]! << 16) | (PADDING_BLOCK[4 * t + 2]! << 8) | PADDING_BLOCK[4 * t + 3]!;
  }
  for (let t = 16; t < 64; t++) {
    const x = w[t - 15]!;
    const y = w[t - 2]!;
    const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
    const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
    w[t] = (s1 + w[t - 7]! + s0 + w[t - 16]!) | 0;
  }
  const wk = new Uint32Array(64);
  for (let t = 0; t < 64; t++) wk[t] = (w[t]! + K[t]!) | 0;
  return wk;
})();
