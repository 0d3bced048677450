import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { HasherBackend } from '../src/backend.js';
import { createAvx512Backend, SMALL_LAYER } from '../src/backends/avx512.js';
import { createJsBackend } from '../src/backends/js.js';
import { listHashers } from '../src/index.js';
import { referenceLayer, toHex } from './reference.js';

const modulePath = fileURLToPath(new URL('../native/build/sha256x16.node', import.meta.url));
const info = listHashers().find((h) => h.name === 'avx512')!;

/** Whether this machine can build and run the module: what scripts/build-native.mjs needs. */
function buildableHere(): boolean {
  if (process.arch !== 'x64' || process.platform !== 'linux') return false;
  if (!existsSync(join(dirname(process.execPath), '..', 'include', 'node', 'node_api.h'))) return false;
  try {
    execFileSync(process.env.CC || 'cc', ['--version'], { stdio: 'ignore' });
  } catch {
    return false;
  }
  const flags = readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1]?.split(/\s+/) ?? [];
  return flags.includes('avx512f') && flags.includes('avx512bw');
}

const buildScript = fileURLToPath(new URL('../scripts/build-native.mjs', import.meta.url));

describe('scripts/build-native.mjs', () => {
  function build(args: string[], env: Record<string, string>): { status: number; out: string } {
    try {
      const out = execFileSync(process.execPath, [buildScript, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      return { status: 0, out };
    } catch (e) {
      const err = e as { status: number; stdout: string };
      return { status: err.status, out: err.stdout };
    }
  }

  it.runIf(process.arch === 'x64')('without a compiler: says so in one line and exits 0 (so an install never fails), 1 with --strict', () => {
    const skipped = build(['--force'], { CC: '/nonexistent/cc' });
    expect(skipped.status).toBe(0);
    expect(skipped.out.trim().split('\n')).toHaveLength(1);
    expect(skipped.out).toMatch(/native avx512 backend not built \((no C compiler|no Node-API headers)/);
    expect(build(['--force', '--strict'], { CC: '/nonexistent/cc' }).status).toBe(1);
  });

  const sourcePath = fileURLToPath(new URL('../native/sha256x16.c', import.meta.url));
  const upToDate = existsSync(modulePath) && statSync(modulePath).mtimeMs >= statSync(sourcePath).mtimeMs;
  // Only where it is up to date already: a stale module would be rebuilt here, under other test files.
  it.runIf(buildableHere() && upToDate)('is a no-op when the module is newer than its source', () => {
    expect(build([], {})).toEqual({ status: 0, out: '' });
  });
});

describe('avx512 backend', () => {
  it('is available wherever it can be built (a skipped build step cannot pass silently)', () => {
    if (buildableHere()) expect(info).toEqual({ name: 'avx512', available: true });
    // Not buildable here (no compiler, say): usable only from an earlier build, else unavailable with its reason.
    else if (info.available) expect(existsSync(modulePath)).toBe(true);
    else expect(info.reason).toMatch(/^avx512: (native module not built|native module did not load|this CPU lacks|native modules need)/);
  });

  it.runIf(info.available)('hands layers under SMALL_LAYER messages to the small-layer backend, larger ones to the lanes', () => {
    const js = createJsBackend();
    const sizes: number[] = [];
    const counting: HasherBackend = { name: 'js', hashInto: (input, output) => (sizes.push(output.length / 32), js.hashInto(input, output)) };
    const backend = createAvx512Backend(counting);
    for (const n of [1, SMALL_LAYER - 1, SMALL_LAYER, 16, 17]) {
      const input = Uint8Array.from({ length: 64 * n }, (_, i) => (i * 13 + n) & 0xff);
      const out = new Uint8Array(32 * n);
      backend.hashInto(input, out);
      expect(toHex(out)).toBe(toHex(referenceLayer(input)));
    }
    expect(sizes).toEqual([1, SMALL_LAYER - 1]);
  });

  it.runIf(info.available)('hashes every size 0..40 on the lanes alone (no small-layer backend)', () => {
    const backend = createAvx512Backend();
    for (let n = 0; n <= 40; n++) {
      const input = Uint8Array.from({ length: 64 * n }, (_, i) => (i * 37 + n) & 0xff);
      const out = new Uint8Array(32 * n);
      backend.hashInto(input, out);
      expect(toHex(out)).toBe(toHex(referenceLayer(input)));
    }
  });

  it.runIf(existsSync(modulePath))('the raw module rejects bad arguments with JS errors, never a crash', () => {
    const native = createRequire(import.meta.url)(modulePath) as { hashInto(...args: unknown[]): void; supported(): boolean };
    expect(typeof native.supported()).toBe('boolean');
    expect(() => native.hashInto()).toThrowError(TypeError);
    expect(() => native.hashInto(new Uint8Array(64), [0])).toThrowError(TypeError);
    expect(() => native.hashInto(new Uint16Array(32), new Uint8Array(32))).toThrowError(TypeError);
    expect(() => native.hashInto(new Uint8Array(63), new Uint8Array(32))).toThrowError(RangeError);
    expect(() => native.hashInto(new Uint8Array(128), new Uint8Array(32))).toThrowError(RangeError);
  });
});
