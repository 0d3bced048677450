/**
 * `--compare` from the demo's side: starts demo/peerRow.ts in a process of
 * its own (bench/lib/rowProcess.ts), hands it the loaded state's bytes once
 * through a temporary file, then asks it for each block and epoch the demo
 * applies, getting back its write and commit + root times and its root.
 * The peer's heap stays in its process, so our timings never include its
 * garbage collection (nor its ours).
 *
 * Invariant: every step the peer runs is the step we ran (peerRow.ts checks
 * the plans' fingerprints), and nothing of it is timed here: the times are
 * the child's own clock around the operation itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RowProcess } from '../bench/lib/rowProcess.js';
import { toHex } from '@ssztree/types';
import type { Options } from './options.js';
import type { BlockPlan, EpochPlan } from './workload.js';

export interface PeerStep {
  readonly writeMs: number;
  readonly rootMs: number;
  readonly root: string;
}

export interface PeerSide {
  readonly version: string;
  /** deserializeToViewDU + hashTreeRoot of the state, in the peer's process. */
  readonly loadMs: number;
  readonly loadRoot: string;
  block(plan: BlockPlan, previousRoot: Uint8Array): Promise<PeerStep>;
  epoch(plan: EpochPlan): Promise<PeerStep>;
  close(): void;
}

/** Why @chainsafe/ssz cannot be loaded here (the first line of the error), or undefined when it can. */
export async function peerMissing(): Promise<string | undefined> {
  try {
    await import('@chainsafe/ssz');
    return undefined;
  } catch (e) {
    return (e as Error).message.split('\n')[0] ?? 'not installed';
  }
}

/** Starts the peer's process on `bytes` (the state as we loaded it) and loads it there. */
export async function startPeer(o: Options, bytes: Uint8Array): Promise<PeerSide> {
  const dir = mkdtempSync(join(tmpdir(), 'ssztree-demo-'));
  const file = join(dir, 'state.ssz');
  let child: RowProcess | undefined;
  try {
    writeFileSync(file, bytes);
    const script = fileURLToPath(new URL('./peerRow.ts', import.meta.url));
    // The peer's heap at 2^20 validators passes 2 GB: the same limit as the npm script gives ours.
    child = new RowProcess(script, o.fork, ['--expose-gc', '--max-old-space-size=6144'], [String(o.validators), String(o.seed), file, ...(o.inPlace ? ['--in-place'] : [])]);
    const reply = await child.runAll(['load']);
    if (reply.kind === 'error') throw new Error(`@chainsafe/ssz process: ${reply.message}`);
    const [loadRoot = '', version = 'unknown'] = (reply.out?.[0] ?? '').split(' ');
    const proc = child;
    const step = async (request: string): Promise<PeerStep> => {
      // Writes and commit + root in one request: one task of the child, no idle gap between them, as ours run.
      const r = await proc.runAll([request, 'root']);
      if (r.kind === 'error') throw new Error(`@chainsafe/ssz process: ${r.message}`);
      return { writeMs: r.ms[0]!, rootMs: r.ms[1]!, root: r.out?.[1] ?? '' };
    };
    return {
      version,
      loadMs: reply.ms[0]!,
      loadRoot,
      block: (plan, previousRoot) => step(`block ${plan.slot} ${toHex(plan.randaoMix)} ${toHex(previousRoot)}`),
      epoch: (plan) => step(`epoch ${plan.epoch} ${toHex(plan.nextRandaoMix)}`),
      close: () => proc.close(),
    };
  } catch (e) {
    child?.close();
    throw e;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
