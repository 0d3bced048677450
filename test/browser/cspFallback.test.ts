/**
 * The closure-based container codecs (the fallback where a Content-Security-
 * Policy refuses `new Function`) behave exactly like the generated ones.
 *
 * A second instance of the package is loaded with `SSZTREE_NO_CODEGEN=1`, so
 * every container in it — nested ones too — uses the fallback; it is run
 * against the normal (generated) instance on the phase0 spec vectors and on
 * random values of every fork's containers, valid and corrupted: same bytes,
 * same roots, same values, and the same errors (code, detail, byte offset,
 * type path). Runs in Node; the browser half is `browser.test.ts`.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SszType, toHex } from '@ssztree/types';
import { FORKS, minimal } from '@ssztree/types/consensus';
import { arbitrary } from '../differential/arbitrary.js';
import { listDirs, readBytes, readRoot, specTestsDir } from '../spec/specFiles.js';

type Consensus = typeof import('@ssztree/types/consensus');
let generic: Consensus;

function containersOf(fork: object): [string, SszType<unknown>][] {
  return Object.entries(fork).filter((e): e is [string, SszType<unknown>] => e[1] instanceof SszType && /^[A-Z]/.test(e[0]) && e[0] !== 'Blob');
}

/** What decoding `bytes` gives: its re-encoding and root, or the error's fields. */
function outcome(type: SszType<unknown>, bytes: Uint8Array): unknown {
  try {
    const value = type.deserialize(bytes);
    return { bytes: toHex(type.serialize(value)), root: toHex(type.hashTreeRoot(value)) };
  } catch (e) {
    const err = e as { name: string; code: string; detail: string; offset: number; typePath: string; message: string };
    return { name: err.name, code: err.code, detail: err.detail, offset: err.offset, typePath: err.typePath, message: err.message };
  }
}

/** The input with a few corruptions: truncations, an extra byte, overwritten words (offsets among them). */
function corruptions(bytes: Uint8Array, seed: number): Uint8Array[] {
  const out = [bytes.subarray(0, bytes.length - 1), bytes.subarray(0, bytes.length >>> 1), new Uint8Array(0)];
  const longer = new Uint8Array(bytes.length + 1);
  longer.set(bytes);
  out.push(longer);
  let s = seed;
  const next = () => (s = (s * 48271) % 0x7fffffff);
  for (let i = 0; i < 6 && bytes.length >= 4; i++) {
    const copy = bytes.slice();
    const at = next() % (Math.min(bytes.length, 256) - 3);
    new DataView(copy.buffer).setUint32(at, i % 2 === 0 ? next() % (bytes.length + 8) : next(), true);
    out.push(copy);
  }
  return out;
}

function genericTypeOf(fork: (typeof FORKS)[number], name: string): SszType<unknown> {
  return (generic.minimal[fork] as unknown as Record<string, SszType<unknown>>)[name]!;
}

describe('container codecs without code generation (CSP fallback)', () => {
  beforeAll(async () => {
    vi.stubEnv('SSZTREE_NO_CODEGEN', '1');
    vi.resetModules();
    generic = await import('@ssztree/types/consensus');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('the fallback instance really uses closure codecs, and the normal one generated code', () => {
    const codecOf = (t: SszType<unknown>) => (t as unknown as { codec: { generated: boolean } }).codec;
    expect(codecOf(genericTypeOf('deneb', 'BeaconState')).generated).toBe(false);
    expect(codecOf(minimal.deneb.BeaconState as unknown as SszType<unknown>).generated).toBe(true);
  });

  it('phase0 spec vectors: every case of every type decodes, re-encodes and roots the same (and as the spec says)', () => {
    const root = join(specTestsDir(), 'tests/minimal/phase0/ssz_static');
    let cases = 0;
    for (const name of listDirs(root)) {
      const ours = (minimal.phase0 as unknown as Record<string, SszType<unknown>>)[name]!;
      const theirs = genericTypeOf('phase0', name);
      for (const suite of listDirs(join(root, name))) {
        for (const c of listDirs(join(root, name, suite))) {
          const dir = join(root, name, suite, c);
          const bytes = readBytes(join(dir, 'serialized.ssz'));
          const expected = outcome(ours, bytes);
          expect(outcome(theirs, bytes), `${name}/${suite}/${c}`).toEqual(expected);
          expect((expected as { root: string }).root).toBe(readRoot(join(dir, 'roots.yaml')));
          if (c === 'case_0') {
            corruptions(bytes, cases + 1).forEach((bad, i) => expect(outcome(theirs, bad), `${name}/${suite}/${c} corruption ${i}`).toEqual(outcome(ours, bad)));
          }
          cases++;
        }
      }
    }
    expect(cases).toBe(27 * 123);
  }, 120_000);

  for (const fork of FORKS) {
    it(`minimal.${fork}: random values of every container, valid and corrupted, agree`, () => {
      for (const [name, ours] of containersOf(minimal[fork])) {
        const theirs = genericTypeOf(fork, name);
        fc.assert(
          fc.property(arbitrary(ours), fc.integer({ min: 1, max: 0x7ffffffe }), (value, seed) => {
            const bytes = ours.serialize(value);
            expect(outcome(theirs, bytes)).toEqual(outcome(ours, bytes));
            for (const bad of corruptions(bytes, seed)) expect(outcome(theirs, bad)).toEqual(outcome(ours, bad));
          }),
          { numRuns: 4, seed: 7 },
        );
      }
    });
  }

  it('encoding errors agree: a non-object, a missing field, a wrong field value', () => {
    const ours = minimal.phase0.Checkpoint as unknown as SszType<unknown>;
    const theirs = genericTypeOf('phase0', 'Checkpoint');
    const errorOf = (t: SszType<unknown>, v: unknown) => {
      try {
        t.serialize(v);
        return 'no error';
      } catch (e) {
        return (e as Error).message;
      }
    };
    for (const bad of [null, 7, { epoch: 1 }, { epoch: -1, root: new Uint8Array(32) }, { epoch: 1, root: new Uint8Array(31) }]) {
      const message = errorOf(ours, bad);
      expect(message).not.toBe('no error');
      expect(errorOf(theirs, bad)).toBe(message);
      // hashTreeRoot goes through the batch fill path.
      expect(() => theirs.hashTreeRoot(bad)).toThrow();
    }
  });
});
