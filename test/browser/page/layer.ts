/** The deterministic layer the page hashes through the pool; shared by the page and the test so both hash the same bytes. */
export function layerInput(n: number): Uint8Array {
  const input = new Uint8Array(64 * n);
  for (let i = 0; i < input.length; i++) input[i] = (i * 131 + (i >>> 9)) & 0xff;
  return input;
}
