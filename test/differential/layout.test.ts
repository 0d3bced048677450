/**
 * `checkLayout` against `deserialize`: on valid serializations of every kind
 * (and every consensus container) it passes, reading only inside the input;
 * on corrupted ones it never rejects what `deserialize` accepts; on inputs
 * of zeros (a file of zeros given as a state) it fails exactly as
 * `deserialize` does — same code, type path, offset — reading little more
 * than the fixed part.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SszError, SszType, type ByteReader } from '@ssztree/types';
import { FORKS, mainnet, minimal } from '@ssztree/types/consensus';
import { arbitrary } from './arbitrary.js';
import { COMMON_KINDS } from './kinds.js';

/** A reader over `bytes` that records what it was asked for and refuses ranges outside the input. */
function reader(bytes: Uint8Array): { read: ByteReader; bytesRead: () => number } {
  let total = 0;
  const read: ByteReader = (start, end) => {
    if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && 0 <= start && start <= end && end <= bytes.length)) {
      throw new Error(`read(${start}, ${end}) outside 0..${bytes.length}`);
    }
    total += end - start;
    return bytes.subarray(start, end);
  };
  return { read, bytesRead: () => total };
}

function outcome(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    if (!(e instanceof SszError)) throw e;
    return e.message;
  }
}

function containersOf(fork: object): [string, SszType<unknown>][] {
  return Object.entries(fork).filter((e): e is [string, SszType<unknown>] => e[1] instanceof SszType && /^[A-Z]/.test(e[0]));
}

const KINDS: [string, SszType<unknown>][] = [
  ...Object.entries(COMMON_KINDS),
  ...FORKS.flatMap((fork) => containersOf(minimal[fork]).map(([name, t]) => [`minimal.${fork}.${name}`, t] as [string, SszType<unknown>])),
];

/** A corruption of `bytes`: cut, extended, a byte changed, or a 4-byte word overwritten (offsets). */
const corruption = (bytes: Uint8Array) =>
  fc.oneof(
    fc.nat({ max: Math.max(0, bytes.length - 1) }).map((n) => bytes.subarray(0, n)),
    fc.uint8Array({ minLength: 1, maxLength: 9 }).map((tail) => {
      const out = new Uint8Array(bytes.length + tail.length);
      out.set(bytes);
      out.set(tail, bytes.length);
      return out;
    }),
    fc.tuple(fc.nat({ max: Math.max(0, bytes.length - 1) }), fc.integer({ min: 0, max: 255 })).map(([at, b]) => {
      const out = bytes.slice();
      if (out.length > 0) out[at] = b;
      return out;
    }),
    fc.tuple(fc.nat({ max: Math.max(0, bytes.length - 4) }), fc.integer({ min: 0, max: 2 ** 32 - 1 })).map(([at, w]) => {
      const out = bytes.slice();
      if (out.length >= at + 4) new DataView(out.buffer).setUint32(at, w, true);
      return out;
    }),
  );

describe.each(KINDS)('checkLayout: %s', (_, type) => {
  it('passes valid serializations, reading inside them; never rejects what deserialize accepts', () => {
    fc.assert(
      fc.property(
        arbitrary(type)
          .map((value) => type.serialize(value))
          .chain((bytes) => fc.tuple(fc.constant(bytes), corruption(bytes))),
        ([bytes, bad]) => {
          if (bytes.length > type.byteBound) {
            // Past the spec's explicit byte bound (a heze SignedInclusionList over MAX_SIGNED_INCLUSION_LIST_SIZE):
            // not a valid serialization of the type; the layout check refuses it as deserialize does.
            const refused = outcome(() => type.deserialize(bytes));
            expect(refused).toMatch(/^BOUND_EXCEEDED/);
            expect(outcome(() => type.checkLayout(bytes.length, reader(bytes).read))).toBe(refused);
          } else expect(outcome(() => type.checkLayout(bytes.length, reader(bytes).read))).toBe('ok');
          const layout = outcome(() => type.checkLayout(bad.length, reader(bad).read));
          const decoded = outcome(() => type.deserialize(bad));
          if (layout !== 'ok') expect(decoded).not.toBe('ok');
        },
      ),
      { numRuns: 30 },
    );
  });

  it('fails on zeros exactly as deserialize does', () => {
    for (const size of new Set([0, 1, 4, type.minSize, type.minSize + 1, type.minSize + 100])) {
      const zeros = new Uint8Array(size);
      const layout = outcome(() => type.checkLayout(size, reader(zeros).read));
      const decoded = outcome(() => type.deserialize(zeros));
      if (layout !== 'ok') expect(layout, `${size} bytes`).toBe(decoded);
    }
  });
});

describe('checkLayout of large inputs', () => {
  it('a gigabyte of zeros as an electra BeaconState: the first offset, after reading only the fixed part', () => {
    const S = mainnet.electra.BeaconState;
    const size = 2 ** 30;
    // The reader serves zeros of any range without a gigabyte behind it.
    let bytesRead = 0;
    const read: ByteReader = (start, end) => {
      bytesRead += end - start;
      return new Uint8Array(end - start);
    };
    expect(() => S.checkLayout(size, read)).toThrowError(/^BAD_OFFSET at BeaconState\.\w+ \(byte \d+\): offset 0 is not the fixed part's end \d+$/);
    expect(bytesRead).toBe(S.fixedPartSize);
  });

  it('a real state passes whatever its size, reading a few bytes per variable field', () => {
    const S = mainnet.electra.BeaconState;
    const value = S.defaultValue();
    value.validators = Array.from({ length: 1000 }, () => mainnet.electra.Validator.defaultValue());
    value.balances = new BigUint64Array(1000);
    const bytes = S.serialize(value);
    const r = reader(bytes);
    S.checkLayout(bytes.length, r.read);
    expect(r.bytesRead()).toBeLessThan(S.fixedPartSize + 4096);
  });
});
