/**
 * One row of the hasher benchmark, run in its own process by `hasher.ts`.
 * argv[2] names the row; workloads: W1 (hash 2^20 independent 64-byte
 * inputs), W2-20 / W2-40 (merkleize 2^20 chunks with limit 2^20 / 2^40).
 * Every row builds the same inputs from the same seed.
 */
import { hashInto as asHashInto } from '@chainsafe/as-sha256';
import { hashInto as htHashInto } from '@chainsafe/hashtree';
import type { hasher as PmtHasher } from '@chainsafe/persistent-merkle-tree/hasher/hashtree';

type Hasher = typeof PmtHasher;
import { sha256 } from '@noble/hashes/sha2.js';
import { hashInto, merkleize, setHasher, type HasherName } from '@ssztree/hasher';
import { serveRow } from './lib/rowProcess.js';

export const N = 2 ** 20;

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

const W1_INPUT = pseudoRandomBytes(64 * N, 0x5a5a);
const W1_OUTPUT = new Uint8Array(32 * N);
const CHUNKS = pseudoRandomBytes(32 * N, 0xc0ffee);

type Op = { prepare: () => void; run: () => void };
const none = () => {};

function oursRow(name: HasherName): Record<string, Op> {
  setHasher(name);
  return {
    W1: { prepare: none, run: () => hashInto(W1_INPUT, W1_OUTPUT) },
    'W2-20': { prepare: none, run: () => void merkleize(CHUNKS, N) },
    'W2-40': { prepare: none, run: () => void merkleize(CHUNKS, 2 ** 40) },
  };
}

async function pmtRow(module: string): Promise<Record<string, Op>> {
  const { hasher } = (await import(module)) as { hasher: Hasher };
  // merkleizeBlocksBytes consumes its input, so each run gets a fresh copy (untimed).
  const work = new Uint8Array(CHUNKS.length);
  const output = new Uint8Array(32);
  const op = (padFor: number): Op => ({
    prepare: () => work.set(CHUNKS),
    run: () => hasher.merkleizeBlocksBytes(work, padFor, output, 0),
  });
  return { 'W2-20': op(N), 'W2-40': op(2 ** 40) };
}

async function rowOperations(row: string): Promise<Record<string, Op>> {
  switch (row) {
    case 'ssztree/auto':
      return oursRow('auto');
    case 'ssztree/shani':
      return oursRow('shani');
    case 'ssztree/avx512':
      return oursRow('avx512');
    case 'ssztree/hashtree':
      return oursRow('hashtree');
    case 'ssztree/wasm':
      return oursRow('wasm');
    case 'ssztree/js':
      return oursRow('js');
    case 'ssztree/noble':
      return oursRow('noble');
    case 'hashtree hashInto':
      return { W1: { prepare: none, run: () => htHashInto(W1_INPUT, W1_OUTPUT) } };
    case 'as-sha256 hashInto':
      return { W1: { prepare: none, run: () => asHashInto(W1_INPUT, W1_OUTPUT) } };
    case 'noble sha256 per input':
      return {
        W1: {
          prepare: none,
          run: () => {
            for (let i = 0; i < N; i++) W1_OUTPUT.set(sha256(W1_INPUT.subarray(64 * i, 64 * i + 64)), 32 * i);
          },
        },
      };
    case 'pmt + hashtree':
      return pmtRow('@chainsafe/persistent-merkle-tree/hasher/hashtree');
    case 'pmt + as-sha256':
      return pmtRow('@chainsafe/persistent-merkle-tree/hasher/as-sha256');
    case 'pmt + noble':
      return pmtRow('@chainsafe/persistent-merkle-tree/hasher/noble');
    default:
      throw new Error(`unknown row ${row}`);
  }
}

serveRow(await rowOperations(process.argv[2]!));
