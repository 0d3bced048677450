/**
 * `initHasher`: the awaitable backend choice (WebAssembly compiled with
 * `WebAssembly.compile`, which a browser main thread allows at any size).
 * In Node it must choose what the synchronous first use chooses, and switch
 * to a named backend with the same results as the reference.
 */
import { describe, expect, it, vi } from 'vitest';
import { getBackend, getHasher, hashInto, HasherError, initHasher, listHashers } from '../src/index.js';

function layer(n: number): Uint8Array {
  const input = new Uint8Array(64 * n);
  for (let i = 0; i < input.length; i++) input[i] = (i * 29 + 3) & 0xff;
  return input;
}

describe('initHasher', () => {
  it('chooses the first available backend in preference order, as first use does', async () => {
    const firstAvailable = listHashers().find((h) => h.available)!.name;
    expect(await initHasher()).toBe(firstAvailable);
    expect(getHasher()).toBe(firstAvailable);
  });

  it('switches to a named backend, whose layers match noble', async () => {
    const input = layer(37);
    const expected = new Uint8Array(32 * 37);
    getBackend('noble').hashInto(input, expected);
    for (const name of ['wasm', 'js'] as const) {
      expect(await initHasher(name)).toBe(name);
      expect(getHasher()).toBe(name);
      const out = new Uint8Array(32 * 37);
      hashInto(input, out);
      expect(out).toEqual(expected);
    }
    await initHasher();
  });

  it('rejects an unknown name with a HasherError', async () => {
    await expect(initHasher('sha1' as never)).rejects.toBeInstanceOf(HasherError);
  });
});

describe('initHasher where synchronous WebAssembly compilation is refused', () => {
  it('the synchronous load of wasm fails; initHasher("wasm") then compiles it asynchronously and selects it', async () => {
    const wasm = (globalThis as unknown as { WebAssembly: { Module: unknown } }).WebAssembly;
    const original = wasm.Module;
    // What a browser main thread does with a module over its synchronous limit.
    wasm.Module = function refused() {
      throw new RangeError('WebAssembly.Compile is disallowed on the main thread, if the buffer size is larger than 4KB.');
    };
    try {
      vi.resetModules();
      const fresh = await import('../src/index.js');
      fresh.setHasher('js');
      const wasmInfo = fresh.listHashers().find((h) => h.name === 'wasm')!;
      expect(wasmInfo.available).toBe(false);
      expect(wasmInfo.reason).toContain('disallowed on the main thread');
      expect(await fresh.initHasher('wasm')).toBe('wasm');
      expect(fresh.listHashers().find((h) => h.name === 'wasm')!.available).toBe(true);
      const input = layer(9);
      const out = new Uint8Array(32 * 9);
      const expected = new Uint8Array(32 * 9);
      fresh.hashInto(input, out);
      fresh.getBackend('noble').hashInto(input, expected);
      expect(out).toEqual(expected);
    } finally {
      wasm.Module = original;
    }
  });
});
