/**
 * Container codecs built from closures, for engines where generating code
 * (`new Function`) is refused — a page whose Content-Security-Policy lacks
 * `'unsafe-eval'`. `containerCodegen.ts` uses these when its one-time probe
 * finds code generation unavailable.
 *
 * Invariant: each function here does exactly what its generated twin in
 * `containerCodegen.ts` does, step for step — the same checks in the same
 * order, the same helpers raising the same errors (code, message, byte
 * offset, type path), the same output bytes and value shapes (keys in field
 * order). Only speed differs. `test/browser/cspFallback.test.ts`
 * holds the two to that on valid and corrupted inputs.
 * @module
 */
import { SszError, withPath } from '../errors.js';
import type { BasicType } from '../basicType.js';
import type { SszType } from '../type.js';

/** A field as both codecs see it (the generated one embeds these numbers in its text). */
export interface CodegenField {
  readonly name: string;
  readonly type: SszType<unknown>;
  readonly basic: boolean;
  /** True when the field's root is its own value padded to one chunk (no hashing). */
  readonly rootIsChunk: boolean;
  readonly fixedPos: number;
  readonly fixedSize: number | null;
  readonly segment: string;
}

export type DecodeFn = (data: Uint8Array, dv: DataView, start: number, end: number) => Record<string, unknown>;
export type EncodeFn = (value: Record<string, unknown>, out: Uint8Array, dv: DataView, offset: number) => number;
/** Writes the chunks of basic and one-chunk fields of `count` values into rows of `stride` bytes. */
export type FillFn = (values: readonly unknown[], first: number, count: number, buf: Uint8Array, dv: DataView, stride: number) => void;
/** Decodes `count` fixed-size values back to back from `start` (the count already checked); errors carry `.field` then `[i]`. */
export type DecodeRunFn = (data: Uint8Array, dv: DataView, start: number, count: number) => Record<string, unknown>[];
/** Encodes fixed-size values back to back at `offset`; returns the end. Errors carry `.field` then `[i]`. */
export type EncodeRunFn = (values: readonly unknown[], out: Uint8Array, dv: DataView, offset: number) => number;

/** The error paths shared by generated and generic codecs (generated code calls them as `H.*`). */
export const codecHelpers = {
  withPath,
  wrongSize(start: number, end: number, size: number): never {
    const short = end - start < size;
    throw new SszError(short ? 'SHORT_INPUT' : 'TRAILING_BYTES', `expected ${size} bytes, got ${end - start}`, short ? end : start + size);
  },
  shortFixedPart(start: number, end: number, size: number): never {
    throw new SszError('SHORT_INPUT', `${end - start} bytes cannot hold the fixed part of ${size}`, end);
  },
  badOffset(segment: string, at: number, offset: number, previous: number, first: boolean, size: number): never {
    const why = first ? `is not the fixed part's end ${previous}` : offset < previous ? `is below the previous offset ${previous}` : `is past the end ${size}`;
    throw withPath(new SszError('BAD_OFFSET', `offset ${offset} ${why}`, at), segment);
  },
  notObject(value: unknown, offset: number): never {
    throw new SszError('INVALID_VALUE', `expected an object, got ${value === null ? 'null' : typeof value}`, offset);
  },
};

type AnyBasic = BasicType<unknown, never>;
const H = codecHelpers;

