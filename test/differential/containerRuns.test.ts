/**
 * Runs of fixed-size containers — the generated `decodeRun`/`encodeRun`
 * loops of containerCodegen.ts with fields inlined by containerInline.ts,
 * which lists and vectors of such containers go through — against three
 * oracles:
 * - a plain DataView reference codec of every inlined field kind (bytes);
 * - @chainsafe/ssz on lists of Validators (bytes and values, both ways);
 * - a second instance of the package loaded with `SSZTREE_NO_CODEGEN=1`,
 *   whose containers use the closure codecs and the per-element loop: the
 *   same bytes, values and errors (code, detail, byte offset, type path) on
 *   valid input, corrupted bytes and invalid values.
 */
import * as cs from '@chainsafe/ssz';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as ours from '@ssztree/types';
import { arbitrary } from './arbitrary.js';

type Lib = typeof ours;
type V = Record<string, unknown>;
let generic: Lib;

/** One container with every field kind the runs inline, plus a nested container and a packed vector (method calls); no BitArray (its class differs between the two instances). */
function schemas(lib: Lib) {
  const Inner = lib.container({ x: lib.uint64, y: lib.byteVector(32) }, 'Inner');
  const Mixed = lib.container(
    {
      a: lib.uint8,
      b: lib.uint16,
      c: lib.uint32,
      d: lib.uint64,
      e: lib.uint64Number,
      f: lib.boolean,
      g: lib.byteVector(5),
      h: lib.byteVector(48),
      i: Inner,
      j: lib.vector(lib.uint16, 1),
      k: lib.uint64,
    },
    'Mixed',
  );
  const Validator = lib.container(
    {
      pubkey: lib.byteVector(48),
      withdrawal_credentials: lib.byteVector(32),
      effective_balance: lib.uint64,
      slashed: lib.boolean,
      activation_eligibility_epoch: lib.uint64,
      activation_epoch: lib.uint64,
      exit_epoch: lib.uint64,
      withdrawable_epoch: lib.uint64,
    },
    'Validator',
  );
  return {
    Mixed: Mixed as unknown as ours.SszType<V>,
    Mixeds: lib.list(Mixed, 64) as unknown as ours.SszType<V[]>,
    MixedVector: lib.vector(Mixed, 3) as unknown as ours.SszType<V[]>,
    Validators: lib.list(Validator, 2 ** 40) as unknown as ours.SszType<V[]>,
  };
}
const S = schemas(ours);
let G: ReturnType<typeof schemas>;

/** The plain reference: each field written with DataView calls, in field order. */
function referenceMixed(values: readonly V[]): Uint8Array {
  const size = 1 + 2 + 4 + 8 + 8 + 1 + 5 + 48 + 40 + 2 + 8;
  const out = new Uint8Array(size * values.length);
  const dv = new DataView(out.buffer);
  values.forEach((v, n) => {
    let p = n * size;
    dv.setUint8(p, v.a as number);
    dv.setUint16(p + 1, v.b as number, true);
    dv.setUint32(p + 3, v.c as number, true);
    dv.setBigUint64(p + 7, v.d as bigint, true);
    const e = v.e as number;
    dv.setBigUint64(p + 15, e === Infinity ? 2n ** 64n - 1n : BigInt(e), true);
    dv.setUint8(p + 23, v.f ? 1 : 0);
    out.set(v.g as Uint8Array, p + 24);
    out.set(v.h as Uint8Array, p + 29);
    const inner = v.i as V;
    dv.setBigUint64(p + 77, inner.x as bigint, true);
    out.set(inner.y as Uint8Array, p + 85);
    p += 117;
    dv.setUint16(p, (v.j as Uint16Array)[0]!, true);
    dv.setBigUint64(p + 2, v.k as bigint, true);
  });
  return out;
}

/** What decoding gives: the re-encoding, or the error's fields. */
function decoded(type: ours.SszType<unknown>, bytes: Uint8Array): unknown {
  try {
    return { bytes: ours.toHex(type.serialize(type.deserialize(bytes))) };
  } catch (e) {
    return errorFields(e);
  }
}
function encoded(type: ours.SszType<unknown>, value: unknown): unknown {
  try {
    return { bytes: ours.toHex(type.serialize(value)) };
  } catch (e) {
    return errorFields(e);
  }
}
function errorFields(e: unknown): unknown {
  const err = e as { name: string; code: string; detail: string; offset: number; typePath: string; message: string };
  return { name: err.name, code: err.code, detail: err.detail, offset: err.offset, typePath: err.typePath, message: err.message };
}

