/**
 * The contract every hashing backend fulfils. Backends are byte-identical:
 * each computes SHA-256 of 64-byte messages, a whole layer per call.
 * @module
 */

/** A SHA-256 engine specialised for 64-byte messages. */
export interface HasherBackend {
  /** Stable name used by `setHasher`, `SSZTREE_HASHER` and `listHashers`. */
  readonly name: HasherName;
  /**
   * Hash a whole layer: `output[32i, 32i+32) = SHA-256(input[64i, 64i+64))`.
   * Callers (the public `hashInto`) have already checked that
   * `input.length === 2 * output.length` and a multiple of 64, and guarantee
   * that if the two views share memory, `output` starts at or before `input`
   * (so reading message i before writing digest i is always safe).
   */
  hashInto(input: Uint8Array, output: Uint8Array): void;
}

/**
 * The backends: `auto` (each call on the native kernel measured fastest for
 * its layer size), our native SHA-NI and AVX-512 kernels, native hashtree,
 * our WebAssembly, our TypeScript, @noble/hashes (reference).
 */
export type HasherName = 'auto' | 'shani' | 'avx512' | 'hashtree' | 'wasm' | 'js' | 'noble';
