/**
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), table-driven, and
 * the snappy framing format's masked form of it.
 *
 * Invariant: `crc32c` equals the standard CRC-32C (check value
 * crc32c("123456789") = 0xE3069283); results are unsigned 32-bit numbers.
 * @module
 */

const TABLE: Uint32Array = /* @__PURE__ */ (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32C of `data[start, end)`. */
export function crc32c(data: Uint8Array, start = 0, end = data.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = (TABLE[(c ^ (data[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The framing format stores CRCs masked (rotated right by 15, plus a constant) so CRCs of CRCs stay well mixed. */
export function maskedCrc32c(data: Uint8Array, start = 0, end = data.length): number {
  const c = crc32c(data, start, end);
  return ((((c >>> 15) | (c << 17)) >>> 0) + 0xa282ead8) >>> 0;
}
