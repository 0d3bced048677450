/**
 * `--compare`: the same state and blocks through `@chainsafe/ssz` ViewDU.
 * The ChainSafe electra BeaconState is built from our schema (the same
 * field names, so one `applyBlock` drives both), and its hasher is set to
 * hashtree as Lodestar runs it. `@chainsafe/ssz` is loaded dynamically:
 * without it the demo runs alone and says so in one line.
 */
import type { SszType } from '@ssztree/types';
import { peerTypeOf } from './peerType.js';
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
  const State = peerTypeOf(cs, stateType, new WeakMap()) as PeerType;
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
