/**
 * `union([...])` (Union[...]): one selector byte, then the selected option's
 * serialization. An option may be `null` (SSZ's None) only at selector 0,
 * and then carries no bytes. Value: `{ selector, value }`. Root:
 * SHA-256(root(value) ‖ uint256-le(selector)), with the zero chunk for None.
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError, withPath } from '../errors.js';
import { expectObject, type Json } from '../json.js';
import { mixInLengthInto } from '../merkle.js';
import { readChunk, readMixed } from '../tree/nodes.js';
import { SszType, type ByteReader, type ValueOf } from '../type.js';
import type { PathSegment, PathStep } from '../tree/proofs.js';
import { shapeKey } from '../shape.js';

/** A union's options: schemas, with `null` (None) allowed as the first. */
export type UnionOptions = readonly (SszType<unknown> | null)[];

/** One `{ selector, value }` per option, so narrowing on `selector` is possible with literal tuples. */
export type UnionValue<O extends UnionOptions> = {
  [I in keyof O]: { readonly selector: I extends `${infer N extends number}` ? N : number; value: O[I] extends SszType<unknown> ? ValueOf<O[I]> : null };
}[number];

interface Selected {
  selector: number;
  value: unknown;
}

export class UnionType<O extends UnionOptions> extends SszType<UnionValue<O>> {
  readonly typeName: string;
  readonly fixedSize = null;
  readonly minSize: number;
  readonly maxSize: number;
  readonly isBasic = false;

  constructor(readonly options: O) {
    super();
    this.typeName = `Union[${options.map((o) => (o === null ? 'None' : o.typeName)).join(', ')}]`;
    if (options.length === 0 || options.length > 128) {
      throw new SszError('INVALID_TYPE', `a union needs 1..128 options, got ${options.length}`, -1, this.typeName);
    }
    options.forEach((o, i) => {
      if (o === null ? i !== 0 || options.length === 1 : !(o instanceof SszType)) {
        throw new SszError('INVALID_TYPE', `option ${i} cannot be ${o === null ? 'None' : 'a non-SSZ type'}`, -1, this.typeName);
      }
    });
    this.minSize = 1 + Math.min(...options.map((o) => (o === null ? 0 : o.minSize)));
    this.maxSize = 1 + Math.max(...options.map((o) => (o === null ? 0 : o.maxSize)));
  }

  private option(selector: number, offset: number): SszType<unknown> | null {
    if (!Number.isInteger(selector) || selector < 0 || selector >= this.options.length) {
      throw new SszError('BAD_SELECTOR', `selector ${selector} is outside 0..${this.options.length - 1}`, offset);
    }
    return this.options[selector] as SszType<unknown> | null;
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return `Union[${this.options.map((o) => (o === null ? 'None' : shapeKey(o as SszType<unknown>))).join(',')}]`;
  }

  _decode(data: Uint8Array, dv: DataView, start: number, end: number): UnionValue<O> {
    const selector = end > start ? dv.getUint8(start) : -1;
    const type = this.selected(selector, start, end);
    if (type === null) return { selector, value: null } as UnionValue<O>;
    try {
      return { selector, value: type._decode(data, dv, start + 1, end) } as UnionValue<O>;
    } catch (e) {
      throw withPath(e, `[${selector}]`, start + 1);
    }
  }

  /** The option a serialization `[start, end)` with `selector` (-1: no byte for it) holds, or the error its selector or size raises. */
  private selected(selector: number, start: number, end: number): SszType<unknown> | null {
    if (end - start < 1) throw new SszError('SHORT_INPUT', 'a union needs its selector byte', start);
    const type = this.option(selector, start);
    if (type === null && end - start !== 1) throw new SszError('TRAILING_BYTES', 'None carries no bytes', start + 1);
    return type;
  }

  override _checkLayout(read: ByteReader, start: number, end: number): void {
    const selector = end > start ? (read(start, start + 1)[0] as number) : -1;
    const type = this.selected(selector, start, end);
    if (type === null) return;
    try {
      type._checkLayout(read, start + 1, end);
    } catch (e) {
      throw withPath(e, `[${selector}]`, start + 1);
    }
  }

  private check(value: UnionValue<O>, offset: number): { type: SszType<unknown> | null; selected: Selected } {
    if (typeof value !== 'object' || value === null) throw new SszError('INVALID_VALUE', 'expected { selector, value }', offset);
    const selected = value as Selected;
    const type = this.option(selected.selector, offset);
    if (type === null && selected.value !== null) throw new SszError('INVALID_VALUE', 'None takes the value null', offset);
    return { type, selected };
  }

