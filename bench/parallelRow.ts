/**
 * One row of the parallel-hashing benchmark, run in its own process by
 * `parallel.ts`: argv[2] = worker threads (0 = pool off). Workloads:
 *   merkleize-22       merkleize 2^22 chunks
 *   layer-K            hashInto of 2^K messages, K = 8..20 (places LAYER_THRESHOLD)
 *   validators-20      List[Validator] of 2^20 from bytes: deserializeToView + root
 *   state-20           a state {validators, balances} of 2^20 from bytes: deserializeToView + root
 *   epoch-20           a state {validators, balances} of 2^20: all balances
 *                      rewritten (untimed), then commit + root (timed)
 *   block-20           the same state: 1024 balances and 128 validators'
 *                      effective_balance + slashed written (untimed), commit + root
 * The view rows build their inputs lazily on first use, so the layer rows run
 * in a process that has not paid for them.
 */
import { configureThreads, hashInto, merkleize, poolStats } from '@ssztree/hasher';
import { container, list, uint64 } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
import { serveRow } from './lib/rowProcess.js';
import { writeBlock, writeEpoch } from './lib/stateWorkload.js';
import { makeValidators, prng } from './lib/validator.js';

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

// ------------------------------------------------- view workloads (lazy)
const N = 2 ** 20;
const LIMIT = 2 ** 40;
const Validators = list(mainnet.phase0.Validator, LIMIT);
const State = container({ validators: Validators, balances: list(uint64, LIMIT) }, 'State');

/** 2^20 validators as SSZ bytes: distinct pubkeys, fields varied by index. */
function validatorBytes(): Uint8Array {
  const values = makeValidators(N, 0xaa);
  return Validators.serialize(values);
}

let vBytes: Uint8Array | undefined;
let state: ReturnType<typeof State.deserializeToView> | undefined;
let round = 0;

let sBytes: Uint8Array | undefined;

/** The state's SSZ bytes: 2^20 validators and their balances. */
function stateBytes(): Uint8Array {
  if (sBytes === undefined) {
    vBytes ??= validatorBytes();
    const balances = new BigUint64Array(N).map((_, i) => 32_000_000_000n + BigInt(i % 1000));
    sBytes = new Uint8Array(vBytes.length + 8 + 8 * N);
    // A container of two variable fields: two offsets, then the lists.
    const dv = new DataView(sBytes.buffer);
    dv.setUint32(0, 8, true);
    dv.setUint32(4, 8 + vBytes.length, true);
    sBytes.set(vBytes, 8);
    sBytes.set(new Uint8Array(balances.buffer), 8 + vBytes.length);
  }
  return sBytes;
}

function theState(): NonNullable<typeof state> {
  if (state === undefined) {
    state = State.deserializeToView(stateBytes());
    state.hashTreeRoot();
  }
  return state;
}


type Op = { prepare: () => void; run: () => void };
const ops: Record<string, Op> = {
  'merkleize-22': { prepare: () => {}, run: () => void merkleize(CHUNKS_22, 1 << 22) },
  'validators-20': {
    prepare: () => void (vBytes ??= validatorBytes()),
    run: () => {
      const view = Validators.deserializeToView(vBytes!);
      view.hashTreeRoot();
      view.dispose();
    },
  },
  'state-20': {
    prepare: () => void stateBytes(),
    run: () => {
      const view = State.deserializeToView(sBytes!);
      view.hashTreeRoot();
      view.dispose();
    },
  },
  'epoch-20': {
    prepare: () => {
      writeEpoch(theState(), N, BigInt(++round));
    },
    run: () => void theState().hashTreeRoot(),
  },
  'block-20': {
    prepare: () => {
      writeBlock(theState(), N, prng(1000 + ++round));
    },
    run: () => void theState().hashTreeRoot(),
  },
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
