/**
 * The synthetic mainnet BeaconState the demo starts from (fulu by default,
 * or electra, or gloas; fulu's is electra's plus the proposer lookahead,
 * gloas's fulu's upgraded on values as `upgrade_to_gloas` does): `n`
 * validators with distinct pubkeys and varied fields, their balances,
 * inactivity scores and participation flags, every root vector
 * (block_roots, state_roots, randao_mixes) filled, the sync committees, a
 * few pending deposits, withdrawals and consolidations. Deterministic per
 * seed. The value is what the schema validates: `BeaconState.serialize`
 * accepts it, so nothing here bypasses the codec.
 */
import { BitArray, type ValueOf } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
import { Rng } from './rng.js';

export const BeaconState = mainnet.electra.BeaconState;
/** The state schema of each fork the demo runs. */
export const STATE_TYPES = { electra: mainnet.electra.BeaconState, fulu: mainnet.fulu.BeaconState, gloas: mainnet.gloas.BeaconState } as const;
export type DemoFork = keyof typeof STATE_TYPES;
export type BeaconStateValue = ValueOf<typeof BeaconState>;
type ValidatorValue = BeaconStateValue['validators'][number];

const FAR_FUTURE = 2n ** 64n - 1n;
/** Validators are generated in slices of this many, so the caller can draw progress between them. */
export const GENERATE_SLICE = 1 << 14;
/** The state starts at this slot (an epoch boundary, far from genesis like mainnet). */
export const START_SLOT = 11_000_000;

function roots(rng: Rng, count: number): Uint8Array[] {
  const all = rng.bytes(32 * count);
  return Array.from({ length: count }, (_, i) => all.subarray(32 * i, 32 * i + 32));
}

/**
 * Builds the state value; `progress(done)` is called after each slice of
 * validators (done counts validators made so far).
 */
export function generateState(n: number, seed: number, progress: (done: number) => void = () => {}, fork: DemoFork = 'electra'): BeaconStateValue {
  const electra = generateElectra(n, seed, progress);
  if (fork === 'electra') return electra;
  // Fulu: the fork record moves on, and the lookahead holds 2 epochs of proposer indices.
  const rng = new Rng(seed + 1);
  const lookahead = BigUint64Array.from({ length: 64 }, () => BigInt(rng.int(n)));
  const fulu = { ...electra, fork: { previous_version: new Uint8Array([5, 0, 0, 0]), current_version: new Uint8Array([6, 0, 0, 0]), epoch: electra.fork.epoch }, proposer_lookahead: lookahead };
  if (fork === 'fulu') return fulu as BeaconStateValue;
  return gloasOf(fulu as FuluValue, ptcWindow(n, seed)) as unknown as BeaconStateValue;
}

type FuluValue = ValueOf<typeof mainnet.fulu.BeaconState>;
type GloasValue = ValueOf<typeof mainnet.gloas.BeaconState>;

/** A PTC window as `initialize_ptc_window` shapes it (an empty previous epoch, then two epochs of committees), with random members. */
export function ptcWindow(n: number, seed: number): BigUint64Array[] {
  const rng = new Rng(seed + 2);
  return Array.from({ length: 3 * 32 }, (_, s) => (s < 32 ? new BigUint64Array(512) : BigUint64Array.from({ length: 512 }, () => BigInt(rng.int(n)))));
}

/**
 * `upgrade_to_gloas` (specs/gloas/fork.md) on values: the lists as they
 * are, the payload header's hash and gas limit into the new fields, the new
 * fields as the spec initialises them. Onboarding: no pending deposit's
 * pubkey is a validator's or builder's, and the synthetic signatures are
 * random (invalid), so the deposits with builder credentials (0xB0) are
 * dropped and the rest stay, as `onboard_builders_from_pending_deposits`
 * would do.
 */
