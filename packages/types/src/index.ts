/**
 * `@ssztree/types`: SSZ schemas with a strict codec, value roots computed in
 * batches over `@ssztree/hasher`, and the consensus API's JSON form. The
 * beacon-chain containers live in the `@ssztree/types/consensus` subpath.
 * @module @ssztree/types
 */
export { BitArray } from './bitArray.js';
export { SszError, type SszErrorCode } from './errors.js';
export { fromHex, toHex, type Json } from './json.js';
export { SszType, TreeView, ValueView, withByteBound, type ByteReader, type DeserializeOptions, type Type, type ValueOf } from './type.js';
export { BasicType, type BasicArray } from './basicType.js';
export { BitlistType, bitlist } from './schema/bitlist.js';
export { BitvectorType, bitvector } from './schema/bitvector.js';
export { CompatibleUnionType, compatibleUnion, type CompatibleUnionOptions, type CompatibleUnionValue } from './schema/compatibleUnion.js';
export { BooleanType, boolean } from './schema/boolean.js';
export { ByteListType, byteList } from './schema/byteList.js';
export { ByteVectorType, byteVector } from './schema/byteVector.js';
export { ContainerType, container, type ContainerValue, type Fields } from './schema/container.js';
export { ListBasicType, ListCompositeType, list } from './schema/list.js';
export { ProgressiveBitlistType, progressiveBitlist } from './schema/progressiveBitlist.js';
export { ProgressiveByteListType, progressiveByteList } from './schema/progressiveByteList.js';
export { ProgressiveContainerType, progressiveContainer } from './schema/progressiveContainer.js';
export { ProgressiveListBasicType, ProgressiveListCompositeType, progressiveList } from './schema/progressiveList.js';
export { UintNumberType, Uint64NumberType, Uint64Type, UintBigType, uint8, uint16, uint32, uint64, uint64Number, uint128, uint256 } from './schema/uint.js';
export { UnionType, union, type UnionOptions, type UnionValue } from './schema/union.js';
export { VectorBasicType, VectorCompositeType, vector } from './schema/vector.js';
export { ContainerViewBase, type ContainerView } from './view/container.js';
export { CompositeSequenceView } from './view/composite.js';
export { PackedSequenceView } from './view/packed.js';
export { ProgressiveListView } from './view/progressive.js';
export type { ElementView, FieldView, ViewOf } from './view/types.js';
export { verifyProof, type Path, type PathSegment, type ViewProof } from './tree/proofs.js';
export { nodeBytes, sharedMemory, treeMemory, type MemoryReport, type SharedReport } from './tree/memory.js';
export { preimageBytes } from './tree/preimages.js';