export function genericCodec(
  fields: readonly CodegenField[],
  fixedPartSize: number,
  fixedSize: number | null,
): { decode: DecodeFn; encode: EncodeFn; fill: FillFn; decodeRun: DecodeRunFn | null; encodeRun: EncodeRunFn | null } {
  const n = fields.length;
  /** Indices of the variable-size fields, in order. */
  const vars = fields.map((f, i) => (f.fixedSize === null ? i : -1)).filter((i) => i >= 0);

  const decode: DecodeFn = (data, dv, start, end) => {
    if (fixedSize !== null) {
      if (end - start !== fixedSize) H.wrongSize(start, end, fixedSize);
    } else if (end - start < fixedPartSize) H.shortFixedPart(start, end, fixedPartSize);
    // Every offset is read and checked before any field is decoded, as in the generated code.
    const o = new Array<number>(vars.length);
    const size = end - start;
    for (let v = 0; v < vars.length; v++) {
      const f = fields[vars[v]!]!;
      const ov = dv.getUint32(start + f.fixedPos, true);
      o[v] = ov;
      const bad = v === 0 ? ov !== fixedPartSize : ov < o[v - 1]! || ov > size;
      if (bad) H.badOffset(f.segment, start + f.fixedPos, ov, v === 0 ? fixedPartSize : o[v - 1]!, v === 0, size);
    }
    const out: Record<string, unknown> = {};
    let k = 0;
    let a = start;
    try {
      for (let i = 0, v = 0; i < n; i++) {
        k = i;
        const f = fields[i]!;
        if (f.fixedSize !== null) {
          a = start + f.fixedPos;
          out[f.name] = f.basic ? (f.type as AnyBasic)._read(dv, a) : f.type._decode(data, dv, a, a + f.fixedSize);
        } else {
          a = start + o[v]!;
          out[f.name] = f.type._decode(data, dv, a, v + 1 < vars.length ? start + o[v + 1]! : end);
          v++;
        }
      }
    } catch (e) {
      throw H.withPath(e, fields[k]!.segment, a);
    }
    return out;
  };

  const encode: EncodeFn = (value, out, dv, offset) => {
    if (typeof value !== 'object' || value === null) H.notObject(value, offset);
    let k = 0;
    let a = offset;
    let p = offset + fixedPartSize;
    try {
      for (let i = 0; i < n; i++) {
        const f = fields[i]!;
        k = i;
        a = offset + f.fixedPos;
        const fieldValue = value[f.name];
        if (f.fixedSize === null) {
          dv.setUint32(a, p - offset, true);
          p = f.type._encode(fieldValue, out, dv, p);
        } else if (f.basic) (f.type as AnyBasic)._write(dv, a, fieldValue as never);
        else f.type._encode(fieldValue, out, dv, a);
      }
    } catch (e) {
      throw H.withPath(e, fields[k]!.segment, a);
    }
    return p;
  };

  const fill: FillFn = (values, first, count, buf, dv, stride) => {
    for (let i = 0; i < count; i++) {
      const value = values[first + i] as Record<string, unknown>;
      if (typeof value !== 'object' || value === null) H.notObject(value, -1);
      const b = i * stride;
      for (let j = 0; j < n; j++) {
        const f = fields[j]!;
        if (f.basic) (f.type as AnyBasic)._write(dv, b + 32 * j, value[f.name] as never);
        else if (f.rootIsChunk) f.type._chunkInto(value[f.name], buf, b + 32 * j);
      }
    }
  };

  // Runs: the element loop of sequence.ts over decode/encode, the same errors as the generated runs.
  const decodeRun: DecodeRunFn = (data, dv, start, count) => {
    const size = fixedSize as number;
    const out = new Array<Record<string, unknown>>(count);
    for (let i = 0, pos = start; i < count; i++, pos += size) {
      try {
        out[i] = decode(data, dv, pos, pos + size);
      } catch (e) {
        throw H.withPath(e, `[${i}]`, pos);
      }
    }
    return out;
  };
  const encodeRun: EncodeRunFn = (values, out, dv, offset) => {
    let pos = offset;
    for (let i = 0; i < values.length; i++) {
      try {
        pos = encode(values[i] as Record<string, unknown>, out, dv, pos);
      } catch (e) {
        throw H.withPath(e, `[${i}]`, pos);
      }
    }
    return pos;
  };

  return { decode, encode, fill, decodeRun: fixedSize === null ? null : decodeRun, encodeRun: fixedSize === null ? null : encodeRun };
}
