import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAvx512Backend } from '../src/backends/avx512.js';
import { createShaniBackend } from '../src/backends/shani.js';
import { listHashers } from '../src/index.js';
import { referenceLayer, toHex } from './reference.js';

const modulePath = fileURLToPath(new URL('../native/build/sha256x16.node', import.meta.url));
const info = listHashers().find((h) => h.name === 'avx512')!;
const shaniInfo = listHashers().find((h) => h.name === 'shani')!;
const cpuFlags = process.platform === 'linux' ? (readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1]?.split(/\s+/) ?? []) : [];

/** Whether this machine can build the module: what scripts/build-native.mjs needs. */
function compilesHere(): boolean {
  if (process.arch !== 'x64' || process.platform !== 'linux') return false;
  if (!existsSync(join(dirname(process.execPath), '..', 'include', 'node', 'node_api.h'))) return false;
  try {
    execFileSync(process.env.CC || 'cc', ['--version'], { stdio: 'ignore' });
  } catch {
    return false;
  }
  return true;
}

/** Whether this machine builds the module and runs the kernel that needs `flags`. */
function buildableHere(...flags: string[]): boolean {
  return compilesHere() && flags.every((f) => cpuFlags.includes(f));
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
    expect(skipped.out).toMatch(/native hashing module \(shani, avx512\) not built \((no C compiler|no Node-API headers)/);
    expect(build(['--force', '--strict'], { CC: '/nonexistent/cc' }).status).toBe(1);
  });

  const sourcePath = fileURLToPath(new URL('../native/sha256x16.c', import.meta.url));
  const upToDate = existsSync(modulePath) && statSync(modulePath).mtimeMs >= statSync(sourcePath).mtimeMs;
  // Only where it is up to date already: a stale module would be rebuilt here, under other test files.
  it.runIf(compilesHere() && upToDate)('is a no-op when the module is newer than its source', () => {
    expect(build([], {})).toEqual({ status: 0, out: '' });
  });
});

describe.each([
  { name: 'avx512', info, flags: ['avx512f', 'avx512bw'], create: createAvx512Backend },
  { name: 'shani', info: shaniInfo, flags: ['sha_ni', 'avx2'], create: createShaniBackend },
])('native kernel $name', ({ name, info, flags, create }) => {
  it('is available wherever it can be built and the CPU has its extensions (a skipped build step cannot pass silently)', () => {
    if (buildableHere(...flags)) expect(info).toEqual({ name, available: true });
    // Not buildable here (no compiler, say): usable only from an earlier build, else unavailable with its reason.
    else if (info.available) expect(existsSync(modulePath)).toBe(true);
    else expect(info.reason).toMatch(new RegExp(`^${name}: (native module not built|native module did not load|this CPU or OS lacks|native modules need)`));
  });

  it.runIf(info.available)('hashes every size 0..70 alone, around every group and batch boundary, and in place', () => {
    const backend = create();
    for (let n = 0; n <= 70; n++) {
      const input = Uint8Array.from({ length: 64 * n }, (_, i) => (i * 37 + n) & 0xff);
      const out = new Uint8Array(32 * n);
      backend.hashInto(input, out);
      expect(toHex(out)).toBe(toHex(referenceLayer(input)));
      backend.hashInto(input, input.subarray(0, 32 * n));
      expect(toHex(input.subarray(0, 32 * n))).toBe(toHex(out));
    }
  });

  it.runIf(existsSync(modulePath))('the raw module rejects bad arguments with JS errors, never a crash', () => {
    type Hash = (...args: unknown[]) => void;
    const native = createRequire(import.meta.url)(modulePath) as Record<'hashInto' | 'avx512' | 'shani', Hash> & { supported(): boolean; kernels(): string[] };
    expect(typeof native.supported()).toBe('boolean');
    expect(native.kernels().every((k) => k === 'avx512' || k === 'shani')).toBe(true);
    expect(native.supported()).toBe(native.kernels().length > 0);
    for (const fn of [native.hashInto, native.avx512, native.shani]) {
      expect(() => fn()).toThrowError(TypeError);
      expect(() => fn(new Uint8Array(64), [0])).toThrowError(TypeError);
      expect(() => fn(new Uint16Array(32), new Uint8Array(32))).toThrowError(TypeError);
      expect(() => fn(new Uint8Array(63), new Uint8Array(32))).toThrowError(RangeError);
      expect(() => fn(new Uint8Array(128), new Uint8Array(32))).toThrowError(RangeError);
    }
    // A kernel the CPU lacks is refused with an Error, never run.
    for (const k of ['avx512', 'shani'] as const) {
      if (!native.kernels().includes(k)) expect(() => native[k](new Uint8Array(64), new Uint8Array(32))).toThrowError(/lacks/);
    }
  });
});
