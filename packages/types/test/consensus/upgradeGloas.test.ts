/**
 * fulu → gloas and gloas → heze upgrades on views, against a plain model of
 * the spec's `upgrade_to_gloas` / `upgrade_to_heze` written here field by
 * field from specs/gloas/fork.md and specs/heze/fork.md (values only, no
 * trees): the upgraded view's root equals the model's value root, which
 * equals @lodestar/types 1.50's root of the same bytes; the old view is
 * unchanged; the plan's steps; what is shared with the old tree
 * (`sharedWith`, node ids); the caller's values for what the state
 * transition computes (ptc_window, builder onboarding); a given network's
 * fork version. @lodestar/state-transition's upgradeStateToGloas is not
 * compared: it needs a CachedBeaconState (epoch caches, BLS), and its
 * newest release (1.48) is built on @lodestar/types 1.48, not 1.50.
 */
import { describe, expect, it } from 'vitest';
import { ssz } from '@lodestar/types';
import { BitArray, toHex } from '../../src/index.js';
import { MAINNET, MINIMAL, mainnet, minimal, upgradePlans, upgradeState, type Preset } from '../../src/consensus/index.js';

type Types = typeof mainnet;
type FuluState = ReturnType<Types['fulu']['BeaconState']['defaultValue']>;
type GloasState = ReturnType<Types['gloas']['BeaconState']['defaultValue']>;
type HezeState = ReturnType<Types['heze']['BeaconState']['defaultValue']>;

const FAR_FUTURE_EPOCH = 2n ** 64n - 1n;
const BUILDER_WITHDRAWAL_PREFIX = 0xb0;
const PAYLOAD_BUILDER_VERSION = 0;
/** The model's stand-in for `is_valid_deposit_signature`: a signature starting 0xAA is valid. */
const validSignature = (sig: Uint8Array) => sig[0] === 0xaa;

function fuluState(T: Types, n: number, seed = 1): FuluState {
  const v = T.fulu.BeaconState.defaultValue();
  v.slot = 8n * 1000n;
  v.fork = { previous_version: new Uint8Array([5, 0, 0, 0]), current_version: new Uint8Array([6, 0, 0, 0]), epoch: 411_392n };
  v.validators = Array.from({ length: n }, (_, i) => ({
    ...T.fulu.Validator.defaultValue(),
    pubkey: new Uint8Array(48).fill((i * seed) & 0xff).map((b, j) => (j === 0 ? i & 0xff : j === 1 ? i >> 8 : b)),
    effective_balance: 32_000_000_000n,
    exit_epoch: FAR_FUTURE_EPOCH,
  }));
  v.balances = BigUint64Array.from({ length: n }, (_, i) => 31_000_000_000n + BigInt(i));
  v.inactivity_scores = BigUint64Array.from({ length: n }, (_, i) => BigInt(i % 5));
  v.previous_epoch_participation = Uint8Array.from({ length: n }, (_, i) => i % 8);
  v.current_epoch_participation = Uint8Array.from({ length: n }, (_, i) => (i + 3) % 8);
  v.pending_deposits = [1, 2, 3].map((k) => ({ ...T.fulu.PendingDeposit.defaultValue(), pubkey: new Uint8Array(48).fill(k), amount: BigInt(k) * 1_000_000_000n, slot: BigInt(k) }));
  v.pending_partial_withdrawals = [{ ...T.fulu.PendingPartialWithdrawal.defaultValue(), validator_index: 4n, amount: 7n }];
  v.pending_consolidations = [{ source_index: 1n, target_index: 2n }];
  v.latest_execution_payload_header = {
    ...v.latest_execution_payload_header,
    block_hash: new Uint8Array(32).fill(0x5b),
    gas_limit: 36_000_000n,
    block_number: 22_000_000n,
  };
  v.proposer_lookahead = v.proposer_lookahead.map((_, i) => BigInt(i % Math.max(1, n)));
  v.block_roots = v.block_roots.map((_, i) => new Uint8Array(32).fill(i & 0xff));
  return v;
}

/** A PTC window as `initialize_ptc_window` shapes it: an empty previous epoch, then 1 + MIN_SEED_LOOKAHEAD epochs of committees (here a stand-in for `compute_ptc`). */
function ptcWindow(p: Preset, n: number): BigUint64Array[] {
  const empty = Array.from({ length: p.SLOTS_PER_EPOCH }, () => new BigUint64Array(p.PTC_SIZE));
  const ptcs = Array.from({ length: (1 + p.MIN_SEED_LOOKAHEAD) * p.SLOTS_PER_EPOCH }, (_, s) => BigUint64Array.from({ length: p.PTC_SIZE }, (_, i) => BigInt((s * 31 + i * 7) % n)));
  return [...empty, ...ptcs];
}

