/**
 * `compatibleUnion({ selector: type, … })` (CompatibleUnion, EIP-8016): one
 * of several types whose merkleizations are compatible (compatible.ts), so
 * what they share sits at the same tree positions whichever is selected.
 * Selectors are 1..127. Value: `{ selector, data }` as the spec names them;
 * serialization: the selector byte, then the data's; root:
 * `mix_in_selector(hash_tree_root(data), selector)`; JSON:
 * `{ "selector": "1", "data": … }`. The spec gives it no default value, so
 * `defaultValue()` throws.
 *
 * Invariants: an illegal definition (no options, a selector outside
 * 1..127, two incompatible options) is `INVALID_TYPE` at construction; the
 * decoder rejects an unknown selector (`BAD_SELECTOR`) and anything the
 * selected type's decoder rejects, with its path under `[selector]`.
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError, withPath } from '../errors.js';
import { describe, expectObject, type Json } from '../json.js';
import { mixInLengthInto } from '../merkle.js';
import { readMixed } from '../tree/nodes.js';
import type { PathSegment, PathStep, PathType } from '../tree/proofs.js';
import { SszType, type ValueOf } from '../type.js';
import { compatible, type CompatibleOptions } from './compatible.js';
import { shapeKey } from '../shape.js';

/** A compatible union's options: a type per selector (1..127). */
export type CompatibleUnionOptions = Readonly<Record<number, SszType<unknown>>>;

/** One `{ selector, data }` per option, so narrowing on `selector` works. */
export type CompatibleUnionValue<O extends CompatibleUnionOptions> = {
  [K in keyof O & number]: { readonly selector: K; data: ValueOf<O[K]> };
}[keyof O & number];

interface Selected {
  selector: number;
  data: unknown;
}

export class CompatibleUnionType<O extends CompatibleUnionOptions> extends SszType<CompatibleUnionValue<O>> implements CompatibleOptions {
  readonly typeName: string;
  readonly fixedSize = null;
  readonly minSize: number;
  readonly maxSize: number;
  readonly isBasic = false;
  /** The selectors, ascending. */
  readonly selectors: readonly number[];
  /** @internal The options in selector order (compatible.ts reads them). */
  readonly _compatibleOptions: readonly SszType<unknown>[];
  readonly #bySelector: (SszType<unknown> | undefined)[] = new Array<SszType<unknown> | undefined>(128).fill(undefined);

