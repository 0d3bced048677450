/**
 * `ValueView`: the view of a schema that has no inner structure worth
 * navigating (uints, booleans, byte vectors and lists, bitfields, unions):
 * the whole value is read and written at once.
 *
 * Invariant: a pending value is held until the next commit; writing a value
 * equal to the current one records nothing.
 * @module
 */
import type { Tree } from '@ssztree/core';
import type { SszType } from '../type.js';
import { TreeView } from './base.js';

export class ValueView<V> extends TreeView<V> {
  #pending: { value: V } | null = null;
  #cached: { value: V } | null = null;

  constructor(type: SszType<V>, tree: Tree) {
    super(type, tree);
  }

  get value(): V {
    this._live();
    if (this.#pending !== null) return this.#pending.value;
    if (this.#cached === null) this.#cached = { value: this.type.fromTree(this._tree) };
    return this.#cached.value;
  }

  set value(value: V) {
    this._live();
    this.type._check(value);
    if (this.#cached === null) this.#cached = { value: this.type.fromTree(this._tree) };
    // Equal to the committed value: drop any pending write, so the tree keeps its node.
    if (this.type.equals(this.#cached.value, value)) this.#pending = null;
    else {
      this.#pending = { value: this.type.clone(value) };
      this._markDirty();
    }
  }

  _flush(): void {
    const pending = this.#pending;
    if (pending === null) return;
    const next = this.type._toNode(pending.value, this.store);
    this._tree.rootNode = next;
    this.#cached = pending;
    this.#pending = null;
  }

  _respawn(tree: Tree): this {
    return new ValueView(this.type, tree) as this;
  }
}