/** `upgrade_to_gloas` (specs/gloas/fork.md) on values; `ptc` stands for `initialize_ptc_window(pre)`. */
function upgradeToGloasModel(T: Types, p: Preset, pre: FuluState, version: Uint8Array, ptc: BigUint64Array[]): GloasState {
  const epoch = pre.slot / BigInt(p.SLOTS_PER_EPOCH);
  const availability = BitArray.fromBitLen(p.SLOTS_PER_HISTORICAL_ROOT);
  for (let i = 0; i < p.SLOTS_PER_HISTORICAL_ROOT; i++) availability.set(i, true);
  const post: GloasState = {
    genesis_time: pre.genesis_time,
    genesis_validators_root: pre.genesis_validators_root,
    slot: pre.slot,
    fork: { previous_version: pre.fork.current_version, current_version: version, epoch },
    latest_block_header: pre.latest_block_header,
    block_roots: pre.block_roots,
    state_roots: pre.state_roots,
    historical_roots: pre.historical_roots,
    eth1_data: pre.eth1_data,
    eth1_data_votes: pre.eth1_data_votes,
    eth1_deposit_index: pre.eth1_deposit_index,
    validators: [...pre.validators],
    balances: pre.balances.slice(),
    randao_mixes: pre.randao_mixes,
    slashings: pre.slashings,
    previous_epoch_participation: pre.previous_epoch_participation.slice(),
    current_epoch_participation: pre.current_epoch_participation.slice(),
    justification_bits: pre.justification_bits,
    previous_justified_checkpoint: pre.previous_justified_checkpoint,
    current_justified_checkpoint: pre.current_justified_checkpoint,
    finalized_checkpoint: pre.finalized_checkpoint,
    inactivity_scores: pre.inactivity_scores.slice(),
    current_sync_committee: pre.current_sync_committee,
    next_sync_committee: pre.next_sync_committee,
    latest_block_hash: pre.latest_execution_payload_header.block_hash,
    next_withdrawal_index: pre.next_withdrawal_index,
    next_withdrawal_validator_index: pre.next_withdrawal_validator_index,
    historical_summaries: pre.historical_summaries,
    deposit_requests_start_index: pre.deposit_requests_start_index,
    deposit_balance_to_consume: pre.deposit_balance_to_consume,
    exit_balance_to_consume: pre.exit_balance_to_consume,
    earliest_exit_epoch: pre.earliest_exit_epoch,
    consolidation_balance_to_consume: pre.consolidation_balance_to_consume,
    earliest_consolidation_epoch: pre.earliest_consolidation_epoch,
    pending_deposits: [...pre.pending_deposits],
    pending_partial_withdrawals: [...pre.pending_partial_withdrawals],
    pending_consolidations: [...pre.pending_consolidations],
    proposer_lookahead: pre.proposer_lookahead,
    builders: [],
    next_withdrawal_builder_index: 0n,
    execution_payload_availability: availability,
    builder_pending_payments: Array.from({ length: 2 * p.SLOTS_PER_EPOCH }, () => T.gloas.BuilderPendingPayment.defaultValue()),
    builder_pending_withdrawals: [],
    latest_execution_payload_bid: {
      ...T.gloas.ExecutionPayloadBid.defaultValue(),
      block_hash: pre.latest_execution_payload_header.block_hash,
      gas_limit: pre.latest_execution_payload_header.gas_limit,
      execution_requests_root: T.gloas.ExecutionRequests.hashTreeRoot(T.gloas.ExecutionRequests.defaultValue()),
    },
    payload_expected_withdrawals: [],
    ptc_window: ptc,
  };
  onboardBuildersModel(p, post);
  return post;
}

