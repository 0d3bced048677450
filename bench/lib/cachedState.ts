/**
 * The state file bench/profile-realistic.ts caches (a mainnet BeaconState of
 * 2^20 validators of one fork, in the OS temp dir), loaded as a view with its
 * root computed, and the per-phase CPU samples the validator benchmarks
 * record. CPU time (process.cpuUsage), since the machine is shared.
 */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ViewOf } from '@ssztree/types';
import { type BeaconState as ElectraState, STATE_TYPES, type DemoFork } from '../../demo/state.js';

export type StateView = ViewOf<typeof ElectraState>;

/** The cached state of `fork` with `n` validators as a view, its root computed; throws when it was not written yet. */
export function loadCachedState(fork: DemoFork, n: number): StateView {
  const file = join(tmpdir(), `ssztree-realistic-${fork}-${n}-1.ssz`);
  if (!existsSync(file)) throw new Error(`run bench/profile-realistic.ts --fork ${fork} first (writes ${file})`);
  const T = STATE_TYPES[fork] as unknown as typeof ElectraState;
  const view: StateView = T.deserializeToView(readFileSync(file));
  view.hashTreeRoot();
  return view;
}

/** The process's CPU time in ms, all threads. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Samples by row name, in the order rows first appear. */
export class PhaseSamples {
  readonly rows = new Map<string, number[]>();
  note(name: string, ms: number): void {
    let r = this.rows.get(name);
    if (r === undefined) this.rows.set(name, (r = []));
    r.push(ms);
  }
}

/** A task turn, as between a client's blocks (old versions are freed there). */
export const turn = (): Promise<unknown> => new Promise((resolve) => setImmediate(resolve));
