/**
 * Applying immer patches to a tree-backed view: each patch becomes view
 * writes at its path (`setField`, `set(i)`, `push`); what views cannot do in
 * place (truncating a list, inserting or removing in the middle) rewrites
 * that one list from its value; patches that reach inside a value with no
 * view of its own (bytes, bitfields, unions) rewrite that value.
 *
 * Invariant: the view passed in is never changed. Patches are applied to an
 * O(1) clone, which is returned only when every patch was valid; on the
 * first bad one (unknown field, index past a length or limit, a value of
 * the wrong type) the clone is disposed and an `SszError` naming the patch
 * and the type path is thrown.
 * @module
 */
import type { Patch } from 'immer';
import { SszError, withPath } from '../errors.js';
import { type AnyType, TreeView } from '../type.js';
import type { BasicArray, BasicType } from '../basicType.js';
import { treeError } from '../tree/nodes.js';

interface ContainerShape {
  readonly fields: Readonly<Record<string, AnyType>>;
}
interface SequenceShape {
  readonly elementType: AnyType;
  readonly limit?: number;
}
/** The operations both sequence views (packed and composite) share. */
interface SequenceView {
  readonly length: number;
  get(i: number): unknown;
  set(i: number, value: unknown): void;
  push(value: unknown): void;
  toValue(): unknown;
}
/** Container views: fields by index, resolved from the schema (no dynamic property access on the view). */
interface ContainerViewLike {
  _get(i: number): unknown;
  _set(i: number, value: unknown): void;
}

type Key = string | number;

/**
 * A view write's error with the written type's own name taken off the front
 * of its path (views name the type they check; the caller prepends the
 * path from the root instead).
 */
function local(e: unknown, ...names: string[]): unknown {
  if (!(e instanceof SszError)) return treeError(e);
  for (const name of names) {
    if (e.typePath.startsWith(name)) return new SszError(e.code, e.detail, e.offset, e.typePath.slice(name.length));
  }
  return e;
}

function badPath(detail: string): SszError {
  return new SszError('BAD_PATH', detail);
}

/** A patch key as an array index: a number or a canonical numeric string (JSON patches use strings). */
function indexOf(key: Key): number {
  const i = typeof key === 'number' ? key : /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : NaN;
  if (!Number.isSafeInteger(i) || i < 0) throw badPath(`${JSON.stringify(key)} is not an index`);
  return i;
}

/** Immer's plain-value semantics for a path inside a value with no view (the value is a private deep copy). */
function applyPlain(target: unknown, path: readonly Key[], op: Patch['op'], value: unknown): unknown {
  if (path.length === 0) {
    if (op === 'remove') throw badPath('cannot remove the value itself');
    return value;
  }
  let cur = target;
  for (let k = 0; k < path.length - 1; k++) {
    if (typeof cur !== 'object' || cur === null) throw badPath(`nothing at ${JSON.stringify(path[k])}`);
    cur = (cur as Record<Key, unknown>)[path[k] as Key];
  }
  if (typeof cur !== 'object' || cur === null) throw badPath(`nothing at ${JSON.stringify(path[path.length - 1])}`);
  const key = path[path.length - 1] as Key;
  if (Array.isArray(cur)) {
    const i = key === 'length' ? -1 : indexOf(key);
    if (key === 'length') cur.length = value as number;
    else if (op === 'add') cur.splice(i, 0, value);
    else if (op === 'remove') cur.splice(i, 1);
    else cur[i] = value;
  } else if (op === 'remove') delete (cur as Record<Key, unknown>)[key];
  else (cur as Record<Key, unknown>)[key] = value;
  return target;
}

/** The sequence's value with `edit` applied to it as a plain array, back in the schema's array form. */
function rewritten(type: AnyType, view: SequenceView, edit: (items: unknown[]) => void): unknown {
  const elem = (type as unknown as SequenceShape).elementType;
  const items = Array.from(view.toValue() as ArrayLike<unknown>);
  edit(items);
  return elem.isBasic ? (elem as unknown as BasicType<unknown, BasicArray<unknown>>)._arrayFrom(items) : items;
}

/**
 * Applies `patch` from `path[at]` on, below `view` (of `type`); `replaceSelf`
 * writes a whole new value for `view` into its parent.
 */
