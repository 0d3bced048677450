/**
 * Byte bounds: `deserialize` refuses input longer than a type's bound with
 * BOUND_EXCEEDED before it copies or allocates anything; the bounds of the
 * fulu types are the ones the spec derives from their limits, and two of
 * them are the very numbers gloas writes down as explicit bounds.
 */
import { describe, expect, it } from 'vitest';
import { SszError, byteList, container, list, uint64, withByteBound } from '../../src/index.js';
import { MAINNET, MINIMAL, P2P, TYPE_BYTE_BOUNDS, applyByteBounds, mainnet, minimal, p2pPayloadBound } from '../../src/consensus/index.js';

/** A Uint8Array whose copy throws: decoding must refuse it before making one. */
class NoCopy extends Uint8Array {
  override slice(): Uint8Array<ArrayBuffer> {
    throw new Error('copied');
  }
}

describe('byte bounds', () => {
  it('refuses longer input up front, in deserialize and deserializeToView', () => {
    const T = withByteBound(container({ a: uint64, body: list(uint64, 2 ** 40) }, 'Bounded'), 100);
    expect(T.byteBound).toBe(100);
    expect(T.deserialize(T.serialize({ a: 1n, body: new BigUint64Array(11) })).body.length).toBe(11);
    for (const decode of [(b: Uint8Array) => T.deserialize(b), (b: Uint8Array) => T.deserializeToView(b)]) {
      const err = (() => {
        try {
          decode(new NoCopy(101));
        } catch (e) {
          return e as SszError;
        }
        throw new Error('accepted');
      })();
      expect(err).toBeInstanceOf(SszError);
      expect([err.code, err.typePath, err.offset]).toEqual(['BOUND_EXCEEDED', 'Bounded', 100]);
    }
  });

  it('is set once, never below the smallest size', () => {
    const T = withByteBound(byteList(1000), 10);
    expect(() => withByteBound(T, 20)).toThrow(SszError);
    expect(() => withByteBound(container({ a: uint64, b: byteList(9) }), 11)).toThrow(/below the smallest size 12/);
  });

  it('fulu types are bounded by their limits; gloas keeps two of those bounds as its explicit ones', () => {
    for (const [types, p] of [[mainnet, MAINNET], [minimal, MINIMAL]] as const) {
      expect(types.fulu.SignedAggregateAndProof.byteBound).toBe(p.MAX_SIGNED_AGGREGATE_AND_PROOF_SIZE);
      expect(types.fulu.AttesterSlashing.byteBound).toBe(p.MAX_ATTESTER_SLASHING_SIZE);
      // The gloas sidecar drops fields; its explicit bound is below the fulu one.
      expect(types.fulu.DataColumnSidecar.byteBound).toBe(8 + 4 + 4 + 4 + 208 + 4 * 32 + 4096 * (2048 + 48 + 48));
      expect(types.fulu.DataColumnSidecar.byteBound).toBeGreaterThan(p.MAX_DATA_COLUMN_SIDECAR_SIZE);
    }
    expect(p2pPayloadBound(mainnet.fulu.DataColumnSidecar)).toBe(mainnet.fulu.DataColumnSidecar.byteBound);
    expect(p2pPayloadBound(mainnet.fulu.SignedBeaconBlock)).toBe(P2P.MAX_PAYLOAD_SIZE);
  });

  it('applyByteBounds sets a fork’s named bounds (the gloas table, on stand-ins for its types)', () => {
    const types: Record<string, unknown> = {};
    for (const name of Object.keys(TYPE_BYTE_BOUNDS.gloas)) types[name] = container({ a: uint64, rest: byteList(2 ** 30) }, name);
    applyByteBounds(types, 'gloas', MAINNET);
    expect((types['DataColumnSidecar'] as { byteBound: number }).byteBound).toBe(8_585_272);
    expect(() => applyByteBounds({}, 'heze', MAINNET)).toThrow(/no type/);
  });
});
