/**
 * Writes the inputs of the CLI measurements in docs/CLI.md: a mainnet
 * electra.BeaconState with N validators (`a.ssz`), the same with three
 * fields changed (`b.ssz`: slot, validators[123456 % N].slashed, the last
 * balance), and with every validator's effective_balance and every balance
 * changed (`c.ssz`).
 *
 *   node --import tsx --conditions=source packages/cli/scripts/bench-states.ts <dir> [N=300000]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mainnet } from '@ssztree/types/consensus';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: bench-states.ts <dir> [validators]');
const n = Number(process.argv[3] ?? 300_000);
const S = mainnet.electra.BeaconState;
const V = S.fields.validators.elementType;
const FAR = 2n ** 64n - 1n;

const state = S.defaultValue();
state.slot = 9_000_000n;
for (let i = 0; i < n; i++) {
  const v = V.defaultValue();
  v.pubkey[0] = i & 255;
  v.pubkey[1] = (i >> 8) & 255;
  v.pubkey[2] = i >> 16;
  v.effective_balance = 32_000_000_000n;
  v.exit_epoch = FAR;
  v.withdrawable_epoch = FAR;
  state.validators.push(v);
}
state.balances = new BigUint64Array(n).fill(32_000_000_000n);
state.inactivity_scores = new BigUint64Array(n);
state.previous_epoch_participation = new Uint8Array(n).fill(7);
state.current_epoch_participation = new Uint8Array(n).fill(3);
const a = S.serialize(state);
writeFileSync(join(dir, 'a.ssz'), a);

const b = S.clone(state);
b.slot = 9_000_001n;
b.validators[123_456 % n]!.slashed = true;
b.balances[n - 1] = 31_999_999_999n;
writeFileSync(join(dir, 'b.ssz'), S.serialize(b));

const c = S.clone(state);
for (const v of c.validators) v.effective_balance -= 1_000_000_000n;
for (let i = 0; i < n; i++) c.balances[i] = (c.balances[i] as bigint) + 1n;
writeFileSync(join(dir, 'c.ssz'), S.serialize(c));
console.log(`${n} validators: a.ssz ${a.length} bytes, b.ssz, c.ssz in ${dir}`);
