/**
 * The CI slice of the fuzz harness: a fixed seed, a fixed number of inputs
 * per target for every target (so the slice is the same on every run), and
 * self-checks of the harness's own parts (determinism, the offset fix-ups
 * of list resizing, the oracle's verdicts on deliberately broken codecs).
 * Every input also goes through `deserializeToView` (oracle mode `verdict`).
 * The long campaign is `npm run fuzz -- --count 1000000` (docs/RELIABILITY.md).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BooleanType, toHex, type SszType } from '@ssztree/types';
import { arbitrary } from '../differential/arbitrary.js';
import { layoutOf, replaceRegion } from './layout.js';
import { MAX_GROW } from './mutators.js';
import { check } from './oracle.js';
import { Rng } from './prng.js';
import { TargetStream, runFuzz, type FuzzStats } from './runner.js';
import { allTargets, selectTargets } from './targets.js';
import { FORKS } from '@ssztree/types/consensus';

const SEED = 20_240_601;
const FAILURES = process.env['SSZTREE_FUZZ_FAILURES'] ?? join(tmpdir(), 'ssztree-fuzz-failures');

function expectClean(stats: FuzzStats): void {
  const report = stats.failures.map((f) => `${f.target} #${f.n}: ${f.what} [${f.how}] ours: ${f.ours} chainsafe: ${f.chainsafe} ${f.file ?? ''}`).join('\n');
  expect(stats.failureCount, report).toBe(0);
  // The slice exercised both verdicts (not a fixed number: a sanity check that inputs reach the oracle's both branches).
  expect(stats.accepted).toBeGreaterThan(0);
  expect(stats.rejected).toBeGreaterThan(0);
}

describe('fuzz harness: its own parts', () => {
  it('draws the same inputs from the same seed, and other inputs from another', () => {
    const [target] = selectTargets('minimal.electra.BeaconBlockBody');
    const digest = (seed: number) => {
      const s = new TargetStream(target as never, seed);
      return Array.from({ length: 300 }, () => toHex(s.next().bytes)).join();
    };
    expect(digest(5)).toBe(digest(5));
    expect(digest(5)).not.toBe(digest(6));
  });

  it('resizes a list in place and fixes every enclosing offset, so a zero-filled list within its limit still decodes', () => {
    const types = selectTargets('ComplexTestStruct,minimal.electra.BeaconBlockBody,minimal.deneb.BeaconState,extra.ListOfGapStructs,extra.UnionOfComposites');
    const rng = new Rng(SEED);
    let resized = 0;
    for (const { type } of types) {
      for (const value of fc.sample(arbitrary(type), { seed: 1, numRuns: 5 })) {
        const bytes = type.serialize(value);
        const layout = layoutOf(type, bytes);
        layout.regions.forEach((r, index) => {
          if (r.kind !== 'list' || r.elemSize === 0) return;
          const count = rng.int(Math.min(r.limit, 40) + 1);
          if (count * r.elemSize > MAX_GROW) return;
          const body = new Uint8Array(count * r.elemSize);
          body.set(bytes.subarray(r.start, r.start + Math.min(body.length, r.end - r.start)));
          const out = replaceRegion(bytes, layout, index, body);
          expect(() => type.deserialize(out), `${type.typeName} list at ${r.start} → ${count}`).not.toThrow();
          resized++;
        });
      }
    }
    expect(resized).toBeGreaterThan(0);
  });

  it('the oracle fails a codec that throws a host error, wraps one, or accepts what ChainSafe rejects', () => {
    class Throws extends BooleanType {
      override deserialize(): boolean {
        throw new RangeError('Offset is outside the bounds of the DataView');
      }
    }
    class Lenient extends BooleanType {
      override deserialize(bytes: Uint8Array): boolean {
        return bytes[0] !== 0;
      }
    }
    const verdict = (t: SszType<unknown>, bytes: number[]) => check(t, Uint8Array.from(bytes)).verdict;
    expect(verdict(new Throws() as unknown as SszType<unknown>, [1])).toMatchObject({ kind: 'failure', what: 'non-SszError thrown by deserialize' });
    expect(verdict(new Lenient() as unknown as SszType<unknown>, [2])).toMatchObject({ kind: 'failure', what: 'round trip changes the bytes' });
    expect(verdict(new BooleanType() as unknown as SszType<unknown>, [2])).toEqual({ kind: 'reject', code: 'BAD_BOOLEAN' });
    expect(verdict(new BooleanType() as unknown as SszType<unknown>, [1])).toEqual({ kind: 'accept' });
  });
});

describe('fuzz slice (fixed seed, fixed inputs per target)', () => {
  const slice = (patterns: string, perTarget: number) => () => {
    const stats = runFuzz({ seed: SEED, targets: selectTargets(patterns), perTarget, failuresDir: FAILURES });
    expectClean(stats);
  };
  it('ssz_generic types and the extra schemas: 150 inputs each', slice('generic.*,extra.*', 150), 60_000);
  // Per fork (each target under the fork that first has it), so no one test runs past its timeout.
  for (const fork of FORKS) {
    it(`every consensus type first in ${fork}, minimal preset: 60 inputs each`, () => {
      const targets = allTargets().filter((t) => t.name.startsWith(`minimal.${fork}.`));
      expect(targets.length).toBeGreaterThan(0);
      expectClean(runFuzz({ seed: SEED, targets, perTarget: 60, failuresDir: FAILURES }));
    }, 60_000);
  }
  it('every consensus container, mainnet preset: 4 inputs each', slice('mainnet.*', 4), 60_000);
});
