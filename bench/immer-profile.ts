/**
 * Profiling driver for the frozen-value cached root (issue #6): the same
 * state and recipe as bench/immer.ts, but only the cached root is timed, so
 * a CPU profile shows nothing else. Usage:
 *   node --conditions=source --import tsx bench/immer-profile.ts [rounds] [profile.cpuprofile]
 * With a second argument, a CPU profile of the timed rounds only (not the
 * setup and first full build) is written there (open it in Chrome DevTools),
 * and the functions with the most self time under `hashTreeRoot` are
 * printed.
 */
import { configureThreads } from '@ssztree/hasher';
import { produce as immerProduce } from 'immer';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { IMMER_N as N, ImmerState, type ImmerStateValue, makeImmerState } from './lib/immerState.js';

configureThreads(0);
const ROUNDS = Number(process.argv[2] ?? 20);
const State = ImmerState;
type StateValue = ImmerStateValue;

const makeState = (): StateValue => makeImmerState();

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Self time per function (ms per round) in the subtrees of the profile's calls to `root`, largest first. */
function printSelfTimes(profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] }, root: string, rounds: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const sampled = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) sampled.set(samples[i]!, (sampled.get(samples[i]!) ?? 0) + (deltas[i] ?? 0));
  const self = new Map<string, number>();
  let total = 0;
  // One walk from the profile's root; a node counts when it is at or below a call to `root` (nested calls once).
  const visit = (id: number, under: boolean): void => {
    const node = byId.get(id)!;
    const inRoot = under || node.callFrame.functionName === root;
    if (inRoot) {
      const us = sampled.get(id) ?? 0;
      const name = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}`;
      self.set(name, (self.get(name) ?? 0) + us);
      total += us;
    }
    for (const c of node.children ?? []) visit(c, inRoot);
  };
  visit(profile.nodes[0]!.id, false);
  console.log(`self time under ${root}: ${(total / 1000 / rounds).toFixed(2)} ms per round`);
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${(us / 1000 / rounds).toFixed(2).padStart(8)} ms  ${name}`);
}

let s = 12345;
const rnd = (): number => {
  s ^= s << 13;
  s ^= s >>> 17;
  s ^= s << 5;
  return (s >>> 0) / 2 ** 32;
};

let cur = immerProduce(makeState(), () => {}) as StateValue;
State.hashTreeRoot(cur);
const times: number[] = [];
const profileTo = process.argv[3];
const session = profileTo === undefined ? null : new Session();
if (session !== null) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
for (let r = 0; r < ROUNDS; r++) {
  const next = immerProduce(cur, (d) => {
    for (let k = 0; k < 100; k++) {
      const v = d.validators[Math.floor(rnd() * N)]!;
      v.effective_balance = BigInt(Math.floor(rnd() * 2 ** 35));
      v.slashed = true;
    }
    for (let k = 0; k < 1024; k++) d.balances[Math.floor(rnd() * N)] = Math.floor(rnd() * 2 ** 40);
  }) as StateValue;
  const t = performance.now();
  State.hashTreeRoot(next);
  times.push(performance.now() - t);
  cur = next;
}
if (session !== null && profileTo !== undefined) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(profileTo, JSON.stringify(profile));
  printSelfTimes(profile, 'hashTreeRoot', ROUNDS);
}
times.sort((a, b) => a - b);
console.log(`cached root over ${ROUNDS} rounds: median ${times[times.length >> 1]!.toFixed(2)} ms, min ${times[0]!.toFixed(2)} ms`);
