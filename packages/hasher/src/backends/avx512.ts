/**
 * Our native module (`native/sha256x16.c`) and its `avx512` backend: sixteen
 * messages per AVX-512 lane group. The module is built by
 * `scripts/build-native.mjs` where this machine can (a C compiler and Node's
 * headers; run by `pnpm install` and the package build); it holds the
 * `shani` kernel too (`shani.ts`), and says which kernels the CPU runs.
 *
 * `avx512` hashes every layer on the lanes, a short layer through one
 * zero-padded group; which sizes are worth a lane group is the size
 * dispatch's business (`dispatch/`), measured on the machine at start-up.
 *
 * Loaded like hashtree, through `process.getBuiltinModule`, so nothing
 * Node-only is imported statically and browsers simply lack this backend.
 * @module
 */
import type { HasherBackend } from '../backend.js';
import { HasherError } from '../errors.js';
import { notBuiltMessage } from './nativeStatus.js';

/** A kernel of the native module: one layer per call, the `HasherBackend.hashInto` contract. */
export type NativeKernelName = 'avx512' | 'shani';

interface NativeModule extends Record<NativeKernelName, (input: Uint8Array, output: Uint8Array) => void> {
  hashInto(input: Uint8Array, output: Uint8Array): void;
  supported(): boolean;
  /** The kernels this CPU and OS run. */
  kernels(): NativeKernelName[];
}

interface NodeProcessLike {
  getBuiltinModule?: (id: string) => unknown;
}

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
  if (typeof mod.avx512 !== 'function' || typeof mod.shani !== 'function' || typeof mod.kernels !== 'function') {
    throw new HasherError('HASHER_UNAVAILABLE', 'avx512: native module lacks avx512/shani/kernels (stale build? run scripts/build-native.mjs --force)');
  }
  return mod as NativeModule;
}

let native: NativeModule | HasherError | undefined;

/** The native module, loaded once per thread; throws `HasherError` (the same one each time) where it does not load. */
function nativeModule(): NativeModule {
  if (native === undefined) {
    try {
      native = loadNative();
    } catch (cause) {
      native = cause instanceof HasherError ? cause : new HasherError('HASHER_UNAVAILABLE', `avx512: ${String(cause)}`);
    }
  }
  if (native instanceof HasherError) throw native;
  return native;
}

/** Why the CPU or OS cannot run a kernel, in the words of listHashers(). */
const LACKS: Record<NativeKernelName, string> = {
  avx512: 'avx512: this CPU or OS lacks AVX-512 F and BW',
  shani: 'shani: this CPU or OS lacks SHA-NI and AVX2',
};

/**
 * A backend running one kernel of the native module; throws `HasherError`
 * naming the kernel where the module does not load or the CPU lacks it.
 */
export function createNativeKernelBackend(kernel: NativeKernelName): HasherBackend {
  let mod: NativeModule;
  try {
    mod = nativeModule();
  } catch (cause) {
    // The loader's messages name the module's first backend; say which one was asked for.
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new HasherError('HASHER_UNAVAILABLE', message.replace(/^avx512: /, `${kernel}: `));
  }
  if (!mod.kernels().includes(kernel)) throw new HasherError('HASHER_UNAVAILABLE', LACKS[kernel]);
  const run = mod[kernel];
  // Each kernel reads every message of a group before writing a digest of
  // it and groups run front to back, so in-place folding is safe (self-checked).
  return { name: kernel, hashInto: (input, output) => run(input, output) };
}

export function createAvx512Backend(): HasherBackend {
  return createNativeKernelBackend('avx512');
}
