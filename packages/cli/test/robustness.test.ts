/**
 * Corrupt inputs, at random: mutated snappy streams (block and framed) only
 * ever decode or throw the CLI's one-line error, and `main` on mutated SSZ,
 * snappy and JSON files exits 0 or 2 with at most one error line, never a
 * stack or an internal error.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import snappyjs from 'snappyjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBlock, decodeFramed, encodeFramed } from '../src/index.js';
import { CliError } from '../src/errors.js';
import { readBytes, run, specTestsDir, tempDir } from './helpers.js';

let state: Uint8Array = new Uint8Array(0);
let attestation: Uint8Array = new Uint8Array(0);
const tmp = tempDir();

beforeAll(() => {
  const dir = join(specTestsDir(), 'tests/minimal/phase0/ssz_static');
  state = readBytes(join(dir, 'BeaconState/ssz_random/case_0/serialized.ssz'));
  attestation = readBytes(join(dir, 'Attestation/ssz_random/case_0/serialized.ssz'));
}, 600_000);
afterAll(() => tmp.remove());

/** `data` with up to 4 bytes overwritten and possibly cut short. */
const mutation = (length: number) =>
  fc.record({
    writes: fc.array(fc.tuple(fc.nat({ max: Math.max(0, length - 1) }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
    cut: fc.option(fc.nat({ max: length }), { nil: undefined }),
  });

function mutate(data: Uint8Array, m: { writes: [number, number][]; cut: number | undefined }): Uint8Array {
  const out = data.slice(0, m.cut ?? data.length);
  for (const [at, value] of m.writes) if (at < out.length) out[at] = value;
  return out;
}

function decodesOrFailsCleanly(f: () => Uint8Array): void {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CliError);
    expect((e as Error).message).not.toContain('\n');
  }
}

describe('snappy decoders on mutated streams', () => {
  it('raw block: decode or one CliError line', () => {
    const block = snappyjs.compress(state);
    fc.assert(fc.property(mutation(block.length), (m) => decodesOrFailsCleanly(() => decodeBlock(mutate(block, m)))), { numRuns: 500 });
  });

  it('framed: decode or one CliError line (checksums catch payload changes)', () => {
    const framed = encodeFramed(state);
    fc.assert(
      fc.property(mutation(framed.length), (m) => {
        const bad = mutate(framed, m);
        try {
          const out = decodeFramed(bad);
          // Whatever decodes must be a prefix of the original (a cut at a chunk boundary) or the original itself.
          expect(Buffer.from(state.subarray(0, out.length)).equals(Buffer.from(out))).toBe(true);
        } catch (e) {
          expect(e).toBeInstanceOf(CliError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('main on mutated files', () => {
  it('root of mutated SSZ, snappy and JSON: exit 0 or 2, one line, no internal error', async () => {
    const json = (await run(['decode', 'phase0.Attestation', tmp.write('a.ssz', attestation), '--preset', 'minimal'])).bytes;
    const inputs: [string, Uint8Array][] = [
      ['m.ssz', attestation],
      ['m.ssz_snappy', encodeFramed(attestation)],
      ['b.ssz_snappy', snappyjs.compress(attestation)],
      ['m.json', json],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...inputs), mutation(attestation.length), async ([name, data], m) => {
        const file = tmp.write(name, mutate(data, m));
        const r = await run(['root', 'phase0.Attestation', file, '--preset', 'minimal']);
        expect([0, 2]).toContain(r.code);
        if (r.code === 2) {
          expect(r.err.split('\n')).toHaveLength(2);
          expect(r.err).toMatch(/^ssztree: /);
          expect(r.err).not.toMatch(/internal error/);
        } else expect(r.out).toMatch(/^0x[0-9a-f]{64}\n$/);
      }),
      { numRuns: 300 },
    );
  });
});