function applyAt(view: TreeView<unknown>, type: AnyType, patch: Patch, at: number, replaceSelf: (v: unknown) => void): void {
  const path = patch.path as readonly Key[];
  if (at === path.length) {
    if (patch.op === 'remove') throw badPath('cannot remove a value that is not in a list');
    replaceSelf(patch.value);
    return;
  }
  const key = path[at] as Key;
  const last = at === path.length - 1;
  const shape = type as unknown as Partial<ContainerShape & SequenceShape>;
  if (shape.fields !== undefined) {
    const fieldType = typeof key === 'string' && Object.hasOwn(shape.fields, key) ? shape.fields[key] : undefined;
    if (fieldType === undefined) throw badPath(`${type.typeName} has no field ${JSON.stringify(key)}`);
    const name = key as string;
    const index = Object.keys(shape.fields).indexOf(name);
    const c = view as unknown as ContainerViewLike;
    try {
      const child = c._get(index);
      if (!last && child instanceof TreeView) {
        applyAt(child, fieldType, patch, at + 1, (v) => c._set(index, v));
      } else if (last && patch.op === 'remove') {
        throw badPath('a container field cannot be removed');
      } else {
        c._set(index, last ? patch.value : applyPlain(fieldType.clone(child), path.slice(at + 1), patch.op, patch.value));
      }
    } catch (e) {
      throw withPath(local(e, `${type.typeName}.${name}`, fieldType.typeName), `.${name}`);
    }
    return;
  }
  if (shape.elementType !== undefined) {
    applySequence(view as unknown as SequenceView, type, shape.elementType, typeof shape.limit === 'number', patch, at, replaceSelf);
    return;
  }
  // A view with no inner structure (ValueView): the patch edits its value.
  replaceSelf(applyPlain(type.clone(view.toValue()), path.slice(at), patch.op, patch.value));
}

function applySequence(view: SequenceView, type: AnyType, elem: AnyType, isList: boolean, patch: Patch, at: number, replaceSelf: (v: unknown) => void): void {
  const path = patch.path as readonly Key[];
  const key = path[at] as Key;
  const last = at === path.length - 1;
  const len = view.length;
  if (key === 'length') {
    const n = patch.value;
    if (!isList || !last || patch.op !== 'replace') throw badPath('only a list length can be replaced');
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > len) throw badPath(`a list cannot take length ${String(n)} (it has ${len})`);
    if (n < len) replaceSelf(rewritten(type, view, (items) => (items.length = n)));
    return;
  }
  const i = indexOf(key);
  try {
    if (!last) {
      if (i >= len) throw badPath(`index ${i} is past the length ${len}`);
      const child = view.get(i);
      if (child instanceof TreeView) applyAt(child, elem, patch, at + 1, (v) => view.set(i, v));
      else view.set(i, applyPlain(elem.clone(child), path.slice(at + 1), patch.op, patch.value));
      return;
    }
    if (patch.op === 'replace') {
      if (i >= len) throw badPath(`index ${i} is past the length ${len}`);
      view.set(i, patch.value);
    } else if (patch.op === 'add') {
      if (!isList) throw badPath('a vector has a fixed length');
      if (i > len) throw badPath(`index ${i} is past the length ${len}`);
      if (i === len) view.push(patch.value);
      else replaceSelf(rewritten(type, view, (items) => items.splice(i, 0, patch.value)));
    } else {
      if (!isList) throw badPath('a vector has a fixed length');
      if (i >= len) throw badPath(`index ${i} is past the length ${len}`);
      replaceSelf(rewritten(type, view, (items) => items.splice(i, 1)));
    }
  } catch (e) {
    throw withPath(local(e, `${type.typeName}[${i}]`, type.typeName, elem.typeName), `[${i}]`);
  }
}

/**
 * A new view: `view` with `patches` applied in order (immer's
 * `applyPatches`, on a tree). `view` itself is never changed; a bad patch
 * throws `SszError` (type path from `type`'s name, detail naming the patch).
 */
export function applyPatchesToView<V>(type: AnyType, view: TreeView<V>, patches: readonly Patch[]): TreeView<V> {
  if (!Array.isArray(patches)) throw new SszError('INVALID_VALUE', 'applyPatches expects an array of patches', -1, type.typeName);
  let next = view.clone() as TreeView<unknown>;
  try {
    for (let k = 0; k < patches.length; k++) {
      const patch = patches[k] as Patch;
      try {
        if (typeof patch !== 'object' || patch === null || !Array.isArray(patch.path) || !['replace', 'add', 'remove'].includes(patch.op)) {
          throw new SszError('INVALID_VALUE', 'not an immer patch ({op, path, value})');
        }
        applyAt(next, type, patch, 0, (v) => {
          const whole = type.toView(v as never, next.store);
          next.dispose();
          next = whole;
        });
      } catch (e) {
        const err = withPath(treeError(e), type.typeName);
        throw new SszError(err.code, `patch ${k} (${patch?.op} ${JSON.stringify(patch?.path)}): ${err.detail}`, err.offset, err.typePath);
      }
    }
    next.commit().dispose(); // apply the pending writes now, so nothing can fail later
  } catch (e) {
    next.dispose();
    throw e;
  }
  return next as TreeView<V>;
}