  _encode(value: UnionValue<O>, out: Uint8Array, dv: DataView, offset: number): number {
    const { type, selected } = this.check(value, offset);
    out[offset] = selected.selector;
    if (type === null) return offset + 1;
    try {
      return type._encode(selected.value, out, dv, offset + 1);
    } catch (e) {
      throw withPath(e, `[${selected.selector}]`, offset + 1);
    }
  }
  _size(value: UnionValue<O>): number {
    const { type, selected } = this.check(value, -1);
    try {
      return 1 + (type === null ? 0 : type._size(selected.value));
    } catch (e) {
      throw withPath(e, `[${selected.selector}]`);
    }
  }
  _rootInto(value: UnionValue<O>, out: Uint8Array, offset: number): void {
    const { type, selected } = this.check(value, -1);
    if (type === null) out.fill(0, offset, offset + 32);
    else {
      try {
        type._rootInto(selected.value, out, offset);
      } catch (e) {
        throw withPath(e, `[${selected.selector}]`);
      }
    }
    mixInLengthInto(out, offset, selected.selector);
  }
  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'selector') return { depth: 1, index: 1, next: null };
    if (segment === 'value') return { depth: 1, index: 0, next: null };
    return super._pathStep(segment);
  }
  _toNode(value: UnionValue<O>, store: NodeStore): NodeId {
    const { type, selected } = this.check(value, -1);
    if (type === null) return store.withLength(store.zero(0), 0);
    try {
      return store.withLength(type._toNode(selected.value, store), selected.selector);
    } catch (e) {
      throw withPath(e, `[${selected.selector}]`);
    }
  }
  _fromNode(store: NodeStore, node: NodeId): UnionValue<O> {
    const { length: selector, contents } = readMixed(store, node);
    const type = this.option(selector, -1);
    if (type === null) {
      if (readChunk(store, contents).some((b) => b !== 0)) throw new SszError('BAD_TREE', 'None must have the zero chunk as its value');
      return { selector, value: null } as UnionValue<O>;
    }
    try {
      return { selector, value: type._fromNode(store, contents) } as UnionValue<O>;
    } catch (e) {
      throw withPath(e, `[${selector}]`);
    }
  }
  override _treeSize(store: NodeStore, node: NodeId): number {
    const { length: selector, contents } = readMixed(store, node);
    const type = this.option(selector, -1);
    if (type === null) return 1;
    try {
      return 1 + type._treeSize(store, contents);
    } catch (e) {
      throw withPath(e, `[${selector}]`);
    }
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number {
    const { length: selector, contents } = readMixed(store, node);
    const type = this.option(selector, -1);
    out[offset] = selector;
    if (type === null) {
      if (readChunk(store, contents).some((b) => b !== 0)) throw new SszError('BAD_TREE', 'None must have the zero chunk as its value');
      return offset + 1;
    }
    try {
      return type._writeTree(store, contents, out, dv, offset + 1);
    } catch (e) {
      throw withPath(e, `[${selector}]`);
    }
  }
  defaultValue(): UnionValue<O> {
    const first = this.options[0] as SszType<unknown> | null;
    return { selector: 0, value: first === null ? null : first.defaultValue() } as UnionValue<O>;
  }
  equals(a: UnionValue<O>, b: UnionValue<O>): boolean {
    const x = a as Selected;
    const y = b as Selected;
    if (x.selector !== y.selector) return false;
    const type = this.options[x.selector];
    return type === null || type === undefined ? x.value === y.value : type.equals(x.value, y.value);
  }
  clone(value: UnionValue<O>): UnionValue<O> {
    const x = value as Selected;
    const type = this.options[x.selector];
    return { selector: x.selector, value: type === null || type === undefined ? null : type.clone(x.value) } as UnionValue<O>;
  }
  _toJson(value: UnionValue<O>): Json {
    const { type, selected } = this.check(value, -1);
    return { selector: String(selected.selector), value: type === null ? null : type._toJson(selected.value) };
  }
  _fromJson(json: unknown): UnionValue<O> {
    const record = expectObject(json);
    const raw = record['selector'];
    const selector = typeof raw === 'string' && /^[0-9]{1,3}$/.test(raw) ? Number(raw) : raw;
    if (typeof selector !== 'number') throw new SszError('INVALID_JSON', 'expected a numeric selector');
    const type = this.option(selector, -1);
    if (type === null) {
      if (record['value'] !== null) throw new SszError('INVALID_JSON', 'None takes the value null');
      return { selector, value: null } as UnionValue<O>;
    }
    return { selector, value: type._fromJson(record['value']) } as UnionValue<O>;
  }
}

/**
 * `Union[options…]`: a value is `{ selector, value }` where `selector`
 * indexes `options`; `null` as the first option is SSZ's `None`.
 */
export function union<const O extends UnionOptions>(options: O): UnionType<O> {
  return new UnionType(options);
}
