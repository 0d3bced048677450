/**
 * `noble` backend: the reference. It drives the SHA-256 compression function
 * of `@noble/hashes` directly — initial state, the data block, the fixed
 * padding block, read the state out — rather than a generic digest with its
 * buffering and finalisation, so even the baseline hashes a layer without
 * per-message allocation.
 * @module
 */
import { _SHA256 } from '@noble/hashes/sha2.js';
import type { HasherBackend } from '../backend.js';
import { IV, PADDING_BLOCK } from '../sha256Constants.js';

const PADDING_VIEW = new DataView(PADDING_BLOCK.buffer, PADDING_BLOCK.byteOffset, 64);

/** Exposes noble's protected `process`/`get`/`set` (its compression and state). */
class NobleCompressor extends _SHA256 {
  compress64(view: DataView, inOff: number, out: DataView, outOff: number): void {
    this.set(IV[0]!, IV[1]!, IV[2]!, IV[3]!, IV[4]!, IV[5]!, IV[6]!, IV[7]!);
    this.process(view, inOff);
    this.process(PADDING_VIEW, 0);
    const state = this.get();
    for (let i = 0; i < 8; i++) out.setUint32(outOff + 4 * i, state[i]!, false);
  }
}

export function createNobleBackend(): HasherBackend {
  const compressor = new NobleCompressor();
  return {
    name: 'noble',
    hashInto(input: Uint8Array, output: Uint8Array): void {
      const inView = new DataView(input.buffer, input.byteOffset, input.byteLength);
      const outView = new DataView(output.buffer, output.byteOffset, output.byteLength);
      const count = output.length >>> 5;
      for (let i = 0; i < count; i++) compressor.compress64(inView, i << 6, outView, i << 5);
    },
  };
}
