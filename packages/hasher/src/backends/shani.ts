/**
 * `shani` backend: the SHA-NI kernel of our native module
 * (`native/sha256x16.c`): four messages interleaved on the SHA extensions,
 * the next four's message schedule computed while their rounds run. Needs
 * SHA-NI and AVX2 (AMD Zen, Intel Ice Lake and later); built and loaded with
 * the `avx512` backend (`avx512.ts`), so it is unavailable for the same
 * reasons where the module is missing.
 * @module
 */
import type { HasherBackend } from '../backend.js';
import { createNativeKernelBackend } from './avx512.js';

export function createShaniBackend(): HasherBackend {
  return createNativeKernelBackend('shani');
}
