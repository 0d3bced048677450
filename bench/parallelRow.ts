/**
 * One row of the parallel-hashing benchmark, run in its own process by
 * `parallel.ts`: argv[2] = worker threads (0 = pool off). Workloads:
 * merkleize-22 (merkleize 2^22 chunks), layer-K (hashInto of 2^K messages,
 * K = 8..20, used to place LAYER_THRESHOLD).
 */
import { configureThreads, hashInto, merkleize, poolStats } from '@ssztree/hasher';
import { serveRow } from './lib/rowProcess.js';

const threads = Number(process.argv[2]);
configureThreads(threads);

function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  const words = new Uint32Array(out.buffer);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    words[i] = x >>> 0;
  }
  return out;
}

const CHUNKS_22 = pseudoRandomBytes(32 << 22, 0xc0ffee);
const LAYER_IN = pseudoRandomBytes(64 << 20, 0x5a5a);
const LAYER_OUT = new Uint8Array(32 << 20);

type Op = { prepare: () => void; run: () => void };
const ops: Record<string, Op> = {
  'merkleize-22': { prepare: () => {}, run: () => void merkleize(CHUNKS_22, 1 << 22) },
};
for (let k = 8; k <= 20; k += 2) {
  const n = 1 << k;
  ops[`layer-${k}`] = { prepare: () => {}, run: () => hashInto(LAYER_IN.subarray(0, 64 * n), LAYER_OUT.subarray(0, 32 * n)) };
}
// Fails loudly if a pooled row silently ran single-threaded.
ops['check-pool'] = {
  prepare: () => {},
  run: () => {
    if (threads > 0 && poolStats().jobsDone === 0) throw new Error('the pool took no job');
  },
};
serveRow(ops);