/** `onboard_builders_from_pending_deposits` (specs/gloas/fork.md) on values, with the stand-in signature check. */
function onboardBuildersModel(p: Preset, state: GloasState): void {
  const hex = (b: Uint8Array) => toHex(b);
  const validatorPubkeys = new Set(state.validators.map((v) => hex(v.pubkey)));
  const pending: GloasState['pending_deposits'] = [];
  for (const deposit of state.pending_deposits) {
    if (validatorPubkeys.has(hex(deposit.pubkey))) {
      pending.push(deposit);
      continue;
    }
    const builderPubkeys = state.builders.map((b) => hex(b.pubkey));
    const at = builderPubkeys.indexOf(hex(deposit.pubkey));
    if (at < 0) {
      if (deposit.withdrawal_credentials[0] !== BUILDER_WITHDRAWAL_PREFIX) {
        pending.push(deposit);
        continue;
      }
      if (pending.some((d) => hex(d.pubkey) === hex(deposit.pubkey) && validSignature(d.signature))) {
        pending.push(deposit);
        continue;
      }
      if (!validSignature(deposit.signature)) continue;
      // add_builder_to_registry: no builder is withdrawable yet at the fork, so the new index is the list's length.
      state.builders.push({
        pubkey: deposit.pubkey,
        version: PAYLOAD_BUILDER_VERSION,
        execution_address: deposit.withdrawal_credentials.slice(12),
        balance: deposit.amount,
        deposit_epoch: deposit.slot / BigInt(p.SLOTS_PER_EPOCH),
        withdrawable_epoch: FAR_FUTURE_EPOCH,
      });
    } else {
      const builder = state.builders[at]!;
      state.builders[at] = { ...builder, balance: builder.balance + deposit.amount };
    }
  }
  state.pending_deposits = pending;
}

/** `upgrade_to_heze` (specs/heze/fork.md) on values. */
function upgradeToHezeModel(T: Types, p: Preset, pre: GloasState, version: Uint8Array): HezeState {
  const epoch = pre.slot / BigInt(p.SLOTS_PER_EPOCH);
  const bid = pre.latest_execution_payload_bid;
  return {
    ...pre,
    fork: { previous_version: pre.fork.current_version, current_version: version, epoch },
    latest_execution_payload_bid: { ...bid, inclusion_list_bits: T.heze.InclusionListBits.defaultValue() },
  };
}

const GLOAS_VERSION = new Uint8Array([7, 0, 0, 0]);
const HEZE_VERSION = new Uint8Array([8, 0, 0, 0]);

describe('upgrade fulu → gloas', () => {
  it('plans 29 carried fields, 8 lists converted to progressive lists, 9 new fields, the payload header dropped', () => {
    const plan = upgradePlans('mainnet').gloas;
    const steps = Object.entries(plan.steps);
    const of = (kind: string) => steps.filter(([, s]) => s.kind === kind).map(([n]) => n);
    expect(of('carry')).toHaveLength(29);
    expect(of('convert')).toEqual([
      'validators',
      'balances',
      'previous_epoch_participation',
      'current_epoch_participation',
      'inactivity_scores',
      'pending_deposits',
      'pending_partial_withdrawals',
      'pending_consolidations',
    ]);
    expect(of('new')).toEqual([
      'latest_block_hash',
      'builders',
      'next_withdrawal_builder_index',
      'execution_payload_availability',
      'builder_pending_payments',
      'builder_pending_withdrawals',
      'latest_execution_payload_bid',
      'payload_expected_withdrawals',
      'ptc_window',
    ]);
    expect(Object.keys(plan.steps)).not.toContain('latest_execution_payload_header');
    expect(plan.from).toBe(mainnet.fulu.BeaconState);
    expect(plan.to).toBe(mainnet.gloas.BeaconState);
  });

  for (const [presetName, T, p] of [['minimal', minimal, MINIMAL], ['mainnet', mainnet, MAINNET]] as const) {
    it(`${presetName}: the upgraded root equals the spec model's and Lodestar's; the old view is untouched`, () => {
      const n = 700;
      const pre = fuluState(T, n);
      const old = T.fulu.BeaconState.toView(pre);
      const oldRoot = toHex(old.hashTreeRoot());
      const oldBytes = toHex(old.serialize());
      const ptc = ptcWindow(p, n);
      // The networks run the mainnet preset: a minimal state names its version itself.
      const version = presetName === 'mainnet' ? { network: 'mainnet' as const } : { forkVersion: GLOAS_VERSION };
      const gloas = upgradeState(old, 'gloas', { preset: presetName, ...version, values: { ptc_window: ptc } });
      const model = upgradeToGloasModel(T, p, pre, GLOAS_VERSION, ptc);
      const modelRoot = toHex(T.gloas.BeaconState.hashTreeRoot(model));
      expect(toHex(gloas.hashTreeRoot())).toBe(modelRoot);
      expect(toHex(gloas.serialize())).toBe(toHex(T.gloas.BeaconState.serialize(model)));
      if (presetName === 'mainnet') {
        // Lodestar 1.50 (mainnet preset in this process) reads the same bytes to the same root.
        const lodestarState = ssz.gloas.BeaconState.deserialize(gloas.serialize());
        expect(toHex(ssz.gloas.BeaconState.hashTreeRoot(lodestarState))).toBe(modelRoot);
      }
      // The old tree: the same root and bytes as before.
      expect(toHex(old.hashTreeRoot())).toBe(oldRoot);
      expect(toHex(old.serialize())).toBe(oldBytes);
      expect(gloas.validators.length).toBe(n);
      expect(gloas.balances.get(5)).toBe(31_000_000_005n);
      expect(gloas.fork.epoch).toBe(8000n / BigInt(p.SLOTS_PER_EPOCH));
      old.dispose();
      gloas.dispose();
    });
  }
});

