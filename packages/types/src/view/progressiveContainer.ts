/**
 * Progressive container views: container views (container.ts) whose fields
 * sit at their chunks' places in a progressive tree — subtree k of the spine
 * holds chunks (4^k − 1)/3 …, so fields lie at several depths — instead of
 * at one level. Reads, child views, vouching for children and the commit's
 * one batch all go through the field positions the schema gives; the batch
 * is core's `setNodesAt`, one write for fields of every depth.
 *
 * Invariant: as for every container view; a field's position is fixed by
 * the schema's active-fields pattern, so it never moves.
 * @module
 */
import type { NodeId, Tree } from '@ssztree/core';
import type { ContainerValue, Fields, SszType } from '../type.js';
import { ContainerViewBase, type FieldSlot } from './container.js';

/** A field's place below the container's root: `depth` levels down, `index` from the left. */
export interface FieldPosition {
  readonly depth: number;
  readonly index: number;
}

/** What a progressive container view asks of its schema beyond `SszType`: where each field is. */
interface PositionedSchema<F extends Fields> extends SszType<ContainerValue<F>> {
  readonly _positions: readonly FieldPosition[];
}

export class ProgressiveContainerViewBase<F extends Fields> extends ContainerViewBase<F> {
  readonly #positions: readonly FieldPosition[];
  readonly #depths: readonly number[];
  readonly #indices: readonly number[];

  constructor(type: SszType<ContainerValue<F>>, tree: Tree, fields: readonly FieldSlot[], depth: number) {
    super(type, tree, fields, depth);
    this.#positions = (type as PositionedSchema<F>)._positions;
    this.#depths = this.#positions.map((p) => p.depth);
    this.#indices = this.#positions.map((p) => p.index);
  }

  override _nodeAt(i: number): NodeId {
    return this._tree.getNodeAtDepth(this.#depths[i] as number, this.#indices[i] as number);
  }

  override _soleNodeAt(i: number): NodeId {
    return this._tree.soleNodeAtDepth(this.#depths[i] as number, this.#indices[i] as number);
  }

  override _writeFields(indices: readonly number[], nodes: readonly NodeId[], touched: readonly boolean[]): boolean {
    // Field order is chunk order, so ascending fields are positions left to right.
    const depths = indices.map((i) => this.#depths[i] as number);
    const at = indices.map((i) => this.#indices[i] as number);
    return this._tree.setNodesAt(depths, at, nodes, this._inPlaceWrite(touched));
  }
}