/** Values of Mixed, with runs of equal and nearly equal uint64s (same low word, another high word) to exercise the decoder's memo. */
const mixedValues = fc.array(
  fc.tuple(arbitrary(S.Mixed as never), fc.constantFrom(0n, 1n, 2n ** 32n + 1n, 1n + 2n ** 33n, 2n ** 64n - 1n, 32_000_000_000n), fc.boolean()),
  { maxLength: 64 },
).map((rows) => rows.map(([v, d, keep]) => (keep ? (v as V) : { ...(v as V), d, k: d })));

describe('runs of fixed-size containers', () => {
  beforeAll(async () => {
    vi.stubEnv('SSZTREE_NO_CODEGEN', '1');
    vi.resetModules();
    generic = await import('@ssztree/types');
    G = schemas(generic);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('the second instance uses closure codecs, this one generated runs', () => {
    const codecOf = (t: ours.SszType<unknown>) => (t as unknown as { codec: { generated: boolean; encodeRun: unknown } }).codec;
    expect(codecOf(G.Mixed).generated).toBe(false);
    expect(codecOf(S.Mixed).generated).toBe(true);
    expect(codecOf(S.Mixed).encodeRun).not.toBeNull();
  });

  it('random lists and vectors: bytes as the plain reference, values back, the same as the closure codecs', () => {
    fc.assert(
      fc.property(mixedValues, (values) => {
        const bytes = S.Mixeds.serialize(values);
        expect(ours.toHex(bytes)).toBe(ours.toHex(referenceMixed(values)));
        expect(ours.toHex(G.Mixeds.serialize(values))).toBe(ours.toHex(bytes));
        const back = S.Mixeds.deserialize(bytes);
        expect(S.Mixeds.equals(back, values)).toBe(true);
        expect(back).toEqual(G.Mixeds.deserialize(bytes));
        // Byte fields view one private copy of the input: the caller's buffer can change under the value.
        bytes.fill(0xee);
        expect(S.Mixeds.equals(back, values)).toBe(true);
        if (values.length >= 3) {
          const three = values.slice(0, 3);
          const vb = S.MixedVector.serialize(three);
          expect(ours.toHex(vb)).toBe(ours.toHex(referenceMixed(three)));
          expect(S.MixedVector.deserialize(vb)).toEqual(three.map((v) => S.Mixed.deserialize(S.Mixed.serialize(v))));
        }
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('lists of Validators agree with @chainsafe/ssz both ways', () => {
    const csValidators = new cs.ListCompositeType(
      new cs.ContainerType({
        pubkey: new cs.ByteVectorType(48),
        withdrawal_credentials: new cs.ByteVectorType(32),
        effective_balance: new cs.UintBigintType(8),
        slashed: new cs.BooleanType(),
        activation_eligibility_epoch: new cs.UintBigintType(8),
        activation_epoch: new cs.UintBigintType(8),
        exit_epoch: new cs.UintBigintType(8),
        withdrawable_epoch: new cs.UintBigintType(8),
      }),
      2 ** 40,
    );
    fc.assert(
      fc.property(fc.array(arbitrary(S.Validators as never) as fc.Arbitrary<V[]>, { maxLength: 4 }), (chunks) => {
        const values = chunks.flat();
        const bytes = S.Validators.serialize(values);
        expect(ours.toHex(bytes)).toBe(ours.toHex(csValidators.serialize(values as never)));
        const back = S.Validators.deserialize(bytes);
        expect(ours.toHex(csValidators.serialize(back as never))).toBe(ours.toHex(bytes));
        expect(S.Validators.equals(back, csValidators.deserialize(bytes) as never)).toBe(true);
      }),
      { numRuns: 200, seed: 12 },
    );
  });

  it('corrupted bytes: the same error as the closure codecs (code, detail, offset, path)', () => {
    fc.assert(
      fc.property(
        mixedValues.filter((v) => v.length > 0),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: -3, max: 3 }),
        (values, edits, resize) => {
          const good = S.Mixeds.serialize(values);
          const bad = new Uint8Array(Math.max(0, good.length + resize));
          bad.set(good.subarray(0, bad.length));
          for (const [at, byte] of edits) if (bad.length > 0) bad[at % bad.length] = byte;
          const want = decoded(G.Mixeds, bad);
          expect(decoded(S.Mixeds, bad)).toEqual(want);
          if (resize === 0 && bad.length === 127 * 3) expect(decoded(S.MixedVector, bad)).toEqual(decoded(G.MixedVector, bad));
        },
      ),
      { numRuns: 600, seed: 13 },
    );
    // Named cases: a boolean byte of 2 in element 2, a uint64Number above 2^53 in element 1.
    const values = fc.sample(mixedValues.filter((v) => v.length >= 3), { numRuns: 1, seed: 5 })[0]!;
    const bytes = S.Mixeds.serialize(values);
    const bool = bytes.slice();
    bool[2 * 127 + 23] = 2;
    expect(decoded(S.Mixeds, bool)).toMatchObject({ code: 'BAD_BOOLEAN', offset: 2 * 127 + 23, typePath: 'List[Mixed, 64][2].f' });
    const big = bytes.slice();
    new DataView(big.buffer).setUint32(127 + 15 + 4, 0x300000, true);
    expect(decoded(S.Mixeds, big)).toMatchObject({ code: 'INVALID_VALUE', offset: 127 + 15, typePath: 'List[Mixed, 64][1].e' });
  });

  it('invalid values: the same error as the closure codecs, and the inline paths reject what the field types reject', () => {
    const bad: Record<string, unknown[]> = {
      a: [256, -1, 1.5, '1', null, NaN, 2 ** 32],
      b: [65536, -1, 0.5, 1n],
      c: [2 ** 32, -1, 2 ** 31 + 0.5, Infinity, 3n],
      d: [-1n, 2n ** 64n, 5, '5', undefined],
      e: [2 ** 53 + 2, -1, 1.5, NaN, -Infinity, 1n],
      f: [0, 1, 'true', null],
      g: [new Uint8Array(4), new Uint8Array(6), [1, 2, 3, 4, 5], 'abcde'],
      h: [new Uint8Array(47), new Uint16Array(24), null],
      i: [null, 5, { x: -1n, y: new Uint8Array(32) }, { x: 1n, y: new Uint8Array(31) }],
      j: [null, new Uint8Array(2), new Uint16Array(2), [1]],
      k: [2n ** 64n, -5n],
    };
    fc.assert(
      fc.property(
        mixedValues.filter((v) => v.length > 0),
        fc.nat(),
        fc.constantFrom(...Object.keys(bad)),
        fc.nat(),
        (values, at, field, pick) => {
          const list = values.slice();
          const i = at % list.length;
          const choices = bad[field]!;
          list[i] = { ...list[i], [field]: choices[pick % choices.length] };
          const want = encoded(G.Mixeds, list);
          expect(want).toMatchObject({ name: 'SszError' });
          expect((want as { typePath: string }).typePath.startsWith(`List[Mixed, 64][${i}].${field}`)).toBe(true);
          expect(encoded(S.Mixeds, list)).toEqual(want);
        },
      ),
      { numRuns: 600, seed: 14 },
    );
    // Elements that are no object, a missing field, a throwing getter.
    const values = fc.sample(mixedValues.filter((v) => v.length >= 2), { numRuns: 1, seed: 6 })[0]!;
    const getter = { ...values[1] };
    Object.defineProperty(getter, 'd', {
      get() {
        throw new RangeError('no d');
      },
    });
    const { h: _dropped, ...missing } = values[1]!;
    for (const element of [null, 7, 'x', missing, getter]) {
      const list = [values[0], element, ...values.slice(2)];
      const want = encoded(G.Mixeds, list);
      expect(want).toMatchObject({ name: 'SszError' });
      expect(encoded(S.Mixeds, list)).toEqual(want);
    }
    expect(encoded(S.Mixeds, [values[0], getter])).toMatchObject({ code: 'INVALID_VALUE', offset: 127 + 7, typePath: 'List[Mixed, 64][1].d' });
  });
});