describe('upgrade fulu → gloas: sharing, caller values, options', () => {
  const T = minimal;
  const p = MINIMAL;

  it('carried subtrees are the old nodes; composite list elements are shared; records and pages are rebuilt', () => {
    const n = 500;
    const old = T.fulu.BeaconState.toView(fuluState(T, n));
    const gloas = upgradeState(old, 'gloas', { preset: 'minimal', forkVersion: GLOAS_VERSION });
    const plan = upgradePlans('minimal').gloas;
    const fuluNames = Object.keys(T.fulu.BeaconState.fields);
    const gloasNames = Object.keys(T.gloas.BeaconState.fields);
    const oldFields = old.store.getNodesAtDepth(old.rootNode, 6, 0, fuluNames.length);
    const newFields = T.gloas.BeaconState._fieldNodesOf(gloas.store, gloas.rootNode);
    let carried = 0;
    gloasNames.forEach((name, i) => {
      const step = (plan.steps as Record<string, { kind: string }>)[name]!;
      if (step.kind !== 'carry' || name === 'fork') return;
      expect(newFields[i], name).toBe(oldFields[fuluNames.indexOf(name)]);
      carried++;
    });
    expect(carried).toBe(28);
    // pending_deposits (containers with byte vectors, stored as subtrees): the elements themselves.
    const oldDeposits = T.fulu.PendingDeposits.viewOf(old.pending_deposits.commit());
    const newDeposits = gloas.pending_deposits;
    for (let i = 0; i < 3; i++) expect(newDeposits.get(i).rootNode).toBe(oldDeposits.get(i).rootNode);
    const shared = gloas.sharedWith(old);
    const mem = gloas.memory();
    expect(shared.bytes).toBe(mem.bytes);
    expect(shared.sharedBytes).toBeGreaterThan(0);
    // What is not shared: the converted validators' records and the packed lists' pages (rebuilt
    // from their bytes by fromBinaryView), the new fields and the spine — at most that much.
    // A field's bytes: its view's memory, or that of a view of its value (basic and bitvector fields read as values).
    const fieldBytes = (name: string): number => {
      const field = (gloas as unknown as Record<string, unknown>)[name] as { memory?: () => { bytes: number } };
      if (typeof field.memory === 'function') return field.memory().bytes;
      const view = (T.gloas.BeaconState.fields as Record<string, { toView(v: unknown): { memory(): { bytes: number }; dispose(): void } }>)[name]!.toView(field);
      const bytes = view.memory().bytes;
      view.dispose();
      return bytes;
    };
    const sum = (names: string[]) => names.reduce((total, name) => total + fieldBytes(name), 0);
    const rebuilt = sum(['validators', 'balances', 'previous_epoch_participation', 'current_epoch_participation', 'inactivity_scores']);
    const added = sum(['builder_pending_payments', 'execution_payload_availability', 'latest_execution_payload_bid', 'ptc_window', 'latest_block_hash']);
    expect(shared.bytes - shared.sharedBytes).toBeLessThanOrEqual(rebuilt + added + 64 * 200);
    console.log(`fulu → gloas, ${n} validators (minimal): ${((100 * shared.sharedBytes) / shared.bytes).toFixed(1)} % of ${shared.bytes} bytes shared`);
    oldDeposits.dispose();
    old.dispose();
    gloas.dispose();
  });

  it('defaults: ptc_window zero, fork carried without a version; the new view works like any view', () => {
    const pre = fuluState(T, 40);
    const old = T.fulu.BeaconState.toView(pre);
    const gloas = upgradeState(old, 'gloas', { preset: 'minimal' });
    expect(toHex(gloas.fork.current_version)).toBe('0x06000000');
    expect(gloas.ptc_window.get(3).get(0)).toBe(0n);
    expect(gloas.execution_payload_availability.get(p.SLOTS_PER_HISTORICAL_ROOT - 1)).toBe(true);
    expect(toHex(gloas.latest_block_hash)).toBe(toHex(new Uint8Array(32).fill(0x5b)));
    expect(gloas.latest_execution_payload_bid.gas_limit).toBe(36_000_000n);
    const model = { ...upgradeToGloasModel(T, p, pre, GLOAS_VERSION, ptcWindow(p, 40).map((x) => x.fill(0n))), fork: pre.fork };
    expect(toHex(gloas.hashTreeRoot())).toBe(toHex(T.gloas.BeaconState.hashTreeRoot(model)));
    // Writes through the progressive views: a balance, a new validator, a builder.
    gloas.balances.set(3, 5n);
    gloas.validators.push(T.gloas.Validator.defaultValue());
    gloas.builders.push({ ...T.gloas.Builder.defaultValue(), balance: 9n });
    gloas.commit();
    const written = { ...model, balances: model.balances.map((b, i) => (i === 3 ? 5n : b)), validators: [...model.validators, T.gloas.Validator.defaultValue()] };
    written.builders = [{ ...T.gloas.Builder.defaultValue(), balance: 9n }];
    expect(toHex(gloas.hashTreeRoot())).toBe(toHex(T.gloas.BeaconState.hashTreeRoot(written)));
    expect(old.balances.get(3)).toBe(pre.balances[3]);
    expect(old.validators.length).toBe(40);
    old.dispose();
    gloas.dispose();
  });

  it('builder onboarding (signature checks: the caller’s) arrives as values for builders and pending_deposits', () => {
    const pre = fuluState(T, 30);
    const builderCreds = new Uint8Array(32);
    builderCreds[0] = BUILDER_WITHDRAWAL_PREFIX;
    builderCreds.fill(0x42, 12);
    const deposit = (k: number, creds: Uint8Array, valid: boolean, amount: bigint) => ({
      pubkey: new Uint8Array(48).fill(0xc0 + k),
      withdrawal_credentials: creds,
      amount,
      signature: new Uint8Array(96).fill(valid ? 0xaa : 0x01),
      slot: 8n * 990n,
    });
    pre.pending_deposits = [
      { ...pre.pending_deposits[0]!, pubkey: pre.validators[2]!.pubkey }, // an existing validator: stays
      deposit(1, builderCreds, true, 10n), // a new builder
      deposit(1, builderCreds, true, 5n), // a top-up of that builder
      deposit(2, builderCreds, false, 7n), // a bad signature: dropped
      deposit(3, new Uint8Array(32), true, 3n), // not a builder: stays
    ];
    const ptc = ptcWindow(p, 30);
    const model = upgradeToGloasModel(T, p, pre, GLOAS_VERSION, ptc);
    expect(model.builders).toHaveLength(1);
    expect(model.builders[0]!.balance).toBe(15n);
    expect(model.pending_deposits).toHaveLength(2);
    const old = T.fulu.BeaconState.toView(pre);
    const gloas = upgradeState(old, 'gloas', {
      preset: 'minimal',
      forkVersion: GLOAS_VERSION,
      values: { ptc_window: ptc, builders: model.builders, pending_deposits: model.pending_deposits },
    });
    expect(toHex(gloas.hashTreeRoot())).toBe(toHex(T.gloas.BeaconState.hashTreeRoot(model)));
    expect(old.pending_deposits.length).toBe(5);
    old.dispose();
    gloas.dispose();
  });

  it('a network without the fork version assigned, and a view of another type, are typed errors', () => {
    const old = mainnet.fulu.BeaconState.toView(mainnet.fulu.BeaconState.defaultValue());
    expect(() => upgradeState(old as never, 'heze', { network: 'sepolia' })).toThrow(/sepolia has no heze fork version/);
    expect(() => upgradeState(old as never, 'heze', { forkVersion: HEZE_VERSION })).toThrow(/plan upgrades a BeaconState/);
    old.dispose();
  });
});

