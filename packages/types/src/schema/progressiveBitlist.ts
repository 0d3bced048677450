/**
 * `progressiveBitlist()` (ProgressiveBitList, EIP-7916): a bitlist without
 * a limit. Serialized, valued (`BitArray`) and written in JSON as
 * `bitlist` is; its root is
 * `mix_in_length(merkleize_progressive(pack_bits(bits)), len)`, its tree
 * the length mix-in over the progressive spine of the bits' chunks.
 * @module
 */
import type { BitArray } from '../bitArray.js';
import type { NodeId, NodeStore } from '@ssztree/core';
import { mixInLengthInto } from '../merkle.js';
import { MAX_SERIALIZED_SIZE, merkleizeProgressiveInto } from '../progressive.js';
import { chunksTree, copyProgressiveBytes, progressiveChunks, progressiveElementStep } from '../tree/progressive.js';
import { type PathSegment, type PathStep } from '../tree/proofs.js';
import { BitlistBase } from './bitlist.js';
import { padChunks } from './byteVector.js';

/** The most bits a serialization of at most 2^32 − 1 bytes holds (the last byte keeps the delimiter). */
const MAX_BITS = 8 * (MAX_SERIALIZED_SIZE - 1) + 7;

export class ProgressiveBitlistType extends BitlistBase {
  readonly typeName = 'ProgressiveBitList';
  readonly maxSize = MAX_SERIALIZED_SIZE;

  constructor() {
    super(MAX_BITS, `the ${MAX_BITS} a serialization of at most ${MAX_SERIALIZED_SIZE} bytes can hold`);
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return 'ProgressiveBitList';
  }

  _rootInto(value: BitArray, out: Uint8Array, offset: number): void {
    this._checkValue(value, -1);
    const chunks = padChunks(value.uint8Array);
    merkleizeProgressiveInto(chunks, chunks.length / 32, out, offset);
    mixInLengthInto(out, offset, value.bitLen);
  }
  _toNode(value: BitArray, store: NodeStore): NodeId {
    this._checkValue(value, -1);
    return store.withLength(chunksTree(store, padChunks(value.uint8Array)), value.bitLen);
  }
  _fromNode(store: NodeStore, node: NodeId): BitArray {
    const { length, contents } = this._lengthOf(store, node);
    return this._bitsOf(progressiveChunks(store, contents, Math.ceil(length / 256)), length);
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, _dv: DataView, offset: number): number {
    const { length, contents } = this._lengthOf(store, node);
    return this._writeBits(length, (bytes) => copyProgressiveBytes(store, contents, bytes, out, offset), out, offset);
  }
  /** Positions: `'length'`, or bit i (the chunk that holds it). */
  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return super._pathStep(segment);
    return progressiveElementStep(segment, this.limit, 256, null);
  }
}

/** `ProgressiveBitList`: any number of bits, the value a `BitArray`; serialized with a delimiting bit, merkleized progressively. */
export function progressiveBitlist(): ProgressiveBitlistType {
  return new ProgressiveBitlistType();
}
