/**
 * `container(fields, name)`: an ordered record of named fields; the value is
 * a plain object with the declared keys.
 *
 * Layout: the fixed part holds fixed-size fields inline and a 4-byte offset
 * for each variable-size field, the variable part holds their bodies in
 * field order. Decoding checks every offset before decoding any field: the
 * first equals the fixed part's size, none decreases, none passes the end.
 *
 * Roots: a lone value merkleizes its field roots (padded to a power of two)
 * with one fold; many values (the elements of a list) are hashed in
 * batches — field roots are written column by column into one buffer of
 * `count × 2^depth` chunks, composite columns through the field type's own
 * batched `_rootsInto`, and the buffer is folded with one `hashInto` per
 * level for all values at once.
 * @module
 */
import { SszError, withPath } from '../errors.js';
import { expectObject, type Json } from '../json.js';
import { batchSize, depthForLimit, foldSubtrees } from '../merkle.js';
import { BasicType, SszType, type ValueOf } from '../type.js';

/** The schema of each field: any SSZ type. */
export type Fields = Record<string, SszType<unknown>>;
/** The plain-object value of a container with these fields. */
export type ContainerValue<F extends Fields> = { [K in keyof F]: ValueOf<F[K]> };

interface FieldInfo {
  readonly name: string;
  readonly type: SszType<unknown>;
  readonly basic: BasicType<unknown, never> | null;
  /** Byte position in the fixed part (of the value, or of the offset for a variable field). */
  readonly fixedPos: number;
  readonly fixedSize: number | null;
  readonly segment: string;
}

export class ContainerType<F extends Fields> extends SszType<ContainerValue<F>> {
  readonly typeName: string;
  readonly fixedSize: number | null;
  readonly minSize: number;
  readonly maxSize: number;
  readonly isBasic = false;
  readonly fields: F;
  /** Size of the fixed part: inline fixed fields plus 4 per variable field. */
  readonly fixedPartSize: number;
  private readonly infos: readonly FieldInfo[];
  private readonly variable: readonly FieldInfo[];
  private readonly depth: number;

  constructor(fields: F, name = 'Container') {
    super();
    this.typeName = name;
    this.fields = fields;
    const names = Object.keys(fields);
    if (names.length === 0) throw new SszError('INVALID_TYPE', 'a container needs at least one field', -1, name);
    let pos = 0;
    let min = 0;
    let max = 0;
    const infos: FieldInfo[] = [];
    for (const fieldName of names) {
      const type = fields[fieldName] as SszType<unknown>;
      if (!(type instanceof SszType)) throw new SszError('INVALID_TYPE', `field ${fieldName} is not an SSZ type`, -1, name);
      const basic = type instanceof BasicType ? (type as BasicType<unknown, never>) : null;
      infos.push({ name: fieldName, type, basic, fixedPos: pos, fixedSize: type.fixedSize, segment: `.${fieldName}` });
      pos += type.fixedSize ?? 4;
      min += type.fixedSize ?? (4 + type.minSize);
      max += type.fixedSize ?? (4 + type.maxSize);
    }
    this.infos = infos;
    this.variable = infos.filter((f) => f.fixedSize === null);
    this.fixedPartSize = pos;
    this.fixedSize = this.variable.length === 0 ? pos : null;
    this.minSize = min;
    this.maxSize = max;
    this.depth = depthForLimit(infos.length);
  }

  _decode(data: Uint8Array, dv: DataView, start: number, end: number): ContainerValue<F> {
    const size = end - start;
    if (this.fixedSize !== null) this._checkFixed(start, end);
    else if (size < this.fixedPartSize) {
      throw new SszError('SHORT_INPUT', `${size} bytes cannot hold the fixed part of ${this.fixedPartSize}`, end);
    }
    // Variable fields' ranges, validated before any field is decoded.
    const vars = this.variable;
    const bounds = vars.length === 0 ? null : new Array<number>(vars.length + 1);
    if (bounds !== null) {
      let previous = this.fixedPartSize;
      for (let v = 0; v < vars.length; v++) {
        const at = start + (vars[v] as FieldInfo).fixedPos;
        const offset = dv.getUint32(at, true);
        if (v === 0 ? offset !== this.fixedPartSize : offset < previous || offset > size) {
          const why = v === 0 ? `is not the fixed part's end ${this.fixedPartSize}` : offset < previous ? `is below the previous offset ${previous}` : `is past the end ${size}`;
          throw withPath(new SszError('BAD_OFFSET', `offset ${offset} ${why}`, at), (vars[v] as FieldInfo).segment);
        }
        bounds[v] = start + offset;
        previous = offset;
      }
      bounds[vars.length] = end;
    }
    const out: Record<string, unknown> = {};
    let v = 0;
    for (const f of this.infos) {
      let from: number;
      let to: number;
      if (f.fixedSize !== null) {
        from = start + f.fixedPos;
        to = from + f.fixedSize;
      } else {
        from = (bounds as number[])[v] as number;
        to = (bounds as number[])[++v] as number;
      }
      try {
        out[f.name] = f.type._decode(data, dv, from, to);
      } catch (e) {
        throw withPath(e, f.segment, from);
      }
    }
    return out as ContainerValue<F>;
  }

