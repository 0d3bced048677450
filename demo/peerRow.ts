/**
 * The `--compare` side of the demo in a process of its own (started by
 * demo/main.ts through bench/lib/rowProcess.ts): @chainsafe/ssz ViewDU on
 * the same state and the same block and epoch plans. Its own process, so
 * its heap (~2 GB of ViewDU objects at 2^20 validators) is never marked by
 * our side's garbage collections, nor ours by its: each side's timings are
 * its own work.
 *
 * Invariant: the plans are the parent's. This process draws them from the
 * same seeded generator in the same order (one `block` workload per block,
 * one `epoch` per epoch, as the parent draws them), and each request
 * carries the parent's plan's randao mix as a fingerprint: a plan that
 * differs from the parent's is an error, never a silent divergence.
 *
 * Workloads (timed by serveRow; `prepare` untimed):
 *   load                    read the state file (untimed), deserializeToViewDU + root -> "root version"
 *   block <slot> <mix> <prevRoot>  clone the head (untimed), apply the block's writes
 *   epoch <epoch> <mix>     clone the head (untimed), apply the epoch's writes
 *   root                    commit + hashTreeRoot of the new head -> its root
 * Usage: peerRow.ts <fork> <validators> <seed> <stateFile> [--in-place]
 */
import { readFileSync } from 'node:fs';
import { fromHex, toHex } from '@ssztree/types';
import { serveRow, type RowOperation } from '../bench/lib/rowProcess.js';
import { applyBlock, applyEpoch } from './apply.js';
import { loadPeer, type Peer, type PeerState } from './peer.js';
import { Rng } from './rng.js';
import { BeaconState as ElectraState, STATE_TYPES, type DemoFork } from './state.js';
import { planBlock, planEpoch, planSeed } from './workload.js';

const [fork, validators, seed, stateFile, ...flags] = process.argv.slice(2) as [DemoFork, string, string, string, ...string[]];
const n = Number(validators);
const inPlace = flags.includes('--in-place');
const rng = new Rng(planSeed(Number(seed)));

let peer: Peer | undefined;
let head: PeerState | undefined;
let next: PeerState | undefined;

const checkMix = (ours: Uint8Array, theirs: string, what: string) => {
  if (toHex(ours) !== theirs) throw new Error(`the ${what} plan drawn here differs from the parent's (randao mix ${toHex(ours)}, parent's ${theirs})`);
};

const nothing = () => {};

function operation(workload: string): RowOperation | undefined {
  const [kind, a, b, c] = workload.split(' ');
  if (kind === 'load') {
    let bytes: Uint8Array | undefined;
    return {
      // Read untimed: ours loads from bytes already in memory.
      prepare: () => {
        bytes = readFileSync(stateFile);
      },
      run: () => {
        head = peer!.fromBytes(bytes!);
        bytes = undefined;
        return `${toHex(head.hashTreeRoot())} ${peer!.version}`;
      },
    };
  }
  if (kind === 'block' || kind === 'epoch') {
    let write = nothing;
    return {
      prepare: () => {
        next = inPlace ? head! : head!.clone();
        if (kind === 'block') {
          const plan = planBlock(rng, n, Number(a));
          checkMix(plan.randaoMix, b!, 'block');
          const previousRoot = fromHex(c!);
          write = () => applyBlock(next!, plan, previousRoot);
        } else {
          const plan = planEpoch(rng, n, Number(a));
          checkMix(plan.nextRandaoMix, b!, 'epoch');
          write = () => applyEpoch(next!, plan, peer!.rotate);
        }
      },
      run: () => write(),
    };
  }
  if (kind === 'root') {
    return {
      prepare: nothing,
      run: () => {
        const root = toHex(next!.hashTreeRoot());
        head = next;
        return root;
      },
    };
  }
  return undefined;
}

const loaded = await loadPeer(STATE_TYPES[fork] as unknown as typeof ElectraState as never);
if ('missing' in loaded) throw new Error(`@chainsafe/ssz is not installed here: ${loaded.missing}`);
peer = loaded;
serveRow(operation);
