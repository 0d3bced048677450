/**
 * `--compare`: the same state and blocks through `@chainsafe/ssz` ViewDU.
 * The ChainSafe electra BeaconState is built from our schema (the same
 * field names, so one `applyBlock` drives both), and its hasher is set to
 * hashtree as Lodestar runs it. `@chainsafe/ssz` is loaded dynamically:
 * without it the demo runs alone and says so in one line.
 */
import {
  BitlistType,
  BitvectorType,
  BooleanType,
  ByteListType,
  ByteVectorType,
  ContainerType,
  ListBasicType,
  ListCompositeType,
  Uint64NumberType,
  Uint64Type,
  UintBigType,
  UintNumberType,
  UnionType,
  VectorBasicType,
  VectorCompositeType,
  type SszType,
} from '@ssztree/types';
import type { RotateParticipation, StateLike } from './apply.js';

type Cs = typeof import('@chainsafe/ssz');
type AnyOurs = SszType<unknown>;
// biome-ignore lint: ChainSafe's types are generic per schema; the demo drives them structurally.
type PeerType = any;

/** A ChainSafe state: its ViewDU seen through the fields the simulation uses, plus commit and root. */
export interface PeerState extends StateLike {
  hashTreeRoot(): Uint8Array;
  commit(): void;
  clone(): PeerState;
}

export interface Peer {
  readonly version: string;
  fromBytes(bytes: Uint8Array): PeerState;
  readonly rotate: RotateParticipation;
}

/** The ChainSafe type equivalent to one of ours (field names and limits carried over). */
function peerType(cs: Cs, type: AnyOurs, cache: Map<AnyOurs, PeerType>): PeerType {
  const hit = cache.get(type);
  if (hit !== undefined) return hit;
  const t = type as unknown;
  const inner = (x: unknown) => peerType(cs, x as AnyOurs, cache);
  let made: PeerType;
  if (t instanceof UintNumberType) made = new cs.UintNumberType(t.byteLength as 1 | 2 | 4);
  else if (t instanceof Uint64Type) made = new cs.UintBigintType(8);
  else if (t instanceof UintBigType) made = new cs.UintBigintType(t.byteLength as 16 | 32);
  else if (t instanceof Uint64NumberType) made = new cs.UintNumberType(8, { clipInfinity: true });
  else if (t instanceof BooleanType) made = new cs.BooleanType();
  else if (t instanceof ByteVectorType) made = new cs.ByteVectorType(t.length);
  else if (t instanceof ByteListType) made = new cs.ByteListType(t.limit);
  else if (t instanceof BitvectorType) made = new cs.BitVectorType(t.length);
  else if (t instanceof BitlistType) made = new cs.BitListType(t.limit);
  else if (t instanceof VectorBasicType) made = new cs.VectorBasicType(inner(t.elementType), t.length);
  else if (t instanceof ListBasicType) made = new cs.ListBasicType(inner(t.elementType), t.limit);
  else if (t instanceof VectorCompositeType) made = new cs.VectorCompositeType(inner(t.elementType), t.length);
  else if (t instanceof ListCompositeType) made = new cs.ListCompositeType(inner(t.elementType), t.limit);
  else if (t instanceof ContainerType) {
    const fields: Record<string, PeerType> = {};
    for (const [name, f] of Object.entries(t.fields as Record<string, AnyOurs>)) fields[name] = inner(f);
    made = new cs.ContainerType(fields, { typeName: t.typeName });
  } else if (t instanceof UnionType) {
    made = new cs.UnionType((t.options as readonly (AnyOurs | null)[]).map((o) => (o === null ? new cs.NoneType() : inner(o))));
  } else throw new Error(`no @chainsafe/ssz equivalent for ${type.typeName}`);
  cache.set(type, made);
  return made;
}

/** Loads @chainsafe/ssz (on hashtree when it loads); undefined with the reason when it is not installed. */
export async function loadPeer(stateType: AnyOurs): Promise<Peer | { missing: string }> {
  let cs: Cs;
  try {
    cs = await import('@chainsafe/ssz');
  } catch (e) {
    return { missing: (e as Error).message.split('\n')[0] ?? 'not installed' };
  }
  try {
    const pmt = await import('@chainsafe/persistent-merkle-tree');
    const { hasher } = await import('@chainsafe/persistent-merkle-tree/hasher/hashtree');
    pmt.setHasher(hasher);
  } catch {
    // hashtree is optional for ChainSafe too: it keeps its default hasher then.
  }
  const cache = new Map<AnyOurs, PeerType>();
  const State = peerType(cs, stateType, cache);
  const participation = (State as { fields: Record<string, PeerType> }).fields['current_epoch_participation'];
  let version = 'unknown';
  try {
    const { createRequire } = await import('node:module');
    version = (createRequire(import.meta.url)('@chainsafe/ssz/package.json') as { version: string }).version;
  } catch {
    // the version is only printed
  }
  return {
    version,
    fromBytes: (bytes) => State.deserializeToViewDU(bytes) as PeerState,
    rotate(state, n) {
      // As Lodestar does: the current list's view moves to previous; a new all-zero list becomes current.
      const s = state as unknown as Record<string, unknown>;
      s['previous_epoch_participation'] = s['current_epoch_participation'];
      s['current_epoch_participation'] = participation.toViewDU(new Array<number>(n).fill(0));
    },
  };
}
