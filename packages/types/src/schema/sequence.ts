/**
 * The codec shared by vectors and lists of composite elements: fixed-size
 * elements back to back, or variable-size elements behind a table of 4-byte
 * offsets.
 *
 * Strictness kept here: the first offset must equal the offset table's own
 * size (4·n), offsets never decrease and never pass the end, and the element
 * count a first offset implies is checked against the limit before anything
 * is allocated for it — n ≤ size/4 always, so allocation stays proportional
 * to the input.
 * @module
 */
import { SszError, withPath } from '../errors.js';
import type { ByteReader, SszType } from '../type.js';

/**
 * Element types that code a run of fixed-size values in one loop of their own
 * (containers: one generated loop, every field inlined, the same bytes,
 * values and errors as the loops below).
 */
interface RunCodec<V> {
  readonly _decodeRun?: ((data: Uint8Array, dv: DataView, start: number, count: number) => V[]) | null;
  readonly _encodeRun?: ((values: readonly V[], out: Uint8Array, dv: DataView, offset: number) => number) | null;
}

/** Decodes `count` fixed-size elements back to back (count already validated). */
function decodeFixed<V>(elem: SszType<V>, data: Uint8Array, dv: DataView, start: number, count: number, size: number): V[] {
  const run = (elem as RunCodec<V>)._decodeRun;
  if (run) return run(data, dv, start, count);
  const out = new Array<V>(count);
  for (let i = 0, pos = start; i < count; i++, pos += size) {
    try {
      out[i] = elem._decode(data, dv, pos, pos + size);
    } catch (e) {
      throw withPath(e, `[${i}]`, pos);
    }
  }
  return out;
}

/** Decodes variable-size elements whose offset table has `count` entries starting at `start`. */
function decodeVariable<V>(elem: SszType<V>, data: Uint8Array, dv: DataView, start: number, end: number, count: number): V[] {
  const out = new Array<V>(count);
  let from = start + 4 * count; // the first offset, already checked equal to 4·count
  for (let i = 0; i < count; i++) {
    let to = end;
    if (i + 1 < count) {
      const at = start + 4 * (i + 1);
      to = start + dv.getUint32(at, true);
      if (to < from || to > end) {
        throw new SszError('BAD_OFFSET', `offset ${to - start} of element ${i + 1} is ${to < from ? 'below the previous one' : 'past the end'}`, at);
      }
    }
    try {
      out[i] = elem._decode(data, dv, from, to);
    } catch (e) {
      throw withPath(e, `[${i}]`, from);
    }
    from = to;
  }
  return out;
}

/**
 * The element count `size` bytes of fixed-size elements hold, or the error a
 * list of at most `limit` of them raises (`bound` names that limit in errors).
 */
export function fixedElementCount(size: number, fixed: number, start: number, end: number, limit: number, bound = `the limit of ${limit}`): number {
  if (size % fixed !== 0) throw new SszError('BAD_SIZE', `${size} bytes are not a whole number of ${fixed}-byte elements`, end);
  const count = size / fixed;
  if (count > limit) throw new SszError('LIMIT_EXCEEDED', `${count} elements exceed ${bound}`, start + limit * fixed);
  return count;
}

/**
 * The element count of a list of composites in `[start, end)` — checked
 * against `limit` — from its size (fixed-size elements) or from its first
 * offset, read by `firstOffset` (variable-size elements).
 */
function compositeListCount(elem: SszType<unknown>, start: number, end: number, limit: number, bound: string, firstOffset: () => number): number {
  const size = end - start;
  const fixed = elem.fixedSize;
  if (fixed !== null) return fixedElementCount(size, fixed, start, end, limit, bound);
  if (size === 0) return 0;
  if (size < 4) throw new SszError('SHORT_INPUT', `${size} bytes cannot hold the first offset`, end);
  const first = firstOffset();
  if (first % 4 !== 0 || first === 0 || first > size) {
    throw new SszError('BAD_OFFSET', `first offset ${first} is not a non-zero multiple of 4 within ${size} bytes`, start);
  }
  const count = first / 4;
  if (count > limit) throw new SszError('LIMIT_EXCEEDED', `${count} elements exceed ${bound}`, start);
  return count;
}

