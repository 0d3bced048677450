/**
 * The `wasm` backend: SHA-256 of 64-byte messages in WebAssembly, 4 messages
 * per pass with SIMD (i32x4 lanes), or one at a time where SIMD does not
 * validate. The kernels live in `wat/*.wat`; their binaries are embedded by
 * `scripts/build-wasm.mjs` as base64 in `wasmModules.generated.ts`.
 *
 * Invariant: a layer is hashed in chunks of at most {@link CHUNK_MESSAGES},
 * each copied into WebAssembly memory whole, hashed there in place, and only
 * then copied out. Writing chunk k's digests overwrites at most the input
 * bytes of chunks <= k, all already copied in, so callers may pass an
 * `output` that starts at or before `input` in the same buffer.
 * @module
 */
import type { HasherBackend } from '../backend.js';
import { HasherError } from '../errors.js';
import { SHA256_SCALAR_WASM_BASE64, SHA256_SIMD_WASM_BASE64 } from './wasmModules.generated.js';

/**
 * Messages per kernel call: 1 MiB of input, so the chunk copied in is still
 * in L2 when the kernel reads it, and WebAssembly memory stays near 1 MiB
 * however large the layer. Copying in and out then costs about 3% of the
 * hashing time (2^14: 5.6 ms per 2^20 messages; 2^16: 7.3 ms).
 */
const CHUNK_MESSAGES = 1 << 14;
const PAGE_BYTES = 1 << 16;

export interface WasmBackendOptions {
  /**
   * `true`: require the SIMD kernel (throws `HASHER_UNAVAILABLE` where it does
   * not validate). `false`: always the scalar kernel. Default: SIMD when supported.
   */
  readonly simd?: boolean;
}

/**
 * The part of the WebAssembly JS API used here, declared locally: the project
 * compiles against ES2023 without DOM, and @types/node 20 does not declare it.
 */
declare const WebAssembly: {
  validate(bytes: Uint8Array<ArrayBuffer>): boolean;
  compile(bytes: Uint8Array<ArrayBuffer>): Promise<WasmModule>;
  readonly Module: new (bytes: Uint8Array<ArrayBuffer>) => WasmModule;
  readonly Instance: new (module: WasmModule, imports: object) => { readonly exports: object };
};
interface WasmModule {
  readonly __wasmModule?: never;
}

/** What both kernel modules export (see the header of `wat/sha256_simd.wat`). */
interface KernelExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  /** First byte the caller may use; the constant table sits below it. */
  readonly buffer: { readonly value: number };
  hash64(inPtr: number, outPtr: number, count: number): void;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  // atob rather than Buffer: the same code runs in Node and browsers.
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

let simdBytes: Uint8Array<ArrayBuffer> | undefined;
let scalarBytes: Uint8Array<ArrayBuffer> | undefined;
let simdValid: boolean | undefined;

/** Whether this engine validates the SIMD module (decided once). */
export function wasmSimdSupported(): boolean {
  simdBytes ??= decodeBase64(SHA256_SIMD_WASM_BASE64);
  if (simdValid === undefined) simdValid = WebAssembly.validate(simdBytes);
  return simdValid;
}

function chooseBytes(options: WasmBackendOptions): Uint8Array<ArrayBuffer> {
  const simd = options.simd ?? wasmSimdSupported();
  if (simd) {
    if (!wasmSimdSupported()) throw new HasherError('HASHER_UNAVAILABLE', 'wasm: this engine does not support WebAssembly SIMD');
    return simdBytes!;
  }
  scalarBytes ??= decodeBase64(SHA256_SCALAR_WASM_BASE64);
  return scalarBytes;
}

/** Wraps one instance of a kernel module as a backend. */
function backendFromModule(module: WasmModule): HasherBackend {
  const kernel = new WebAssembly.Instance(module, {}).exports as unknown as KernelExports;
  const memory = kernel.memory;
  const base = kernel.buffer.value;
  // A view of the whole memory, replaced only when memory grows (growing
  // detaches the old ArrayBuffer).
  let heap = new Uint8Array(memory.buffer);

  const hashInto = (input: Uint8Array, output: Uint8Array): void => {
    const total = input.length >>> 6;
    if (total === 0) return;
    const chunk = Math.min(total, CHUNK_MESSAGES);
    const needed = base + chunk * 64;
    if (needed > heap.length) {
      memory.grow(Math.ceil((needed - heap.length) / PAGE_BYTES));
      heap = new Uint8Array(memory.buffer);
    }
    if (total === chunk) {
      // The common case, one chunk: copy the input whole, no view of it needed.
      heap.set(input, base);
      kernel.hash64(base, base, total);
      output.set(heap.subarray(base, base + total * 32));
      return;
    }
    for (let done = 0; done < total; done += chunk) {
      const count = Math.min(chunk, total - done);
      heap.set(input.subarray(done * 64, (done + count) * 64), base);
      // Digests land over their own messages (out = in): the kernel reads
      // each group before writing it.
      kernel.hash64(base, base, count);
      output.set(heap.subarray(base, base + count * 32), done * 32);
    }
  };

  return { name: 'wasm', hashInto };
}

/**
 * The wasm backend, compiled synchronously. Browsers refuse synchronous
 * compilation of modules over 4 KB on the main thread: use
 * {@link createWasmBackendAsync} there.
 */
export function createWasmBackend(options: WasmBackendOptions = {}): HasherBackend {
  return backendFromModule(new WebAssembly.Module(chooseBytes(options)));
}

/** The wasm backend, compiled asynchronously (`WebAssembly.compile`): works on a browser main thread. */
export async function createWasmBackendAsync(options: WasmBackendOptions = {}): Promise<HasherBackend> {
  return backendFromModule(await WebAssembly.compile(chooseBytes(options)));
}
