import { container, list, progressiveContainer, progressiveList, uint64, toHex } from '@ssztree/types';
import { defaultStore } from '@ssztree/core';
import { makeValidators, prng, Validator } from './lib/validator.js';
import { writeBlock, writeEpoch } from './lib/stateWorkload.js';
const NS = 2 ** 20;
const PState = progressiveContainer({ validators: progressiveList(Validator), balances: progressiveList(uint64) }, [1, 1], 'PState');
const BState = container({ validators: list(Validator, 2 ** 40), balances: list(uint64, 2 ** 40) }, 'BState');
const vals = makeValidators(NS); const bal = BigUint64Array.from({ length: NS }, (_, i) => 32_000_000_000n + BigInt(i % 1000));
const t = (n: string, f: () => void) => { const s = performance.now(); f(); console.log(n, (performance.now() - s).toFixed(2)); };
for (const [name, T] of [['binary', BState], ['progressive', PState]] as const) {
  const bytes = (T as any).serialize({ validators: vals, balances: bal });
  let st: any;
  for (let k = 0; k < 2; k++) { st?.dispose(); t(name + ' S1', () => { st = (T as any).deserializeToView(bytes); st.hashTreeRoot(); }); }
  for (let b = 0; b < 20; b++) { writeBlock(st, NS, prng(1000 + b)); const s = performance.now(); st.hashTreeRoot(); if (b >= 16) console.log(name, 'B2', (performance.now() - s).toFixed(2)); }
  for (let e = 0; e < 4; e++) { writeEpoch(st, NS, BigInt(e + 1)); t(name + ' E2', () => st.hashTreeRoot()); }
  defaultStore.collect();
  console.log(name, 'bytes/validator', (st.validators.memory().bytes / NS).toFixed(1), 'bytes/balance', (st.balances.memory().bytes / NS).toFixed(1));
  st.dispose();
}