/** Checks that `[start, end)` fits a vector of `length` composites: its size (fixed-size elements) or its first offset. */
function checkCompositeVector(elem: SszType<unknown>, start: number, end: number, length: number, firstOffset: () => number): void {
  const size = end - start;
  const fixed = elem.fixedSize;
  if (fixed !== null) {
    const want = fixed * length;
    if (size !== want) {
      throw new SszError(size < want ? 'SHORT_INPUT' : 'TRAILING_BYTES', `expected ${want} bytes, got ${size}`, size < want ? end : start + want);
    }
    return;
  }
  if (size < 4 * length) throw new SszError('SHORT_INPUT', `${size} bytes cannot hold ${length} offsets`, end);
  const first = firstOffset();
  if (first !== 4 * length) throw new SszError('BAD_OFFSET', `first offset ${first} is not the offset table's end ${4 * length}`, start);
}

/** Decodes a list of composites in `[start, end)`, rejecting more than `limit` elements (`bound` names that limit in errors). */
export function decodeCompositeList<V>(elem: SszType<V>, data: Uint8Array, dv: DataView, start: number, end: number, limit: number, bound = `the limit of ${limit}`): V[] {
  const count = compositeListCount(elem as SszType<unknown>, start, end, limit, bound, () => dv.getUint32(start, true));
  if (elem.fixedSize !== null) return decodeFixed(elem, data, dv, start, count, elem.fixedSize);
  return count === 0 ? [] : decodeVariable(elem, data, dv, start, end, count);
}

/** Decodes a vector of exactly `length` composites in `[start, end)`. */
export function decodeCompositeVector<V>(elem: SszType<V>, data: Uint8Array, dv: DataView, start: number, end: number, length: number): V[] {
  checkCompositeVector(elem as SszType<unknown>, start, end, length, () => dv.getUint32(start, true));
  if (elem.fixedSize !== null) return decodeFixed(elem, data, dv, start, length, elem.fixedSize);
  return decodeVariable(elem, data, dv, start, end, length);
}

/** The little-endian uint32 at `at` of the serialization `read` gives. */
function readOffset(read: ByteReader, at: number): number {
  const b = read(at, at + 4);
  return new DataView(b.buffer, b.byteOffset, 4).getUint32(0, true);
}

/** `checkLayout` of a list of composites: its element count (the first offset read when elements vary in size). */
export function checkCompositeListLayout(elem: SszType<unknown>, read: ByteReader, start: number, end: number, limit: number, bound = `the limit of ${limit}`): void {
  compositeListCount(elem, start, end, limit, bound, () => readOffset(read, start));
}

/** `checkLayout` of a vector of composites: its size, or its first offset. */
export function checkCompositeVectorLayout(elem: SszType<unknown>, read: ByteReader, start: number, end: number, length: number): void {
  checkCompositeVector(elem, start, end, length, () => readOffset(read, start));
}

/** Encodes composites at `offset` (fixed: back to back; variable: offset table then bodies). */
export function encodeComposites<V>(elem: SszType<V>, values: readonly V[], out: Uint8Array, dv: DataView, offset: number): number {
  const n = values.length;
  if (elem.fixedSize !== null) {
    const run = (elem as RunCodec<V>)._encodeRun;
    if (run) return run(values, out, dv, offset);
    let pos = offset;
    for (let i = 0; i < n; i++) {
      try {
        pos = elem._encode(values[i] as V, out, dv, pos);
      } catch (e) {
        throw withPath(e, `[${i}]`, pos);
      }
    }
    return pos;
  }
  let pos = offset + 4 * n;
  for (let i = 0; i < n; i++) {
    dv.setUint32(offset + 4 * i, pos - offset, true);
    try {
      pos = elem._encode(values[i] as V, out, dv, pos);
    } catch (e) {
      throw withPath(e, `[${i}]`, pos);
    }
  }
  return pos;
}

/** The serialized size of composites (variable-size ones cost 4 offset bytes each). */
export function sizeComposites<V>(elem: SszType<V>, values: readonly V[]): number {
  if (!Array.isArray(values)) throw new SszError('INVALID_VALUE', `expected an array, got ${typeof values}`);
  if (elem.fixedSize !== null) return elem.fixedSize * values.length;
  let size = 4 * values.length;
  for (let i = 0; i < values.length; i++) {
    try {
      size += elem._size(values[i] as V);
    } catch (e) {
      throw withPath(e, `[${i}]`);
    }
  }
  return size;
}

/** Element-wise equality of composite arrays. */
export function compositesEqual<V>(elem: SszType<V>, a: readonly V[], b: readonly V[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!elem.equals(a[i] as V, b[i] as V)) return false;
  return true;
}
