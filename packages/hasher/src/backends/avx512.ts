/**
 * `avx512` backend: our native module (`native/sha256x16.c`), sixteen
 * messages per AVX-512 lane group. Used when `scripts/build-native.mjs` could
 * build it on this machine (a C compiler and Node's headers; run by
 * `pnpm install` and the package build) and the CPU has AVX-512 F and BW.
 *
 * A lane group costs the same for one message as for sixteen, so layers of
 * fewer than {@link SMALL_LAYER} messages go to `small` (hashtree when it is
 * installed). Measured crossover (2026-11-30, a throwaway script timing both
 * modules' `hashInto` alternately on layers of 6, 8, 10 and 12 messages,
 * median of five runs each): 95/114, 87/85, 83/69, 80/57 ns per message
 * (hashtree/avx512).
 *
 * Loaded like hashtree, through `process.getBuiltinModule`, so nothing
 * Node-only is imported statically and browsers simply lack this backend.
 * @module
 */
import type { HasherBackend } from '../backend.js';
import { HasherError } from '../errors.js';
import { notBuiltMessage } from './nativeStatus.js';

interface NativeModule {
  hashInto(input: Uint8Array, output: Uint8Array): void;
  supported(): boolean;
}

interface NodeProcessLike {
  getBuiltinModule?: (id: string) => unknown;
}

/** Below this many messages a layer is hashed by the `small` backend, when there is one. */
export const SMALL_LAYER = 8;

/**
 * Where the build puts the module, relative to this file: `src/backends/` when
 * run from source, `dist/` (index and hashWorker bundles) when built.
 */
const CANDIDATES = ['../native/build/sha256x16.node', '../../native/build/sha256x16.node'];

function loadNative(): NativeModule {
  const proc = (globalThis as { process?: NodeProcessLike }).process;
  const moduleApi = proc?.getBuiltinModule?.('module') as { createRequire(path: string | URL): (id: string) => unknown } | undefined;
  const fs = proc?.getBuiltinModule?.('fs') as { existsSync(path: URL): boolean } | undefined;
  const url = proc?.getBuiltinModule?.('url') as { fileURLToPath(url: URL): string } | undefined;
  if (moduleApi === undefined || fs === undefined || url === undefined) {
    throw new HasherError('HASHER_UNAVAILABLE', 'avx512: native modules need Node.js >= 20.16 (process.getBuiltinModule)');
  }
  const file = CANDIDATES.map((path) => new URL(path, import.meta.url)).find((url) => fs.existsSync(url));
  if (file === undefined) {
    throw new HasherError('HASHER_UNAVAILABLE', notBuiltMessage(CANDIDATES.map((path) => new URL(path, import.meta.url))));
  }
  let mod: Partial<NativeModule>;
  try {
    mod = moduleApi.createRequire(import.meta.url)(url.fileURLToPath(file)) as Partial<NativeModule>;
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    throw new HasherError('HASHER_UNAVAILABLE', `avx512: native module did not load (${reason})`);
  }
  if (typeof mod.hashInto !== 'function' || typeof mod.supported !== 'function') {
    throw new HasherError('HASHER_UNAVAILABLE', 'avx512: native module lacks hashInto/supported (stale build?)');
  }
  if (!mod.supported()) throw new HasherError('HASHER_UNAVAILABLE', 'avx512: this CPU lacks AVX-512 F and BW');
  return mod as NativeModule;
}

/** The backend; `small` (if given) hashes layers under {@link SMALL_LAYER} messages. */
export function createAvx512Backend(small?: HasherBackend): HasherBackend {
  const native = loadNative();
  return {
    name: 'avx512',
    // Each lane group reads its sixteen messages before writing a digest and
    // groups run front to back, so in-place folding is safe (self-checked).
    hashInto:
      small === undefined
        ? (input, output) => native.hashInto(input, output)
        : (input, output) => (output.length < 32 * SMALL_LAYER ? small.hashInto(input, output) : native.hashInto(input, output)),
  };
}