describe('upgrade gloas → heze', () => {
  it('carries 45 fields, converts the bid keeping its 12 field subtrees; root = the spec model’s = Lodestar’s', () => {
    const T = mainnet;
    const p = MAINNET;
    const plan = upgradePlans('mainnet').heze;
    const kinds = Object.values(plan.steps).map((s) => s.kind);
    expect(kinds.filter((k) => k === 'carry')).toHaveLength(45);
    expect(plan.steps.latest_execution_payload_bid.kind).toBe('convert');

    const fulu = fuluState(T, 300);
    const ptc = ptcWindow(p, 300);
    const gloasValue = upgradeToGloasModel(T, p, fulu, GLOAS_VERSION, ptc);
    gloasValue.latest_execution_payload_bid = {
      ...gloasValue.latest_execution_payload_bid,
      blob_kzg_commitments: [new Uint8Array(48).fill(1), new Uint8Array(48).fill(2)],
      value: 12n,
      slot: 7999n,
    };
    gloasValue.builders = [{ ...T.gloas.Builder.defaultValue(), balance: 1n }];
    const old = T.gloas.BeaconState.toView(gloasValue);
    const oldRoot = toHex(old.hashTreeRoot());
    const heze = upgradeState(old, 'heze', { network: 'mainnet' });
    const model = upgradeToHezeModel(T, p, gloasValue, HEZE_VERSION);
    const modelRoot = toHex(T.heze.BeaconState.hashTreeRoot(model));
    expect(toHex(heze.hashTreeRoot())).toBe(modelRoot);
    expect(toHex(ssz.heze.BeaconState.hashTreeRoot(ssz.heze.BeaconState.deserialize(heze.serialize())))).toBe(modelRoot);
    expect(toHex(old.hashTreeRoot())).toBe(oldRoot);
    // Every carried field and the bid's 12 old fields: the very nodes of the gloas tree.
    const oldFields = T.gloas.BeaconState._fieldNodesOf(old.store, old.rootNode);
    const newFields = T.heze.BeaconState._fieldNodesOf(heze.store, heze.rootNode);
    const names = Object.keys(T.heze.BeaconState.fields);
    names.forEach((name, i) => {
      if (name !== 'fork' && name !== 'latest_execution_payload_bid') expect(newFields[i], name).toBe(oldFields[i]);
    });
    const bidAt = names.indexOf('latest_execution_payload_bid');
    const oldBid = T.gloas.ExecutionPayloadBid._fieldNodesOf(old.store, oldFields[bidAt]!);
    const newBid = T.heze.ExecutionPayloadBid._fieldNodesOf(heze.store, newFields[bidAt]!);
    expect(newBid.slice(0, 12)).toEqual(oldBid);
    const shared = heze.sharedWith(old);
    expect(shared.sharedBytes / shared.bytes).toBeGreaterThan(0.99);
    old.dispose();
    heze.dispose();
  });

  it('electra → fulu → gloas → heze from one view: each root the value chain’s', () => {
    const T = minimal;
    const p = MINIMAL;
    const fulu = fuluState(T, 64);
    const { proposer_lookahead, ...electraValue } = fulu;
    const electra = T.electra.BeaconState.toView({ ...electraValue, fork: { ...fulu.fork, current_version: new Uint8Array([5, 0, 0, 0]) } });
    const f = upgradeState(electra, 'fulu', { preset: 'minimal', forkVersion: new Uint8Array([6, 0, 0, 0]), values: { proposer_lookahead } });
    const fuluModel = { ...fulu, fork: { previous_version: new Uint8Array([5, 0, 0, 0]), current_version: new Uint8Array([6, 0, 0, 0]), epoch: 1000n } };
    expect(toHex(f.hashTreeRoot())).toBe(toHex(T.fulu.BeaconState.hashTreeRoot(fuluModel)));
    const ptc = ptcWindow(p, 64);
    const g = upgradeState(f, 'gloas', { preset: 'minimal', forkVersion: GLOAS_VERSION, values: { ptc_window: ptc } });
    const gloasModel = upgradeToGloasModel(T, p, fuluModel, GLOAS_VERSION, ptc);
    expect(toHex(g.hashTreeRoot())).toBe(toHex(T.gloas.BeaconState.hashTreeRoot(gloasModel)));
    const h = upgradeState(g, 'heze', { preset: 'minimal', forkVersion: HEZE_VERSION });
    expect(toHex(h.hashTreeRoot())).toBe(toHex(T.heze.BeaconState.hashTreeRoot(upgradeToHezeModel(T, p, gloasModel, HEZE_VERSION))));
    for (const v of [electra, f, g, h]) v.dispose();
  });
});