  constructor(
    readonly options: O,
    name?: string,
  ) {
    super();
    const keys = typeof options === 'object' && options !== null ? Object.keys(options) : [];
    const selectors = keys.map(Number).sort((a, b) => a - b);
    const describeOptions = (): string => `CompatibleUnion({${selectors.map((s) => `${s}: ${(options[s] as SszType<unknown> | undefined)?.typeName ?? '?'}`).join(', ')}})`;
    this.typeName = name ?? describeOptions();
    const fail = (detail: string): never => {
      throw new SszError('INVALID_TYPE', detail, -1, this.typeName);
    };
    if (keys.length === 0) fail('a compatible union needs at least one option');
    for (const key of keys) {
      const s = Number(key);
      if (!Number.isInteger(s) || String(s) !== key || s < 1 || s > 127) fail(`selector ${key} is outside 1..127`);
      if (!(options[s] instanceof SszType)) fail(`option ${key} is not an SSZ type`);
      this.#bySelector[s] = options[s];
    }
    this.selectors = selectors;
    this._compatibleOptions = selectors.map((s) => options[s] as SszType<unknown>);
    for (let i = 0; i < selectors.length; i++) {
      for (let j = i + 1; j < selectors.length; j++) {
        const a = this._compatibleOptions[i] as SszType<unknown>;
        const b = this._compatibleOptions[j] as SszType<unknown>;
        if (!compatible(a, b)) fail(`options ${selectors[i]} (${a.typeName}) and ${selectors[j]} (${b.typeName}) do not have compatible merkleization`);
      }
    }
    this.minSize = 1 + Math.min(...this._compatibleOptions.map((o) => o.minSize));
    this.maxSize = 1 + Math.max(...this._compatibleOptions.map((o) => o.maxSize));
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return `CompatibleUnion{${this.selectors.map((s) => `${s}:${shapeKey(this.#bySelector[s] as SszType<unknown>)}`).join(',')}}`;
  }

  private option(selector: unknown, offset: number): SszType<unknown> {
    const type = typeof selector === 'number' && Number.isInteger(selector) && selector >= 0 && selector < 128 ? this.#bySelector[selector] : undefined;
    if (type === undefined) throw new SszError('BAD_SELECTOR', `selector ${describe(selector)} is not one of ${this.selectors.join(', ')}`, offset);
    return type;
  }

  private check(value: CompatibleUnionValue<O>, offset: number): { type: SszType<unknown>; selected: Selected } {
    if (typeof value !== 'object' || value === null) throw new SszError('INVALID_VALUE', 'expected { selector, data }', offset);
    const selected = value as unknown as Selected;
    return { type: this.option(selected.selector, offset), selected };
  }

  _decode(data: Uint8Array, dv: DataView, start: number, end: number): CompatibleUnionValue<O> {
    if (end - start < 1) throw new SszError('SHORT_INPUT', 'a compatible union needs its selector byte', start);
    const selector = dv.getUint8(start);
    const type = this.option(selector, start);
    try {
      return { selector, data: type._decode(data, dv, start + 1, end) } as CompatibleUnionValue<O>;
    } catch (e) {
      throw withPath(e, `[${selector}]`, start + 1);
    }
  }
  _encode(value: CompatibleUnionValue<O>, out: Uint8Array, dv: DataView, offset: number): number {
    const { type, selected } = this.check(value, offset);
    out[offset] = selected.selector;
    try {
      return type._encode(selected.data, out, dv, offset + 1);
    } catch (e) {
      throw withPath(e, `[${selected.selector}]`, offset + 1);
    }
  }
  _size(value: CompatibleUnionValue<O>): number {
    const { type, selected } = this.check(value, -1);
    try {
      return 1 + type._size(selected.data);
    } catch (e) {
      throw withPath(e, `[${selected.selector}]`);
    }
  }
  _rootInto(value: CompatibleUnionValue<O>, out: Uint8Array, offset: number): void {
    const { type, selected } = this.check(value, -1);
    try {
      type._rootInto(selected.data, out, offset);
    } catch (e) {
      throw withPath(e, `[${selected.selector}]`);
    }
    mixInLengthInto(out, offset, selected.selector);
  }
  _toNode(value: CompatibleUnionValue<O>, store: NodeStore): NodeId {
    const { type, selected } = this.check(value, -1);
    try {
      return store.withLength(type._toNode(selected.data, store), selected.selector);
    } catch (e) {
      throw withPath(e, `[${selected.selector}]`);
    }
  }
  /** The selected option and the data node of the tree at `node`. */
  private selectedNode(store: NodeStore, node: NodeId): { selector: number; type: SszType<unknown>; data: NodeId } {
    const { length: selector, contents } = readMixed(store, node);
    return { selector, type: this.option(selector, -1), data: contents };
  }
  _fromNode(store: NodeStore, node: NodeId): CompatibleUnionValue<O> {
    const { selector, type, data } = this.selectedNode(store, node);
    try {
      return { selector, data: type._fromNode(store, data) } as CompatibleUnionValue<O>;
    } catch (e) {
      throw withPath(e, `[${selector}]`);
    }
  }
  override _treeSize(store: NodeStore, node: NodeId): number {
    const { selector, type, data } = this.selectedNode(store, node);
    try {
      return 1 + type._treeSize(store, data);
    } catch (e) {
      throw withPath(e, `[${selector}]`);
    }
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number {
    const { selector, type, data } = this.selectedNode(store, node);
    out[offset] = selector;
    try {
      return type._writeTree(store, data, out, dv, offset + 1);
    } catch (e) {
      throw withPath(e, `[${selector}]`);
    }
  }
  /**
   * Positions: `'selector'`, and `'data'`, below which a path goes on
   * through whichever option has its next step — compatible options put
   * what they share at the same positions.
   */
  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'selector') return { depth: 1, index: 1, next: null };
    if (segment === 'data') return { depth: 1, index: 0, next: this.#dataPaths };
    return super._pathStep(segment);
  }
  readonly #dataPaths: PathType = {
    typeName: 'data',
    _pathStep: (segment: PathSegment): PathStep => {
      let first: unknown;
      for (const option of this._compatibleOptions) {
        try {
          return option._pathStep(segment);
        } catch (e) {
          first ??= e;
        }
      }
      throw first;
    },
  };
  /** The spec defines no default for a compatible union: always `INVALID_TYPE`. */
  defaultValue(): CompatibleUnionValue<O> {
    throw new SszError('INVALID_TYPE', 'a compatible union has no default value (the SSZ spec defines none)', -1, this.typeName);
  }
  equals(a: CompatibleUnionValue<O>, b: CompatibleUnionValue<O>): boolean {
    const x = a as unknown as Selected;
    const y = b as unknown as Selected;
    if (x.selector !== y.selector) return false;
    const type = this.#bySelector[x.selector];
    return type !== undefined && type.equals(x.data, y.data);
  }
  clone(value: CompatibleUnionValue<O>): CompatibleUnionValue<O> {
    const { type, selected } = this.check(value, -1);
    return { selector: selected.selector, data: type.clone(selected.data) } as CompatibleUnionValue<O>;
  }
  _toJson(value: CompatibleUnionValue<O>): Json {
    const { type, selected } = this.check(value, -1);
    try {
      return { selector: String(selected.selector), data: type._toJson(selected.data) };
    } catch (e) {
      throw withPath(e, `[${selected.selector}]`);
    }
  }
  _fromJson(json: unknown): CompatibleUnionValue<O> {
    const record = expectObject(json);
    for (const key of Object.keys(record)) if (key !== 'selector' && key !== 'data') throw new SszError('INVALID_JSON', `unknown field ${key}`);
    const raw = record['selector'];
    const selector = typeof raw === 'string' && /^(0|[1-9][0-9]{0,2})$/.test(raw) ? Number(raw) : raw;
    if (typeof selector !== 'number' || !Number.isInteger(selector)) throw new SszError('INVALID_JSON', `expected a decimal selector, got ${describe(raw)}`);
    let type: SszType<unknown>;
    try {
      type = this.option(selector, -1);
    } catch (e) {
      throw new SszError('INVALID_JSON', (e as SszError).detail);
    }
    if (!Object.hasOwn(record, 'data')) throw new SszError('INVALID_JSON', 'missing field data');
    try {
      return { selector, data: type._fromJson(record['data']) } as CompatibleUnionValue<O>;
    } catch (e) {
      throw withPath(e, `[${selector}]`);
    }
  }
}

/**
 * `CompatibleUnion({ selector: type, … })`: a value `{ selector, data }`
 * where `selector` (1..127) picks the type of `data`; the options must have
 * compatible merkleization. `name` is the type name (defaults to a
 * description of the options).
 *
 *   const Shape = compatibleUnion({ 1: Square, 2: Circle });
 */
export function compatibleUnion<const O extends CompatibleUnionOptions>(options: O, name?: string): CompatibleUnionType<O> {
  return new CompatibleUnionType(options, name);
}
