/**
 * Byte bounds: `deserialize` refuses input longer than a type's bound with
 * BOUND_EXCEEDED before it copies or allocates anything; the bounds of the
 * fulu types are the ones the spec derives from their limits, and two of
 * them are the very numbers gloas writes down as explicit bounds. The gloas
 * and heze types the spec bounds explicitly carry those bounds (both
 * presets), each equal to its type's largest value under the limits the
 * gossip rules check, and a value of exactly that size still decodes.
 */
import { describe, expect, it } from 'vitest';
import { SszError, byteList, container, list, uint64, withByteBound } from '../../src/index.js';
import { MAINNET, MINIMAL, P2P, TYPE_BYTE_BOUNDS, applyByteBounds, mainnet, minimal, p2pPayloadBound, type Preset } from '../../src/consensus/index.js';

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

  /** The largest serialization of each bounded type under the limits the gossip rules check (the spec's derivation of its bounds). */
  const derived = (p: Preset) => {
    const cells = p.MAX_BLOB_COMMITMENTS_PER_BLOCK;
    const indexed = 4 + 128 + 96 + 8 * p.MAX_VALIDATORS_PER_COMMITTEE * p.MAX_COMMITTEES_PER_SLOT;
    const bid = 4 * 32 + 20 + 5 * 8 + 4 + 32 + 48 * cells;
    const aggregationBits = Math.floor((p.MAX_VALIDATORS_PER_COMMITTEE * p.MAX_COMMITTEES_PER_SLOT) / 8) + 1;
    return {
      gloas: {
        // message offset, signature; aggregator index, offset, selection proof; offset, data, signature, committee bits, bits.
        SignedAggregateAndProof: 4 + 96 + 8 + 4 + 96 + 4 + 128 + 96 + Math.ceil(p.MAX_COMMITTEES_PER_SLOT / 8) + aggregationBits,
        AttesterSlashing: 8 + 2 * indexed,
        // index, two offsets, slot, root; a cell and a proof per blob.
        DataColumnSidecar: 8 + 4 + 4 + 8 + 32 + cells * (2048 + 48),
        // three offsets, the bitmap with its delimiter, a cell and a proof per blob.
        PartialDataColumnSidecar: 12 + cells / 8 + 1 + cells * (2048 + 48),
        SignedExecutionPayloadBid: 4 + 96 + bid,
      },
      heze: {
        SignedExecutionPayloadBid: 4 + 96 + bid + Math.ceil(p.INCLUSION_LIST_COMMITTEE_SIZE / 8),
        // offset, signature; slot, validator index, dependent root, offset; one transaction of MAX_TRANSACTIONS_BYTES_PER_INCLUSION_LIST bytes with its offset.
        SignedInclusionList: 4 + 96 + 8 + 8 + 32 + 4 + 4 + 8192,
      },
    };
  };

  it('gloas and heze types carry the spec’s explicit bounds, each the largest value under the gossip limits', () => {
    for (const [types, p] of [[mainnet, MAINNET], [minimal, MINIMAL]] as const) {
      for (const fork of ['gloas', 'heze'] as const) {
        const table = TYPE_BYTE_BOUNDS[fork];
        const want = derived(p)[fork] as Record<string, number>;
        expect(Object.keys(table).sort()).toEqual(Object.keys(want).sort());
        for (const [name, constant] of Object.entries(table)) {
          const type = (types[fork] as unknown as Record<string, { byteBound: number; maxSize: number }>)[name]!;
          expect(type.byteBound, `${p.name}.${fork}.${name}`).toBe(p[constant]);
          expect(type.byteBound, `${p.name}.${fork}.${name} derived`).toBe(want[name]);
          // Without the bound, progressive lists would let the type reach 4 GiB and more.
          expect(type.maxSize, name).toBeGreaterThan(2 ** 32 - 1);
        }
      }
      // Carried over, not set again: heze's sidecar is gloas's, bound and all.
      expect(types.heze.DataColumnSidecar).toBe(types.gloas.DataColumnSidecar);
      expect(types.gloas.SignedAggregateAndProof.byteBound).toBe(types.fulu.SignedAggregateAndProof.byteBound);
    }
  });

  it('gloas and heze: one byte past the bound is BOUND_EXCEEDED before anything is copied; exactly the bound decodes', () => {
    for (const types of [mainnet, minimal]) {
      for (const fork of ['gloas', 'heze'] as const) {
        for (const name of Object.keys(TYPE_BYTE_BOUNDS[fork])) {
          const type = (types[fork] as unknown as Record<string, { byteBound: number; typeName: string; deserialize(b: Uint8Array): unknown; deserializeToView(b: Uint8Array): unknown }>)[name]!;
          for (const decode of [(b: Uint8Array) => type.deserialize(b), (b: Uint8Array) => type.deserializeToView(b)]) {
            let err: unknown;
            try {
              decode(new NoCopy(type.byteBound + 1));
            } catch (e) {
              err = e;
            }
            expect(err, name).toBeInstanceOf(SszError);
            expect([(err as SszError).code, (err as SszError).typePath, (err as SszError).offset], name).toEqual(['BOUND_EXCEEDED', type.typeName, type.byteBound]);
          }
        }
      }
    }
    // The largest sidecar the spec allows (a cell and a proof for each of 4096 blobs) is exactly the bound, and decodes.
    const T = mainnet.gloas.DataColumnSidecar;
    const cells = MAINNET.MAX_BLOB_COMMITMENTS_PER_BLOCK;
    const full = { index: 1n, column: Array.from({ length: cells }, () => new Uint8Array(2048)), kzg_proofs: Array.from({ length: cells }, () => new Uint8Array(48)), slot: 5n, beacon_block_root: new Uint8Array(32) };
    const bytes = T.serialize(full);
    expect(bytes.length).toBe(MAINNET.MAX_DATA_COLUMN_SIDECAR_SIZE);
    expect(T.deserialize(bytes).column.length).toBe(cells);
    const longer = new Uint8Array(bytes.length + 48);
    longer.set(bytes);
    expect(() => T.deserialize(longer)).toThrow(/BOUND_EXCEEDED|exceed the bound/);
    // A bid's bound: its 4096 commitments fit; one more does not.
    const B = mainnet.gloas.SignedExecutionPayloadBid;
    const v = B.defaultValue();
    const bid = { ...v, message: { ...v.message, blob_kzg_commitments: Array.from({ length: cells + 1 }, () => new Uint8Array(48)) } };
    expect(() => B.deserialize(B.serialize(bid))).toThrow(SszError);
    expect(B.deserialize(B.serialize({ ...bid, message: { ...bid.message, blob_kzg_commitments: bid.message.blob_kzg_commitments.slice(1) } })).message.blob_kzg_commitments.length).toBe(cells);
  });
});
