/**
 * Types named without their fork: every command picks the fork from the
 * input's slot (SSZ: at the fixed offset; JSON: the value's slot, or a
 * beacon API envelope's version) on `--network`'s schedule; and every
 * command works on fulu, gloas and heze types.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { toHex } from '@ssztree/types';
import { NETWORKS, mainnet } from '@ssztree/types/consensus';
import { forkPicker } from '../src/forkPick.js';
import { encodeFramed } from '../src/index.js';
import { run, tempDir } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

const FULU_SLOT = 411_392n * 32n + 5n;
const ELECTRA_SLOT = 364_032n * 32n;
const state = (slot: bigint) => ({ ...mainnet.fulu.BeaconState.defaultValue(), slot, proposer_lookahead: new BigUint64Array(64).fill(7n) });
const fuluState = state(FULU_SLOT);
const fuluBytes = mainnet.fulu.BeaconState.serialize(fuluState);
const fuluRoot = `0x${toHex(mainnet.fulu.BeaconState.hashTreeRoot(fuluState)).replace(/^0x/, '')}`;

describe('--network: the fork picked from the input', () => {
  it('root of a fulu state named BeaconState, from SSZ, snappy, JSON and a beacon API envelope', async () => {
    const ssz = tmp.write('state.ssz', fuluBytes);
    expect(await run(['root', 'BeaconState', ssz, '--network', 'mainnet'])).toMatchObject({ code: 0, out: `${fuluRoot}\n` });
    expect((await run(['root', 'BeaconState', tmp.write('state.ssz_snappy', encodeFramed(fuluBytes))])).out).toBe(`${fuluRoot}\n`);
    const json = JSON.stringify(mainnet.fulu.BeaconState.toJson(fuluState));
    expect((await run(['root', 'BeaconState', tmp.write('state.json', json)])).out).toBe(`${fuluRoot}\n`);
    expect((await run(['root', 'BeaconState', '-', '--format', 'json'], { stdin: `{"version":"fulu","data":${json}}` })).out).toBe(`${fuluRoot}\n`);
    expect((await run(['root', 'fulu.BeaconState', ssz])).out).toBe(`${fuluRoot}\n`);
  });

  it('an electra block on mainnet is electra; the same slot on hoodi is fulu', async () => {
    const b = mainnet.electra.SignedBeaconBlock.defaultValue();
    const block = { ...b, message: { ...b.message, slot: ELECTRA_SLOT } };
    const file = tmp.write('block.ssz', mainnet.electra.SignedBeaconBlock.serialize(block));
    const electraRoot = toHex(mainnet.electra.SignedBeaconBlock.hashTreeRoot(block));
    expect((await run(['root', 'SignedBeaconBlock', file])).out.trim()).toBe(electraRoot);
    // On hoodi that slot is long past fulu: the bytes are read as a fulu block (same layout, fulu's types).
    const hoodi = await run(['decode', 'SignedBeaconBlock', file, '--network', 'hoodi']);
    expect(hoodi.code).toBe(0);
    expect(JSON.parse(hoodi.out).message.slot).toBe(String(ELECTRA_SLOT));
  });

  it('decode, encode, proof and diff pick the fork too', async () => {
    const ssz = tmp.write('state2.ssz', fuluBytes);
    const decoded = await run(['decode', 'BeaconState', ssz]);
    expect(JSON.parse(decoded.out).proposer_lookahead[0]).toBe('7');
    const json = tmp.write('state2.json', decoded.out);
    const encoded = await run(['encode', 'BeaconState', json]);
    expect(toHex(encoded.bytes)).toBe(toHex(fuluBytes));
    const proof = await run(['proof', 'BeaconState', ssz, 'proposer_lookahead.3']);
    expect(proof.code).toBe(0);
    expect(JSON.parse(proof.out)).toMatchObject({ type: 'fulu.BeaconState', root: fuluRoot });
    const other = tmp.write('state3.ssz', mainnet.fulu.BeaconState.serialize({ ...fuluState, proposer_lookahead: new BigUint64Array(64).fill(7n).fill(9n, 63) }));
    expect(await run(['diff', 'BeaconState', ssz, other])).toMatchObject({ code: 1, out: 'proposer_lookahead[63]: "7" -> "9"\n' });
    const electra = tmp.write('electra.ssz', mainnet.electra.BeaconState.serialize({ ...mainnet.electra.BeaconState.defaultValue(), slot: ELECTRA_SLOT }));
    expect((await run(['diff', 'BeaconState', ssz, electra])).err).toMatch(/is fulu.BeaconState and .* is electra.BeaconState/);
  });

  it('clear errors: a type without a slot, too short an input, an unknown network, a minimal preset', async () => {
    const ssz = tmp.write('short.ssz', new Uint8Array(20));
    expect((await run(['root', 'Validator', ssz])).err).toMatch(/"Validator" has no fork: name it as <fork>.Validator/);
    expect((await run(['root', 'BeaconState', ssz])).err).toMatch(/short.ssz: .*SHORT_INPUT.*BeaconState.slot/);
    expect((await run(['root', 'BeaconState', ssz, '--network', 'holesky'])).err).toMatch(/unknown network "holesky"/);
    expect((await run(['root', 'BeaconState', ssz, '--preset', 'minimal'])).err).toMatch(/name the fork for --preset minimal/);
  });
});

describe('every command on fulu types', () => {
  it('root, decode, encode, proof, diff and types on a DataColumnSidecar and fulu names', async () => {
    const T = mainnet.fulu.DataColumnSidecar;
    const v = T.defaultValue();
    const value = { ...v, index: 3n, column: [new Uint8Array(2048).fill(1)], kzg_commitments: [new Uint8Array(48).fill(2)], kzg_proofs: [new Uint8Array(48).fill(3)] };
    const file = tmp.write('col.ssz', T.serialize(value));
    expect((await run(['root', 'fulu.DataColumnSidecar', file])).out.trim()).toBe(toHex(T.hashTreeRoot(value)));
    expect((await run(['decode', 'DataColumnSidecar', file])).err).toMatch(/col.ssz: the input is phase0 on mainnet, which has no DataColumnSidecar/);
    const json = tmp.write('col.json', (await run(['decode', 'fulu.DataColumnSidecar', file])).out);
    expect(toHex((await run(['encode', 'fulu.DataColumnSidecar', json])).bytes)).toBe(toHex(T.serialize(value)));
    expect((await run(['proof', 'fulu.DataColumnSidecar', file, 'kzg_commitments.0'])).code).toBe(0);
    expect((await run(['diff', 'fulu.DataColumnSidecar', file, json])).code).toBe(0);
    const types = (await run(['types', 'fulu'])).out.split('\n');
    for (const n of ['fulu.DataColumnSidecar', 'fulu.MatrixEntry', 'fulu.Status', 'fulu.Metadata', 'fulu.LightClientUpdate', 'fulu.BeaconState']) expect(types).toContain(n);
  });
});

describe('every command on gloas and heze types', () => {
  const T = mainnet.gloas.BeaconState;
  const v = T.defaultValue();
  const gloasState = {
    ...v,
    slot: 12n,
    balances: BigUint64Array.from([32n, 31n, 30n]),
    builders: [{ ...mainnet.gloas.Builder.defaultValue(), balance: 7n, pubkey: new Uint8Array(48).fill(4) }],
    latest_execution_payload_bid: { ...v.latest_execution_payload_bid, blob_kzg_commitments: [new Uint8Array(48).fill(1), new Uint8Array(48).fill(2)] },
  };
  const gloasBytes = T.serialize(gloasState);

  it('root, decode, encode, proof and diff of a progressive gloas state', async () => {
    const file = tmp.write('gloas.ssz', gloasBytes);
    const root = toHex(T.hashTreeRoot(gloasState));
    expect((await run(['root', 'gloas.BeaconState', file])).out.trim()).toBe(root);
    const decoded = await run(['decode', 'gloas.BeaconState', file]);
    expect(JSON.parse(decoded.out).builders[0].balance).toBe('7');
    const json = tmp.write('gloas.json', decoded.out);
    expect(toHex((await run(['encode', 'gloas.BeaconState', json])).bytes)).toBe(toHex(gloasBytes));
    // A proof into a progressive list inside a progressive container, checked against the root.
    const proof = await run(['proof', 'gloas.BeaconState', file, 'latest_execution_payload_bid.blob_kzg_commitments.1']);
    expect(proof.code).toBe(0);
    const p = JSON.parse(proof.out) as { root: string; gindices: string[] };
    expect(p.root).toBe(`0x${root.replace(/^0x/, '')}`);
    expect(p.gindices.map(BigInt)).toEqual([T.gindexOf(['latest_execution_payload_bid', 'blob_kzg_commitments', 1])]);
    const other = tmp.write('gloas2.ssz', T.serialize({ ...gloasState, balances: BigUint64Array.from([32n, 31n, 29n]) }));
    expect(await run(['diff', 'gloas.BeaconState', file, other])).toMatchObject({ code: 1, out: 'balances[2]: "30" -> "29"\n' });
  });

  it('diff walks progressive lists subtree by subtree: elements deep in the spine, packed values, lengths', async () => {
    const validators = Array.from({ length: 90 }, (_, i) => ({ ...mainnet.gloas.Validator.defaultValue(), effective_balance: BigInt(i) }));
    const balances = BigUint64Array.from({ length: 400 }, (_, i) => BigInt(i));
    const a = { ...gloasState, validators, balances };
    const changedValidators = validators.map((x, i) => (i === 3 || i === 30 || i === 88 ? { ...x, slashed: true } : x));
    const changedBalances = balances.slice();
    changedBalances[0] = 1000n;
    changedBalances[100] = 1001n;
    changedBalances[399] = 1002n;
    const b = { ...a, validators: changedValidators, balances: changedBalances, builders: [] };
    const fa = tmp.write('pa.ssz', T.serialize(a));
    const fb = tmp.write('pb.ssz', T.serialize(b));
    const r = await run(['diff', 'gloas.BeaconState', fa, fb]);
    expect(r.code).toBe(1);
    expect(r.out.split('\n').filter(Boolean)).toEqual([
      'validators[3].slashed: false -> true',
      'validators[30].slashed: false -> true',
      'validators[88].slashed: false -> true',
      'balances[0]: "0" -> "1000"',
      'balances[100]: "100" -> "1001"',
      'balances[399]: "399" -> "1002"',
      'builders: length 1 -> 0 (element 0 only in a)',
    ]);
  });

  it('heze inclusion lists and bids; types lists both forks', async () => {
    const S = mainnet.heze.SignedInclusionList;
    const il = { ...S.defaultValue(), message: { ...S.defaultValue().message, slot: 9n, transactions: [Uint8Array.of(1, 2, 3), new Uint8Array(0)] } };
    const file = tmp.write('il.ssz', S.serialize(il));
    expect((await run(['root', 'heze.SignedInclusionList', file])).out.trim()).toBe(toHex(S.hashTreeRoot(il)));
    const json = JSON.parse((await run(['decode', 'heze.SignedInclusionList', file])).out);
    expect(json.message.transactions).toEqual(['0x010203', '0x']);
    // The bound is the spec's: one byte more is refused before it is read.
    const big = tmp.write('il-big.ssz', new Uint8Array(mainnet.heze.SignedInclusionList.byteBound + 1));
    expect((await run(['root', 'heze.SignedInclusionList', big])).err).toMatch(/a heze.SignedInclusionList is at most 8348 bytes \(the spec's byte bound\)/);
    const types = (await run(['types', 'heze'])).out.split('\n');
    for (const n of ['heze.InclusionList', 'heze.SignedExecutionPayloadBid', 'heze.BeaconState']) expect(types).toContain(n);
    const gloasTypes = (await run(['types', 'gloas'])).out.split('\n');
    for (const n of ['gloas.ExecutionPayloadEnvelope', 'gloas.PayloadAttestation', 'gloas.Builder', 'gloas.LightClientHeader']) expect(gloasTypes).toContain(n);
  });

  it('types named without their fork: on mainnet (gloas not scheduled) a gloas-era slot is fulu; where gloas is scheduled it is picked', async () => {
    // Mainnet schedules no gloas: the slot says fulu, and the bytes are refused as a fulu state.
    const file = tmp.write('gloas3.ssz', gloasBytes);
    const r = await run(['root', 'BeaconState', file]);
    expect(r.code).not.toBe(0);
    // A schedule with gloas and heze (a devnet's): the picker reads the slot and names the fork.
    const devnet = { ...NETWORKS.mainnet, forks: NETWORKS.mainnet.forks.map((f) => (f.fork === 'gloas' ? { ...f, epoch: 0 } : f.fork === 'heze' ? { ...f, epoch: 10 } : f)) };
    const pick = forkPicker('BeaconState', devnet, 'mainnet');
    const read = (bytes: Uint8Array) => (s: number, e: number) => bytes.subarray(s, e);
    expect(pick.fromSsz(read(gloasBytes), gloasBytes.length, 'x', 'ssz').name).toBe('gloas.BeaconState');
    const heze = mainnet.heze.BeaconState.serialize({ ...mainnet.heze.BeaconState.defaultValue(), slot: 10n * 32n });
    expect(pick.fromSsz(read(heze), heze.length, 'x', 'ssz').name).toBe('heze.BeaconState');
    expect(pick.fromJson({ slot: '320' }, 'x').name).toBe('heze.BeaconState');
    // The sidecar's layout says where its slot is: the gloas one at 16.
    const sidecar = mainnet.gloas.DataColumnSidecar.serialize({ ...mainnet.gloas.DataColumnSidecar.defaultValue(), slot: 400n });
    expect(forkPicker('DataColumnSidecar', devnet, 'mainnet').fromSsz(read(sidecar), sidecar.length, 'x', 'ssz').name).toBe('heze.DataColumnSidecar');
    expect(forkPicker('DataColumnSidecar', devnet, 'mainnet').fromJson({ slot: '5', index: '0' }, 'x').name).toBe('gloas.DataColumnSidecar');
    const bid = mainnet.heze.SignedExecutionPayloadBid;
    const bidBytes = bid.serialize({ ...bid.defaultValue(), message: { ...bid.defaultValue().message, slot: 330n } });
    expect(forkPicker('SignedExecutionPayloadBid', devnet, 'mainnet').fromSsz(read(bidBytes), bidBytes.length, 'x', 'ssz').name).toBe('heze.SignedExecutionPayloadBid');
  });
});
