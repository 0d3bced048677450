/**
 * Types named without their fork: every command picks the fork from the
 * input's slot (SSZ: at the fixed offset; JSON: the value's slot, or a
 * beacon API envelope's version) on `--network`'s schedule; and every
 * command works on fulu types.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { toHex } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
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
