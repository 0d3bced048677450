import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { HasherBackend, HasherName } from '../src/backend.js';
import { createJsBackend } from '../src/backends/js.js';
import { createNobleBackend } from '../src/backends/noble.js';
import { HasherError } from '../src/errors.js';
import { loadChecked, selectBackend, type BackendFactory } from '../src/selection.js';

const reference = createNobleBackend();
const good = (name: HasherName): BackendFactory => () => ({ ...createJsBackend(), name });
const throwing: BackendFactory = () => {
  throw new Error('native binding missing');
};
const wrong: BackendFactory = () => ({
  name: 'wasm',
  hashInto: (input, output) => {
    createJsBackend().hashInto(input, output);
    output[output.length - 1]! ^= 1; // the last digest is off by one bit
  },
});
/** Right out of place, wrong in place: it writes each digest before reading its message. */
const unsafeInPlace: BackendFactory = () => ({
  name: 'wasm',
  hashInto: (input, output) => {
    const js = createJsBackend();
    for (let i = 0; i < output.length / 32; i++) {
      output.fill(0, 32 * i, 32 * i + 32);
      js.hashInto(input.subarray(64 * i, 64 * i + 64), output.subarray(32 * i, 32 * i + 32));
    }
  },
});

function loader(factories: Partial<Record<HasherName, BackendFactory>>) {
  return (name: HasherName): HasherBackend | HasherError => loadChecked(name, factories[name] ?? throwing, reference);
}

const PREF: HasherName[] = ['hashtree', 'wasm', 'js', 'noble'];

describe('loadChecked', () => {
  it('turns a factory that throws into HASHER_UNAVAILABLE naming the backend', () => {
    const outcome = loadChecked('hashtree', throwing, reference);
    expect(outcome).toBeInstanceOf(HasherError);
    expect((outcome as HasherError).message).toBe('hashtree: native binding missing');
  });

  it('rejects a backend whose digests differ from the reference', () => {
    expect((loadChecked('wasm', wrong, reference) as HasherError).message).toBe('wasm: failed its self-check');
  });

  it('rejects a backend that is wrong only when folding in place', () => {
    expect(loadChecked('wasm', unsafeInPlace, reference)).toBeInstanceOf(HasherError);
  });

  it('accepts a correct backend', () => {
    expect(loadChecked('js', good('js'), reference)).not.toBeInstanceOf(HasherError);
  });
});

describe('selectBackend', () => {
  it('uses the first preference that loads, with no notice when it is the first', () => {
    const s = selectBackend(PREF, loader({ hashtree: good('hashtree'), wasm: good('wasm') }), undefined);
    expect(s.backend.name).toBe('hashtree');
    expect(s.notice).toBeUndefined();
  });

  it('falls back past a missing and a miscomputing backend, and says why in one line', () => {
    const s = selectBackend(PREF, loader({ wasm: wrong, js: good('js') }), undefined);
    expect(s.backend.name).toBe('js');
    expect(s.notice).toBe('ssztree hasher: using js; hashtree: native binding missing; wasm: failed its self-check');
    expect(s.notice).not.toContain('\n');
  });

  it('honours an available override without a notice', () => {
    const s = selectBackend(PREF, loader({ hashtree: good('hashtree'), noble: good('noble') }), 'noble');
    expect(s.backend.name).toBe('noble');
    expect(s.notice).toBeUndefined();
  });

  it('falls back from an unavailable or unknown override with a notice', () => {
    const unavailable = selectBackend(PREF, loader({ js: good('js') }), 'wasm');
    expect(unavailable.backend.name).toBe('js');
    expect(unavailable.notice).toBe('ssztree hasher: using js; SSZTREE_HASHER=wasm is unavailable (wasm: native binding missing)');
    const unknown = selectBackend(PREF, loader({ js: good('js') }), 'sha3');
    expect(unknown.backend.name).toBe('js');
    expect(unknown.notice).toContain('SSZTREE_HASHER=sha3 is not a hasher');
  });

  it('throws HasherError only when nothing loads', () => {
    expect(() => selectBackend(PREF, loader({}), undefined)).toThrowError(HasherError);
  });
});

describe('fallback in a real process', () => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
  const script = "import('@ssztree/hasher').then((h) => console.log(JSON.stringify({ name: h.getHasher(), notice: h.hasherNotice() ?? null, root: Buffer.from(h.merkleize(new Uint8Array(32 * 5), 8)).toString('hex') })))";
  function run(preload: string[], env: Record<string, string> = {}): { name: string; notice: string | null; root: string } {
    const out = execFileSync(process.execPath, [...preload.flatMap((p) => ['--require', fixtures + p]), '--import', 'tsx', '--conditions=source', '-e', script], {
      cwd: root,
      env: { ...process.env, SSZTREE_HASHER: '', ...env },
      encoding: 'utf8',
    });
    return JSON.parse(out.trim().split('\n').at(-1)!);
  }
  // Root of 5 zero chunks padded to 8 = zeroHash(3).
  const zero3 = 'c78009fdf07fc56a11f122370658a353aaa542ed63e44c4bc15ff4cd105ab33c';

  it('runs auto on hashtree alone when our native module does not load, and says so', () => {
    const r = run(['break-avx512.cjs']);
    expect(r.name).toBe('auto');
    expect(r.notice).toMatch(/^ssztree hasher: using auto over hashtree; shani: native module (did not load \(Cannot load sha256x16\.node|not built).*; avx512: native module/);
    expect(r.root).toBe(zero3);
  });

  it('moves to wasm when neither native module loads, and says so', () => {
    const r = run(['break-avx512.cjs', 'break-hashtree.cjs']);
    expect(r.name).toBe('wasm');
    expect(r.notice).toMatch(/^ssztree hasher: using wasm; auto: none of shani, avx512, hashtree is available here; shani: .*; avx512: .*; hashtree: @chainsafe\/hashtree did not load \(Cannot find module/);
    expect(r.root).toBe(zero3);
  });

  it('moves to js when WebAssembly is refused too', () => {
    const r = run(['break-avx512.cjs', 'break-hashtree.cjs', 'break-wasm.cjs']);
    expect(r.name).toBe('js');
    expect(r.notice).toContain('wasm: ');
    expect(r.notice).toContain('WebAssembly compilation refused');
    expect(r.root).toBe(zero3);
  });

  it('falls back from an unknown SSZTREE_HASHER instead of failing', () => {
    const r = run([], { SSZTREE_HASHER: 'bogus' });
    expect(r.notice).toContain('SSZTREE_HASHER=bogus is not a hasher');
    expect(r.root).toBe(zero3);
  });
});