  private check(value: ContainerValue<F>, offset: number): void {
    if (typeof value !== 'object' || value === null) throw new SszError('INVALID_VALUE', `expected an object, got ${value === null ? 'null' : typeof value}`, offset);
  }

  _encode(value: ContainerValue<F>, out: Uint8Array, dv: DataView, offset: number): number {
    this.check(value, offset);
    const record = value as Record<string, unknown>;
    let varPos = offset + this.fixedPartSize;
    for (const f of this.infos) {
      const at = offset + f.fixedPos;
      try {
        if (f.fixedSize !== null) f.type._encode(record[f.name], out, dv, at);
        else {
          dv.setUint32(at, varPos - offset, true);
          varPos = f.type._encode(record[f.name], out, dv, varPos);
        }
      } catch (e) {
        throw withPath(e, f.segment, at);
      }
    }
    return varPos;
  }

  _size(value: ContainerValue<F>): number {
    this.check(value, -1);
    if (this.fixedSize !== null) return this.fixedSize;
    const record = value as Record<string, unknown>;
    let size = this.fixedPartSize;
    for (const f of this.variable) {
      try {
        size += f.type._size(record[f.name]);
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
    return size;
  }

  _rootInto(value: ContainerValue<F>, out: Uint8Array, offset: number): void {
    this._rootsInto([value], out, offset);
  }

  override _rootsInto(values: readonly ContainerValue<F>[], out: Uint8Array, offset: number): void {
    const depth = this.depth;
    const stride = 32 << depth;
    const batch = batchSize(depth);
    const cap = Math.min(batch, values.length);
    const buf = new Uint8Array(stride * cap);
    const dv = new DataView(buf.buffer);
    const column = new Array<unknown>(cap);
    let roots: Uint8Array | null = null;
    for (let first = 0; first < values.length; first += batch) {
      const count = Math.min(batch, values.length - first);
      buf.fill(0, 0, stride * count);
      for (let i = 0; i < count; i++) this.check(values[first + i] as ContainerValue<F>, -1);
      for (let j = 0; j < this.infos.length; j++) {
        const f = this.infos[j] as FieldInfo;
        const name = f.name;
        try {
          if (f.basic !== null) {
            for (let i = 0; i < count; i++) {
              f.basic._write(dv, i * stride + 32 * j, (values[first + i] as Record<string, unknown>)[name] as never);
            }
          } else {
            column.length = count;
            for (let i = 0; i < count; i++) column[i] = (values[first + i] as Record<string, unknown>)[name];
            roots ??= new Uint8Array(32 * cap);
            f.type._rootsInto(column, roots, 0);
            for (let i = 0; i < count; i++) buf.set(roots.subarray(32 * i, 32 * i + 32), i * stride + 32 * j);
          }
        } catch (e) {
          throw withPath(e, f.segment);
        }
      }
      foldSubtrees(buf, count, depth);
      out.set(buf.subarray(0, 32 * count), offset + 32 * first);
    }
  }

  defaultValue(): ContainerValue<F> {
    const out: Record<string, unknown> = {};
    for (const f of this.infos) out[f.name] = f.type.defaultValue();
    return out as ContainerValue<F>;
  }

  equals(a: ContainerValue<F>, b: ContainerValue<F>): boolean {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    for (const f of this.infos) if (!f.type.equals(ra[f.name], rb[f.name])) return false;
    return true;
  }

  clone(value: ContainerValue<F>): ContainerValue<F> {
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const f of this.infos) out[f.name] = f.type.clone(record[f.name]);
    return out as ContainerValue<F>;
  }

  _toJson(value: ContainerValue<F>): Json {
    this.check(value, -1);
    const record = value as Record<string, unknown>;
    const out: { [key: string]: Json } = {};
    for (const f of this.infos) {
      try {
        out[f.name] = f.type._toJson(record[f.name]);
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
    return out;
  }

  _fromJson(json: unknown): ContainerValue<F> {
    const record = expectObject(json);
    for (const key of Object.keys(record)) {
      if (!Object.hasOwn(this.fields, key)) throw new SszError('INVALID_JSON', `unknown field ${key}`);
    }
    const out: Record<string, unknown> = {};
    for (const f of this.infos) {
      if (!Object.hasOwn(record, f.name)) throw new SszError('INVALID_JSON', `missing field ${f.name}`);
      try {
        out[f.name] = f.type._fromJson(record[f.name]);
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
    return out as ContainerValue<F>;
  }
}

export function container<F extends Fields>(fields: F, name?: string): ContainerType<F> {
  return new ContainerType(fields, name);
}
