/**
 * The binary-list rows of the progressive benchmark (bench/progressive.ts),
 * in a file of their own that uses only what every recent version of the
 * library has (`list`, `container`, views, bench/lib), so the same rows can
 * run against the code of an earlier commit: bench/progressive.ts copies
 * this file into a checkout of that commit (`--base DIR`) and runs both
 * copies' row processes side by side, interleaved, to show the binary rows
 * did not get slower.
 *
 *   LU  List[uint64, 2^40] of 2^20: value root
 *   LV  List[Validator, 2^40] of 2^18: value root
 *   V1  … values → view + root          V2  … bytes → view + root
 *   S1  state {validators, balances} of 2^20 validators: bytes → view + root
 *   B   a block (1024 balances, 128 validators × 2 fields): writes + commit + root
 *   E   an epoch (every balance rewritten): writes + commit + root
 *
 * Usage: run by bench/progressive.ts as a row process (`… progressiveBinary.ts rows`).
 */
import { container, list, uint64 } from '@ssztree/types';
import { serveRow } from './lib/rowProcess.js';
import { writeBlock, writeEpoch } from './lib/stateWorkload.js';
import { makeValidators, prng, Validator, type ValidatorValue } from './lib/validator.js';

export const NV = 2 ** 18;
export const NS = 2 ** 20;
const LIMIT = 2 ** 40;

const Balances = list(uint64, LIMIT);
const Validators = list(Validator, LIMIT);
const State = container({ validators: Validators, balances: Balances }, 'State');

/** The benchmarks' balances: 32 ETH plus a small spread. */
export function makeBalances(n: number): BigUint64Array {
  const out = new BigUint64Array(n);
  for (let i = 0; i < n; i++) out[i] = 32_000_000_000n + BigInt(i % 1000);
  return out;
}

// biome-ignore lint: views are driven by field name.
type Dyn = any;

function serve(): void {
  let values: ValidatorValue[] | null = null;
  let bytes: Uint8Array | null = null;
  let stateBytes: Uint8Array | null = null;
  let balances: BigUint64Array | null = null;
  let view: Dyn = null;
  let state: Dyn = null;
  let round = 0;
  const vals = () => (values ??= makeValidators(NV, 0xaa));
  const valBytes = () => (bytes ??= Validators.serialize(vals()));
  const bal = () => (balances ??= makeBalances(NS));
  const sBytes = () => (stateBytes ??= State.serialize({ validators: makeValidators(NS), balances: makeBalances(NS) }));
  const dropView = () => {
    view?.dispose();
    view = null;
  };
  serveRow({
    LU: { prepare: bal, run: () => void Balances.hashTreeRoot(bal()) },
    LV: { prepare: vals, run: () => void Validators.hashTreeRoot(vals()) },
    V1: { prepare: () => (dropView(), vals()), run: () => void (view = Validators.toView(vals())).hashTreeRoot() },
    V2: { prepare: () => (dropView(), valBytes()), run: () => void (view = Validators.deserializeToView(valBytes())).hashTreeRoot() },
    S1: {
      prepare: () => {
        state?.dispose();
        state = null;
        sBytes();
      },
      run: () => void (state = State.deserializeToView(sBytes())).hashTreeRoot(),
    },
    B: {
      prepare: () => round++,
      run: () => {
        writeBlock(state, NS, prng(1000 + round));
        state.hashTreeRoot();
      },
    },
    E: {
      prepare: () => round++,
      run: () => {
        writeEpoch(state, NS, BigInt(round + 1));
        state.hashTreeRoot();
      },
    },
  });
}

if (process.argv[2] === 'rows') serve();
