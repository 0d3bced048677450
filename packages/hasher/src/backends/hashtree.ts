/**
 * `hashtree` backend: `@chainsafe/hashtree`, native SHA-NI / AVX2 / AVX-512
 * layer hashing, used when the optional dependency is installed and loads.
 *
 * It is loaded with a synchronous `require` (through `process.getBuiltinModule`
 * so that nothing Node-specific is imported statically and the package still
 * loads in browsers, where this backend is simply unavailable).
 * @module
 */
import type { HasherBackend } from '../backend.js';
import { HasherError } from '../errors.js';

interface HashtreeModule {
  hashInto(input: Uint8Array, output: Uint8Array): void;
}

interface NodeProcessLike {
  getBuiltinModule?: (id: string) => unknown;
}

interface NodeModuleApi {
  createRequire(path: string | URL): (id: string) => unknown;
}

function loadHashtree(): HashtreeModule {
  const proc = (globalThis as { process?: NodeProcessLike }).process;
  const moduleApi = proc?.getBuiltinModule?.('module') as NodeModuleApi | undefined;
  if (moduleApi === undefined) {
    throw new HasherError('HASHER_UNAVAILABLE', 'hashtree: native modules need Node.js >= 20.16 (process.getBuiltinModule)');
  }
  const require = moduleApi.createRequire(import.meta.url);
  try {
    const mod = require('@chainsafe/hashtree') as Partial<HashtreeModule>;
    if (typeof mod.hashInto !== 'function') throw new Error('no hashInto export');
    return mod as HashtreeModule;
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    throw new HasherError('HASHER_UNAVAILABLE', `hashtree: @chainsafe/hashtree did not load (${reason})`);
  }
}

export function createHashtreeBackend(): HasherBackend {
  const native = loadHashtree();
  return {
    name: 'hashtree',
    // The native call walks the layer front to back, reading each message
    // before writing its digest, so in-place folding is safe (checked by tests).
    hashInto: (input, output) => native.hashInto(input, output),
  };
}