function gloasOf(pre: FuluValue, ptc: BigUint64Array[]): GloasValue {
  const g = mainnet.gloas;
  const { latest_execution_payload_header: header, ...kept } = pre;
  const availability = BitArray.fromBitLen(8192);
  availability.uint8Array.fill(0xff);
  return {
    ...kept,
    fork: { previous_version: pre.fork.current_version, current_version: new Uint8Array([7, 0, 0, 0]), epoch: pre.slot / 32n },
    latest_block_hash: header.block_hash,
    pending_deposits: pre.pending_deposits.filter((d) => d.withdrawal_credentials[0] !== 0xb0),
    builders: [],
    next_withdrawal_builder_index: 0n,
    execution_payload_availability: availability,
    builder_pending_payments: Array.from({ length: 64 }, () => g.BuilderPendingPayment.defaultValue()),
    builder_pending_withdrawals: [],
    latest_execution_payload_bid: {
      ...g.ExecutionPayloadBid.defaultValue(),
      block_hash: header.block_hash,
      gas_limit: header.gas_limit,
      execution_requests_root: g.ExecutionRequests.hashTreeRoot(g.ExecutionRequests.defaultValue()),
    },
    payload_expected_withdrawals: [],
    ptc_window: ptc,
  };
}

function generateElectra(n: number, seed: number, progress: (done: number) => void): BeaconStateValue {
  const rng = new Rng(seed);
  const base = BeaconState.defaultValue();
  // One buffer for every pubkey and one for every withdrawal credential: 2^20
  // separate small arrays would cost more in headers than in bytes.
  const pubkeys = rng.bytes(48 * n);
  const credentials = new Uint8Array(32 * n);
  const validators: ValidatorValue[] = new Array(n);
  const balances = new BigUint64Array(n);
  const inactivity = new BigUint64Array(n);
  const previousParticipation = new Uint8Array(n);
  const currentParticipation = new Uint8Array(n);
  const startEpoch = BigInt(START_SLOT / 32);
  for (let start = 0; start < n; start += GENERATE_SLICE) {
    const end = Math.min(n, start + GENERATE_SLICE);
    for (let i = start; i < end; i++) {
      // Distinct by construction: the index is written into the random key.
      pubkeys[48 * i] = i;
      pubkeys[48 * i + 1] = i >>> 8;
      pubkeys[48 * i + 2] = i >>> 16;
      pubkeys[48 * i + 3] = i >>> 24;
      const cred = credentials.subarray(32 * i, 32 * i + 32);
      cred[0] = i % 3 === 0 ? 0x02 : 0x01; // compounding or execution withdrawal credentials
      cred.set(pubkeys.subarray(48 * i + 4, 48 * i + 24), 12);
      const exited = rng.int(64) === 0;
      const activation = BigInt(rng.int(Number(startEpoch)));
      validators[i] = {
        pubkey: pubkeys.subarray(48 * i, 48 * i + 48),
        withdrawal_credentials: cred,
        effective_balance: exited ? 0n : BigInt(16 + rng.int(17)) * 1_000_000_000n,
        slashed: rng.int(1024) === 0,
        activation_eligibility_epoch: activation > 0n ? activation - 1n : 0n,
        activation_epoch: activation,
        exit_epoch: exited ? activation + BigInt(1 + rng.int(1000)) : FAR_FUTURE,
        withdrawable_epoch: exited ? activation + 2000n : FAR_FUTURE,
      };
      balances[i] = exited ? 0n : 31_000_000_000n + BigInt(rng.int(2_000_000_000));
      inactivity[i] = rng.int(16) === 0 ? BigInt(rng.int(64)) : 0n;
      previousParticipation[i] = rng.int(8);
      currentParticipation[i] = rng.int(8);
    }
    progress(end);
  }
  const header = (slot: number) => ({ slot: BigInt(slot), proposer_index: BigInt(rng.int(n)), parent_root: rng.bytes(32), state_root: rng.bytes(32), body_root: rng.bytes(32) });
  const syncCommittee = () => ({
    pubkeys: Array.from({ length: 512 }, () => {
      const i = rng.int(n);
      return pubkeys.slice(48 * i, 48 * i + 48);
    }),
    aggregate_pubkey: rng.bytes(48),
  });
  const justification = new BitArray(new Uint8Array([0b1111]), 4);
  const checkpoint = (epoch: bigint) => ({ epoch, root: rng.bytes(32) });
  return {
    ...base,
    genesis_time: 1_606_824_023n,
    genesis_validators_root: rng.bytes(32),
    slot: BigInt(START_SLOT),
    fork: { previous_version: new Uint8Array([4, 0, 0, 0]), current_version: new Uint8Array([5, 0, 0, 0]), epoch: startEpoch - 1000n },
    latest_block_header: header(START_SLOT),
    block_roots: roots(rng, 8192),
    state_roots: roots(rng, 8192),
    historical_roots: roots(rng, 758),
    eth1_data: { deposit_root: rng.bytes(32), deposit_count: BigInt(n), block_hash: rng.bytes(32) },
    eth1_data_votes: Array.from({ length: 16 }, () => ({ deposit_root: rng.bytes(32), deposit_count: BigInt(n), block_hash: rng.bytes(32) })),
    eth1_deposit_index: BigInt(n),
    validators,
    balances,
    randao_mixes: roots(rng, 65536),
    slashings: BigUint64Array.from({ length: 8192 }, () => (rng.int(512) === 0 ? 32_000_000_000n : 0n)),
    previous_epoch_participation: previousParticipation,
    current_epoch_participation: currentParticipation,
    justification_bits: justification,
    previous_justified_checkpoint: checkpoint(startEpoch - 2n),
    current_justified_checkpoint: checkpoint(startEpoch - 1n),
    finalized_checkpoint: checkpoint(startEpoch - 2n),
    inactivity_scores: inactivity,
    current_sync_committee: syncCommittee(),
    next_sync_committee: syncCommittee(),
    latest_execution_payload_header: {
      ...base.latest_execution_payload_header,
      parent_hash: rng.bytes(32),
      fee_recipient: rng.bytes(20),
      state_root: rng.bytes(32),
      receipts_root: rng.bytes(32),
      logs_bloom: rng.bytes(256),
      prev_randao: rng.bytes(32),
      block_number: 21_000_000n,
      gas_limit: 36_000_000n,
      gas_used: 15_000_000n,
      timestamp: 1_740_000_000n,
      extra_data: new TextEncoder().encode('ssztree demo'),
      base_fee_per_gas: 7_000_000_000n,
      block_hash: rng.bytes(32),
      transactions_root: rng.bytes(32),
      withdrawals_root: rng.bytes(32),
      blob_gas_used: 393_216n,
      excess_blob_gas: 0n,
    },
    next_withdrawal_index: 80_000_000n,
    next_withdrawal_validator_index: BigInt(rng.int(n)),
    historical_summaries: Array.from({ length: 400 }, () => ({ block_summary_root: rng.bytes(32), state_summary_root: rng.bytes(32) })),
    deposit_requests_start_index: 2_000_000n,
    earliest_exit_epoch: startEpoch + 10n,
    earliest_consolidation_epoch: startEpoch + 10n,
    pending_deposits: Array.from({ length: 64 }, () => ({
      pubkey: rng.bytes(48),
      withdrawal_credentials: rng.bytes(32),
      amount: 32_000_000_000n,
      signature: rng.bytes(96),
      slot: BigInt(START_SLOT - rng.int(1000)),
    })),
    pending_partial_withdrawals: Array.from({ length: 16 }, () => ({ validator_index: BigInt(rng.int(n)), amount: 1_000_000_000n, withdrawable_epoch: startEpoch + 256n })),
    pending_consolidations: Array.from({ length: 8 }, () => ({ source_index: BigInt(rng.int(n)), target_index: BigInt(rng.int(n)) })),
  };
}
