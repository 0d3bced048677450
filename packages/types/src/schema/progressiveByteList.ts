/**
 * `progressiveByteList()` (ProgressiveByteList, the spec's alias of
 * ProgressiveList[Byte]): any number of bytes, the value a `Uint8Array` as
 * `byteList` gives it, JSON as 0x-hex. Its serialization, root and tree are
 * those of ProgressiveList[uint8]: the bytes' chunks under the progressive
 * spine, the length mixed in (and its shape key is that list's).
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { mixInLengthInto } from '../merkle.js';
import { MAX_SERIALIZED_SIZE, merkleizeProgressiveInto } from '../progressive.js';
import { checkPadding } from '../tree/elements.js';
import { chunksTree, copyProgressiveBytes, progressiveChunks, progressiveElementStep } from '../tree/progressive.js';
import { type PathSegment, type PathStep } from '../tree/proofs.js';
import { ByteListBase } from './byteList.js';
import { padChunks } from './byteVector.js';

export class ProgressiveByteListType extends ByteListBase {
  readonly typeName = 'ProgressiveByteList';
  readonly maxSize = MAX_SERIALIZED_SIZE;

  constructor() {
    super(MAX_SERIALIZED_SIZE, `the ${MAX_SERIALIZED_SIZE} bytes a serialization can hold`);
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`): ProgressiveList[Byte], the same tree. */
  _shapeKey(): string {
    return 'ProgressiveList[uint8]';
  }

  _rootInto(value: Uint8Array, out: Uint8Array, offset: number): void {
    this._checkValue(value, -1);
    const chunks = padChunks(value);
    merkleizeProgressiveInto(chunks, chunks.length / 32, out, offset);
    mixInLengthInto(out, offset, value.length);
  }
  _toNode(value: Uint8Array, store: NodeStore): NodeId {
    this._checkValue(value, -1);
    return store.withLength(chunksTree(store, padChunks(value)), value.length);
  }
  _fromNode(store: NodeStore, node: NodeId): Uint8Array {
    const { length, contents } = this._lengthOf(store, node);
    const chunks = progressiveChunks(store, contents, Math.ceil(length / 32));
    checkPadding(chunks, length);
    return chunks.subarray(0, length);
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, _dv: DataView, offset: number): number {
    const { length, contents } = this._lengthOf(store, node);
    copyProgressiveBytes(store, contents, length, out, offset);
    return offset + length;
  }
  /** Positions: `'length'`, or byte i (the chunk that holds it). */
  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return super._pathStep(segment);
    return progressiveElementStep(segment, this.limit, 32, null);
  }
}

/** `ProgressiveByteList`: any number of bytes, the value a `Uint8Array`; merkleized progressively. */
export function progressiveByteList(): ProgressiveByteListType {
  return new ProgressiveByteListType();
}
