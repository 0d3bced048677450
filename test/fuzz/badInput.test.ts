/**
 * Bad input, for every container of every fork and both presets: the
 * decoder rejects input one byte short of its fixed part, one byte
 * past the byte bound, a first offset that is not the fixed part's end,
 * and a bitfield with padding bits set or without its delimiter, each with
 * the exact SszError (code, type path, byte offset).
 */
import { describe, expect, it } from 'vitest';
import { ContainerType, SszError, SszType, type SszErrorCode } from '@ssztree/types';
import { FORKS, mainnet, minimal } from '@ssztree/types/consensus';
import { layoutOf } from './layout.js';

function containers(): [string, ContainerType<never>][] {
  const seen = new Set<unknown>();
  const out: [string, ContainerType<never>][] = [];
  for (const [presetName, preset] of [['minimal', minimal], ['mainnet', mainnet]] as const) {
    for (const fork of FORKS) {
      for (const [name, type] of Object.entries(preset[fork])) {
        if (!(type instanceof ContainerType) || seen.has(type)) continue;
        seen.add(type);
        out.push([`${presetName}.${fork}.${name}`, type as ContainerType<never>]);
      }
    }
  }
  return out;
}

function rejection(type: SszType<unknown>, bytes: Uint8Array): { code: SszErrorCode; path: string; offset: number } {
  try {
    type.deserialize(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(SszError);
    const err = e as SszError;
    return { code: err.code, path: err.typePath, offset: err.offset };
  }
  throw new Error(`${type.typeName}: accepted`);
}

describe('bad input: every container of every fork', () => {
  const all = containers();
  it('covers the new containers', () => {
    const names = new Set(all.map(([n]) => n.split('.').pop()));
    for (const n of ['DataColumnSidecar', 'MatrixEntry', 'DataColumnsByRootIdentifier', 'Status', 'Metadata', 'ENRForkID', 'LightClientUpdate', 'PartialDataColumnSidecar', 'BlobSidecarsByRangeRequest']) {
      expect(names.has(n), n).toBe(true);
    }
  });

  it('short and long input', () => {
    for (const [name, type] of all) {
      const min = type.serialize(type.defaultValue());
      const short = min.subarray(0, type.fixedPartSize - 1);
      const r = rejection(type, short);
      expect(r.code, `${name} short`).toBe('SHORT_INPUT');
      expect(r.path, `${name} short`).toBe(type.typeName);
      if (type.fixedSize !== null) {
        expect(r.offset, name).toBe(short.length);
        const long = new Uint8Array(type.fixedSize + 1);
        expect(rejection(type, long), `${name} long`).toEqual({ code: 'TRAILING_BYTES', path: type.typeName, offset: type.fixedSize });
      } else if (type.byteBound < 2 ** 31) {
        const long = new Uint8Array(type.byteBound + 1);
        expect(rejection(type, long), `${name} long`).toEqual({ code: 'BOUND_EXCEEDED', path: type.typeName, offset: type.byteBound });
      }
    }
  });

  it('a first offset that is not the end of the fixed part', () => {
    let tested = 0;
    for (const [name, type] of all) {
      if (type.fixedSize !== null) continue;
      const bytes = type.serialize(type.defaultValue());
      const slot = layoutOf(type, bytes).slots.find((o) => o.base === 0 && o.index === 0);
      expect(slot, name).toBeDefined();
      const bad = bytes.slice();
      new DataView(bad.buffer).setUint32(slot!.pos, type.fixedPartSize + 1, true);
      const [field] = Object.entries(type.fields as Record<string, SszType<unknown>>).find(([, f]) => f.fixedSize === null)!;
      expect(rejection(type, bad), name).toEqual({ code: 'BAD_OFFSET', path: `${type.typeName}.${field}`, offset: slot!.pos });
      tested++;
    }
    expect(tested).toBeGreaterThan(50);
  });

  it('bitfields with padding bits set or without the delimiter', () => {
    let tested = 0;
    for (const [name, type] of all) {
      const bytes = type.serialize(type.defaultValue());
      const region = layoutOf(type, bytes).regions.find(
        (r) => (r.kind === 'bitvector' && (r.type as unknown as { length: number }).length % 8 !== 0) || (r.kind === 'bitlist' && r.end > r.start),
      );
      if (region === undefined) continue;
      const bad = bytes.slice();
      if (region.kind === 'bitvector') bad[region.end - 1] |= 0x80;
      else bad[region.end - 1] = 0;
      const r = rejection(type, bad);
      expect(r.code, name).toBe('BAD_BITS');
      expect(r.path.startsWith(`${type.typeName}.`), `${name}: ${r.path}`).toBe(true);
      expect(r.offset, name).toBeGreaterThanOrEqual(region.start);
      tested++;
    }
    expect(tested).toBeGreaterThan(30);
  });
});
