/**
 * `boolean`: one byte, 0 or 1; any other byte is rejected when decoding.
 * Sequences of booleans are plain `boolean[]`.
 * @module
 */
import { SszError } from '../errors.js';
import type { Json } from '../json.js';
import { describe } from '../json.js';
import { BasicType } from '../basicType.js';
import { packGeneric } from './uint.js';

export class BooleanType extends BasicType<boolean, boolean[]> {
  readonly typeName = 'boolean';
  readonly fixedSize = 1;
  readonly minSize = 1;
  readonly maxSize = 1;
  readonly byteLength = 1;

  _read(dv: DataView, offset: number): boolean {
    const b = dv.getUint8(offset);
    if (b > 1) throw new SszError('BAD_BOOLEAN', `boolean byte 0x${b.toString(16).padStart(2, '0')} is neither 0 nor 1`, offset);
    return b === 1;
  }
  _write(dv: DataView, offset: number, value: boolean): void {
    if (typeof value !== 'boolean') throw new SszError('INVALID_VALUE', `${String(value)} is not a boolean`, offset);
    dv.setUint8(offset, value ? 1 : 0);
  }
  _newArray(n: number): boolean[] {
    return new Array<boolean>(n).fill(false);
  }
  _isArray(a: unknown): a is boolean[] {
    return Array.isArray(a);
  }
  _cloneArray(a: boolean[]): boolean[] {
    return a.slice();
  }
  _pack(a: boolean[]): Uint8Array {
    return packGeneric(this, a);
  }
  defaultValue(): boolean {
    return false;
  }
  _toJson(value: boolean): Json {
    return value;
  }
  _fromJson(json: unknown): boolean {
    if (typeof json !== 'boolean') throw new SszError('INVALID_JSON', `expected a boolean, got ${describe(json)}`);
    return json;
  }
}

/** `boolean`: a `boolean` value, serialized as one byte 0 or 1 (anything else is rejected). */
export const boolean = /* @__PURE__ */ new BooleanType();
