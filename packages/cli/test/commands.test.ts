/**
 * Every command in-process on the spec vectors (phase0 minimal ssz_static):
 * roots equal roots.yaml from raw, snappy (block and framed), JSON and YAML
 * inputs; decode equals value.yaml; encode(decode(x)) = x; proofs verify
 * and tampered ones do not; diff finds exactly the changed fields; types.
 */
import { join } from 'node:path';
import snappyjs from 'snappyjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { toHex, type SszType } from '@ssztree/types';
import { mainnet, minimal } from '@ssztree/types/consensus';
import { decodeFramed, encodeFramed, main } from '../src/index.js';
import { readBytes, readRoot, readYaml, run, specTestsDir, tempDir } from './helpers.js';

const CONTAINERS = ['Validator', 'Attestation', 'BeaconBlock', 'SignedBeaconBlock', 'BeaconState'] as const;
const M = ['--preset', 'minimal'];

let spec = '';
const tmp = tempDir();
const caseDir = (name: string, c = 0) => join(spec, name, 'ssz_random', `case_${c}`);
const typeOf = (name: string) => minimal.phase0[name as keyof typeof minimal.phase0] as unknown as SszType<unknown>;

beforeAll(() => {
  spec = join(specTestsDir(), 'tests/minimal/phase0/ssz_static');
}, 600_000);
afterAll(() => tmp.remove());

describe.each(CONTAINERS)('%s (spec vectors, cases 0 and 1)', (name) => {
  const T = `phase0.${name}`;

  it('root of raw SSZ, raw-block snappy, framed snappy, value.yaml and decoded JSON equals roots.yaml', async () => {
    for (const c of [0, 1]) {
      const dir = caseDir(name, c);
      const bytes = readBytes(join(dir, 'serialized.ssz'));
      const expected = readRoot(join(dir, 'roots.yaml'));
      const block = tmp.write(`${name}_${c}_block.ssz_snappy`, snappyjs.compress(bytes));
      const framed = tmp.write(`${name}_${c}_framed.ssz_snappy`, encodeFramed(bytes));
      const decoded = await run(['decode', T, join(dir, 'serialized.ssz'), ...M]);
      const json = tmp.write(`${name}_${c}.json`, decoded.out);
      for (const file of [join(dir, 'serialized.ssz'), block, framed, join(dir, 'value.yaml'), json]) {
        const r = await run(['root', T, file, ...M]);
        expect({ file, code: r.code, out: r.out, err: r.err }).toEqual({ file, code: 0, out: `${expected}\n`, err: '' });
      }
    }
  });

  it('decode --json and --yaml equal value.yaml', async () => {
    const type = typeOf(name);
    const dir = caseDir(name);
    const want = type.fromJson(readYaml(join(dir, 'value.yaml')));
    const asJson = await run(['decode', T, join(dir, 'serialized.ssz'), '--json', ...M]);
    expect(asJson.code).toBe(0);
    expect(type.equals(type.fromJson(JSON.parse(asJson.out)), want)).toBe(true);
    expect(JSON.parse(asJson.out)).toEqual(type.toJson(want));
    const asYaml = await run(['decode', T, join(dir, 'serialized.ssz'), '--yaml', ...M]);
    expect(asYaml.code).toBe(0);
    expect(type.equals(type.fromJson(parseYaml(asYaml.out)), want)).toBe(true);
  });

  it('encode(decode(x)) is x, raw and --snappy (framed), to stdout and to -o', async () => {
    const dir = caseDir(name);
    const bytes = readBytes(join(dir, 'serialized.ssz'));
    const json = tmp.write(`${name}_rt.json`, (await run(['decode', T, join(dir, 'serialized.ssz'), ...M])).out);
    const raw = await run(['encode', T, json, ...M]);
    expect(raw.code).toBe(0);
    expect(toHex(raw.bytes)).toBe(toHex(bytes));
    const snappy = await run(['encode', T, json, '--snappy', ...M]);
    expect(toHex(decodeFramed(snappy.bytes))).toBe(toHex(bytes));
    const out = join(tmp.dir, `${name}_rt.ssz`);
    const toFile = await run(['encode', T, json, '-o', out, ...M]);
    expect([toFile.code, toFile.out]).toEqual([0, '']);
    expect(toHex(readBytes(out))).toBe(toHex(bytes));
    // YAML in, too.
    expect(toHex((await run(['encode', T, join(dir, 'value.yaml'), ...M])).bytes)).toBe(toHex(bytes));
  });
});

describe('proof and verify-proof (BeaconState case 0)', () => {
  const T = 'phase0.BeaconState';
  const file = () => join(caseDir('BeaconState'), 'serialized.ssz');

  it('proves validators 0 effective_balance; the proof verifies; a flipped byte or a wrong root does not', async () => {
    const r = await run(['proof', T, file(), 'validators', '0', 'effective_balance', ...M]);
    expect(r.code).toBe(0);
    const proof = JSON.parse(r.out);
    expect(proof.root).toBe(readRoot(join(caseDir('BeaconState'), 'roots.yaml')));
    expect(proof.kind).toBe('single');
    expect(proof.paths).toEqual([['validators', 0, 'effective_balance']]);
    expect(proof.gindices).toEqual([minimal.phase0.BeaconState.gindexOf(['validators', 0, 'effective_balance']).toString()]);
    const ok = await run(['verify-proof', tmp.write('p.json', r.out)]);
    expect([ok.code, ok.out]).toEqual([0, `valid: proof of 1 leaf against root ${proof.root}\n`]);
    // Dotted and bracket paths are the same path.
    expect((await run(['proof', T, file(), 'validators[0].effective_balance', ...M])).out).toBe(r.out);

    const flipped = structuredClone(proof);
    flipped.witnesses[3] = flipped.witnesses[3].replace(/^0x(.)/, (_: string, d: string) => `0x${d === '0' ? '1' : '0'}`);
    const bad = await run(['verify-proof', tmp.write('bad.json', JSON.stringify(flipped))]);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^invalid: the proof does not reach root 0x[0-9a-f]{64}\n$/);
    const badLeaf = structuredClone(proof);
    badLeaf.leaves[0] = `0x${'00'.repeat(32)}`;
    expect((await run(['verify-proof', tmp.write('badleaf.json', JSON.stringify(badLeaf))])).code).toBe(1);
    const otherRoot = await run(['verify-proof', tmp.write('p2.json', r.out), '--root', `0x${'11'.repeat(32)}`]);
    expect(otherRoot.code).toBe(1);
    // A gindex that is not the named path's is refused even if the hashes were consistent.
    const moved = structuredClone(proof);
    moved.paths = [['validators', 1, 'effective_balance']];
    const m = await run(['verify-proof', tmp.write('moved.json', JSON.stringify(moved))]);
    expect(m.code).toBe(1);
    expect(m.out).toMatch(/^invalid: gindices\[0\] is \d+, but phase0.BeaconState path validators.1.effective_balance is gindex \d+\n$/);
  });

  it('the same proof from value.yaml (tree built from the value) as from the SSZ bytes', async () => {
    const fromSsz = await run(['proof', T, file(), 'validators.1.pubkey,', 'balances.0', ...M]);
    const fromYaml = await run(['proof', T, join(caseDir('BeaconState'), 'value.yaml'), 'validators.1.pubkey,', 'balances.0', ...M]);
    expect(fromSsz.code).toBe(0);
    expect(fromYaml.out).toBe(fromSsz.out);
  });

  it('verify-proof on a malformed or foreign proof file: one line, exit 2, no usage line', async () => {
    const good = JSON.parse((await run(['proof', T, file(), 'slot', ...M])).out);
    const cases: [unknown, RegExp][] = [
      [{ ...good, type: 'phase0.Nope' }, /: unknown type "phase0.Nope"/],
      [{ ...good, leaves: ['0x12'] }, /: leaves\[0\] is not a 32-byte 0x-hex string/],
      [{ ...good, gindices: [] }, /: "gindices" is not a non-empty list/],
      [{ ...good, gindices: ['0'] }, /: gindices\[0\] is not a positive integer/],
      [{ ...good, kind: 'other' }, /: "kind" is neither single nor multi/],
      [[1, 2], /: a proof is a JSON object/],
    ];
    for (const [json, message] of cases) {
      const r = await run(['verify-proof', tmp.write('malformed.json', JSON.stringify(json))]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.split('\n')).toHaveLength(2);
    }
    const { root, ...rootless } = good;
    expect((await run(['verify-proof', tmp.write('rootless.json', JSON.stringify(rootless))])).err).toMatch(/no "root" in the proof; give one with --root/);
    expect((await run(['verify-proof', tmp.write('rootless.json', JSON.stringify(rootless)), '--root', root])).code).toBe(0);
  });

  it('proves several paths at once as a multiproof, read from stdin', async () => {
    const r = await run(['proof', T, file(), 'slot,', 'balances', '2,', 'fork.epoch', ...M]);
    expect(r.code).toBe(0);
    const proof = JSON.parse(r.out);
    expect(proof.kind).toBe('multi');
    expect(proof.paths).toEqual([['slot'], ['balances', 2], ['fork', 'epoch']]);
    const ok = await run(['verify-proof', '-'], { stdin: r.out });
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^valid: proof of 3 leaves/);
  });

  it('an unknown path is one line naming the type path, before the file is read', async () => {
    const r = await run(['proof', T, join(tmp.dir, 'does-not-exist.ssz'), 'validators', '0', 'nope', ...M]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/^ssztree: .*nope.*\(BAD_PATH\) at BeaconState.validators\[0\]/);
  });

  it('an electra mainnet state (default value) proves a nested path', async () => {
    const S = mainnet.electra.BeaconState;
    const value = S.defaultValue();
    value.slot = 12345n;
    const path = tmp.write('electra.ssz', S.serialize(value));
    const r = await run(['proof', 'electra.BeaconState', path, 'latest_execution_payload_header.block_hash']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).root).toBe(toHex(S.hashTreeRoot(value)));
    expect((await run(['verify-proof', tmp.write('ep.json', r.out)])).code).toBe(0);
  });
});

describe('diff', () => {
  const T = 'phase0.BeaconState';
  const S = minimal.phase0.BeaconState;

  it('equal inputs (SSZ against its own JSON) exit 0 with no output', async () => {
    const dir = caseDir('BeaconState');
    const r = await run(['diff', T, join(dir, 'serialized.ssz'), join(dir, 'value.yaml'), ...M]);
    expect([r.code, r.out, r.err]).toEqual([0, '', '']);
  });

  it('reports exactly the changed fields and indices, with values', async () => {
    const dir = caseDir('BeaconState');
    const bytes = readBytes(join(dir, 'serialized.ssz'));
    const value = S.deserialize(bytes);
    const changed = S.clone(value);
    changed.slot = 42n;
    changed.validators[3]!.effective_balance = 31_000_000_000n;
    changed.balances[2] = 5n;
    changed.eth1_data_votes.push(S.fields.eth1_data_votes.elementType.defaultValue());
    const a = tmp.write('a.ssz', bytes);
    const b = tmp.write('b.ssz', S.serialize(changed));
    const r = await run(['diff', T, a, b, ...M]);
    expect(r.code).toBe(1);
    const before = S.toJson(value) as Record<string, unknown> & { validators: { effective_balance: string }[]; balances: string[]; slot: string; eth1_data_votes: unknown[] };
    expect(r.out.split('\n').filter((l) => l !== '')).toEqual([
      `slot: "${before.slot}" -> "42"`,
      `eth1_data_votes: length ${before.eth1_data_votes.length} -> ${before.eth1_data_votes.length + 1} (element ${before.eth1_data_votes.length} only in b)`,
      `validators[3].effective_balance: "${before.validators[3]!.effective_balance}" -> "31000000000"`,
      `balances[2]: "${before.balances[2]}" -> "5"`,
    ]);
  });

  it('two different spec cases: lists fields, caps long lists with a count', async () => {
    const r = await run(['diff', T, join(caseDir('BeaconState', 0), 'serialized.ssz'), join(caseDir('BeaconState', 1), 'serialized.ssz'), '--limit', '2', ...M]);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split('\n');
    expect(lines).toContain(lines.find((l) => l.startsWith('slot: ')));
    expect(lines.some((l) => /^block_roots: \d+ more differing elements not shown \(raise --limit\)$/.test(l))).toBe(true);
    expect(lines.filter((l) => l.startsWith('block_roots['))).toHaveLength(2);
    // Trees built from values (YAML) and from bytes differ in node layout (wide pages, records): same report.
    const mixed = await run(['diff', T, join(caseDir('BeaconState', 0), 'value.yaml'), join(caseDir('BeaconState', 1), 'serialized.ssz'), '--limit', '2', ...M]);
    expect(mixed.out).toBe(r.out);
  });
});

describe('errors: one line, type path and byte offset, exit 2', () => {
  const T = 'phase0.BeaconState';

  it('a truncated state: its size against the least a state takes, before it is read', async () => {
    const bytes = readBytes(join(caseDir('BeaconState'), 'serialized.ssz'));
    const r = await run(['root', T, tmp.write('short.ssz', bytes.subarray(0, 1000)), ...M]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(`ssztree: ${join(tmp.dir, 'short.ssz')}: 1000 bytes, but a phase0.BeaconState is at least ${minimal.phase0.BeaconState.minSize} bytes\n`);
    // Cut inside its variable part: the layout check names the field, as the decoder would.
    const cut = await run(['root', T, tmp.write('cut.ssz', bytes.subarray(0, bytes.length - 5)), ...M]);
    expect(cut.err).toMatch(/^ssztree: .*cut\.ssz: .* \((BAD_SIZE|BAD_OFFSET|SHORT_INPUT|BAD_BITS)\) at BeaconState\.\w+.*, byte offset \d+\n$/);
  });

  it('a bad first offset, and a bitlist without its delimiter deep inside, in framed snappy (offsets count decompressed bytes)', async () => {
    const S = minimal.phase0.BeaconState;
    const bytes = readBytes(join(caseDir('BeaconState'), 'serialized.ssz'));
    // historical_roots is the first variable-size field: its offset sits right after the fixed fields before it.
    const names = Object.keys(S.fields);
    const at = names.slice(0, names.indexOf('historical_roots')).reduce((n, f) => n + (S.fields[f as keyof typeof S.fields].fixedSize as number), 0);
    const badOffset = bytes.slice();
    new DataView(badOffset.buffer).setUint32(at, 3, true);
    const r1 = await run(['root', T, tmp.write('offset.ssz_snappy', encodeFramed(badOffset)), ...M]);
    expect(r1.code).toBe(2);
    expect(r1.err).toMatch(new RegExp(`^ssztree: .*offset\\.ssz_snappy: .* \\(BAD_OFFSET\\) at BeaconState\\.historical_roots, byte offset ${at} of the decompressed SSZ\n$`));
    // The state ends with the last current-epoch attestation's aggregation bits: zero their last byte.
    const k = S.deserialize(bytes).current_epoch_attestations.length - 1;
    expect(k).toBeGreaterThanOrEqual(0);
    const noDelimiter = bytes.slice();
    noDelimiter[noDelimiter.length - 1] = 0;
    const r2 = await run(['decode', T, tmp.write('bits.ssz_snappy', encodeFramed(noDelimiter)), ...M]);
    expect([r2.code, r2.out]).toEqual([2, '']);
    expect(r2.err).toMatch(new RegExp(`^ssztree: .* \\(BAD_BITS\\) at BeaconState\\.current_epoch_attestations\\[${k}\\]\\.aggregation_bits, byte offset ${bytes.length - 1} of the decompressed SSZ\n$`));
  });

  it('proof reads SSZ through the tree path: a corrupt file still fails with one line, path and offset', async () => {
    const bytes = readBytes(join(caseDir('BeaconState'), 'serialized.ssz')).slice();
    bytes[bytes.length - 1] = 0;
    const r = await run(['proof', T, tmp.write('bits.ssz', bytes), 'slot', ...M]);
    expect([r.code, r.out]).toEqual([2, '']);
    expect(r.err).toMatch(/^ssztree: .*bits\.ssz: .* \(BAD_BITS\) at BeaconState\.current_epoch_attestations\[\d+\]\.aggregation_bits, byte offset \d+\n$/);
  });

  it('snappy with a bad checksum', async () => {
    const bytes = readBytes(join(caseDir('Validator'), 'serialized.ssz'));
    const framed = encodeFramed(bytes);
    framed[14] = (framed[14] as number) ^ 1;
    const r = await run(['root', 'phase0.Validator', tmp.write('crc.ssz_snappy', framed), ...M]);
    expect(r.code).toBe(2);
    expect(r.err).toBe('ssztree: ' + join(tmp.dir, 'crc.ssz_snappy') + ': bad snappy data: checksum mismatch (masked CRC-32C) in a data chunk, compressed byte offset 10\n');
  });

  it('wrong JSON shape, bad JSON, unsafe numbers', async () => {
    const a = await run(['root', 'phase0.Checkpoint', tmp.write('cp.json', '{"epoch":"1","root":"0x12"}')]);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/^ssztree: .*cp\.json: .* at Checkpoint\.root\n$/);
    const b = await run(['root', 'phase0.Checkpoint', tmp.write('broken.json', '{"epoch":')]);
    expect(b.err).toMatch(/^ssztree: .*broken\.json: invalid JSON: /);
    // JSON.parse quotes the input in its message, newlines included: still one line.
    const nl = await run(['root', 'phase0.Checkpoint', tmp.write('nl.json', '{"epoch":\n  x}')]);
    expect(nl.err).toMatch(/^ssztree: .*nl\.json: invalid JSON: .*\\n.*\n$/);
    expect(nl.err.split('\n')).toHaveLength(2);
    // Binary bytes, or a text that is no JSON object, fail on their first bytes.
    const nul = await run(['root', 'phase0.Checkpoint', tmp.write('nul.json', '\u0000\n  {"epoch":"1"}')]);
    expect(nul.err).toBe(`ssztree: ${join(tmp.dir, 'nul.json')}: not text: control byte 0x00 at byte 0 (use --format ssz for binary input)\n`);
    const word = await run(['root', 'phase0.Checkpoint', tmp.write('word.json', 'hello')]);
    expect(word.err).toMatch(/word\.json: invalid JSON: a value of a consensus type is an object, but the text starts with "h"\n$/);
    const c = await run(['root', 'phase0.Checkpoint', tmp.write('big.json', `{"epoch":18446744073709551615,"root":"0x${'00'.repeat(32)}"}`)]);
    expect(c.err).toMatch(/above 2\^53 and would be rounded; write it as a decimal string\n$/);
  });

  it('usage errors: missing args, unknown command, option or type (with near matches), missing file', async () => {
    const cases: [string[], RegExp][] = [
      [[], /^ssztree: missing command\nusage: ssztree /],
      [['root'], /^ssztree: missing <Type>\nusage: /],
      [['root', 'phase0.Fork'], /^ssztree: missing <file>\nusage: /],
      [['frobnicate'], /^ssztree: unknown command "frobnicate"\nusage: /],
      [['root', 'phase0.Fork', 'x', '--bogus'], /^ssztree: unknown option --bogus\nusage: /],
      [['root', 'phase0.Fork', 'x', '--snappy'], /^ssztree: root takes no --snappy\nusage: /],
      [['root', 'deneb.BeaconStat', 'x'], /^ssztree: unknown type "deneb.BeaconStat" .*did you mean deneb.BeaconState, /],
      [['root', 'BeaconBlok', 'x'], /did you mean heze.BeaconBlock, gloas.BeaconBlock, fulu.BeaconBlock, electra.BeaconBlock/],
      [['root', 'Checkpoint', 'x'], /^ssztree: "Checkpoint" has no fork: name it as <fork>.Checkpoint/],
      [['root', 'phase0.Fork', 'x', '--preset', 'goerli'], /^ssztree: unknown preset "goerli"/],
      [['root', 'phase0.Fork', join(tmp.dir, 'nope.ssz')], /^ssztree: cannot read .*nope\.ssz: no such file\n$/],
    ];
    for (const [argv, message] of cases) {
      const r = await run(argv);
      expect({ argv, code: r.code }).toEqual({ argv, code: 2 });
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });

  it('--debug adds the stack', async () => {
    const r = await run(['root', 'phase0.Fork', tmp.write('fork.ssz', new Uint8Array(3)), '--debug']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^ssztree: .*fork\.ssz: 3 bytes, but a phase0\.Fork is always 16 bytes\n/);
    expect(r.err).toMatch(/\n\s+at /);
  });

  it('an internal error points to --debug, and under --debug gives the stack instead of the pointer', async () => {
    // A real fault outside the library: the output stream fails.
    const failing = (argv: string[]) => {
      let err = '';
      return main(argv, {
        writeOut: () => {
          throw new Error('EIO: i/o error, write');
        },
        writeErr: (t) => void (err += t),
        readStdin: async () => new Uint8Array(0),
        stdoutIsTTY: false,
        stderrIsTTY: false,
        cwd: process.cwd(),
      }).then((code) => ({ code, err }));
    };
    const plain = await failing(['types']);
    expect(plain).toEqual({ code: 2, err: 'ssztree: internal error: Error: EIO: i/o error, write (run with --debug for the stack)\n' });
    const debug = await failing(['types', '--debug']);
    expect(debug.code).toBe(2);
    expect(debug.err.split('\n')[0]).toBe('ssztree: internal error: Error: EIO: i/o error, write');
    expect(debug.err).not.toMatch(/--debug/);
    expect(debug.err).toMatch(/\n\s+at /);
  });

  it('encode refuses to write binary to a terminal', async () => {
    const r = await run(['encode', 'phase0.Checkpoint', tmp.write('c.json', `{"epoch":"1","root":"0x${'00'.repeat(32)}"}`)], { stdoutIsTTY: true });
    expect([r.code, r.out]).toEqual([2, '']);
    expect(r.err).toMatch(/refusing to write binary SSZ to a terminal/);
  });
});

describe('stdin, formats, progress, types', () => {
  it('root of stdin: raw SSZ, framed snappy and JSON detected by content', async () => {
    const dir = caseDir('Attestation');
    const bytes = readBytes(join(dir, 'serialized.ssz'));
    const expected = `${readRoot(join(dir, 'roots.yaml'))}\n`;
    const json = (await run(['decode', 'phase0.Attestation', join(dir, 'serialized.ssz'), ...M])).out;
    for (const stdin of [bytes, encodeFramed(bytes), json]) {
      const r = await run(['root', 'phase0.Attestation', '-', ...M], { stdin });
      expect([r.code, r.out, r.err]).toEqual([0, expected, '']);
    }
    expect((await run(['root', 'phase0.Attestation', '-', '--format', 'json', ...M], { stdin: json })).out).toBe(expected);
  });

  it('--progress draws on stderr and clears it; without a TTY nothing is drawn', async () => {
    const file = join(caseDir('BeaconState'), 'serialized.ssz');
    const plain = await run(['root', 'phase0.BeaconState', file, ...M], { stderrIsTTY: false });
    expect(plain.err).toBe('');
    const forced = await run(['root', 'phase0.BeaconState', file, '--progress', ...M]);
    expect(forced.out).toBe(plain.out);
    expect(forced.err).toMatch(/reading .*serialized\.ssz/);
    expect(forced.err).toMatch(/hashing done in/);
    expect(forced.err.endsWith('\r\x1b[K')).toBe(true);
    // A small file on a TTY stays quiet (the bar is for inputs over 16 MB).
    expect((await run(['root', 'phase0.BeaconState', file, ...M], { stderrIsTTY: true })).err).toBe('');
  });

  it('--help lists every command; no command is a usage error', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const c of ['root', 'decode', 'encode', 'proof', 'verify-proof', 'diff', 'types']) expect(help.out).toContain(`ssztree ${c}`);
    expect((await run([])).code).toBe(2);
  });

  it('types lists <fork>.<Container> names per preset, filtered by fork', async () => {
    const all = await run(['types']);
    expect(all.code).toBe(0);
    const names = all.out.trim().split('\n');
    expect(names).toContain('electra.BeaconState');
    expect(names).toContain('deneb.SignedBeaconBlock');
    expect(names).toContain('phase0.Validator');
    const electra = (await run(['types', 'electra', '--preset', 'minimal'])).out.trim().split('\n');
    expect(electra.every((n) => n.startsWith('electra.'))).toBe(true);
    expect(electra).toContain('electra.PendingDeposit');
    expect((await run(['types', '--fork', 'deneb'])).out.trim().split('\n').every((n) => n.startsWith('deneb.'))).toBe(true);
    expect((await run(['types', 'shanghai'])).err).toMatch(/^ssztree: unknown fork "shanghai" \(known: phase0, altair/);
  });

  it('the preset changes the type: a minimal state does not decode as mainnet', async () => {
    const r = await run(['root', 'phase0.BeaconState', join(caseDir('BeaconState'), 'serialized.ssz')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/: \d+ bytes, but a phase0\.BeaconState is at least \d+ bytes \(its size and layout fit phase0.BeaconState with --preset minimal\)\n$/);
    // The tree path (proof) gives the same hint; a file that fits neither preset gets none.
    const p = await run(['proof', 'phase0.BeaconState', join(caseDir('BeaconState'), 'serialized.ssz'), 'slot']);
    expect(p.err).toMatch(/\(its size and layout fit phase0.BeaconState with --preset minimal\)\n$/);
    const neither = await run(['root', 'phase0.BeaconState', tmp.write('tiny.ssz', new Uint8Array(10))]);
    expect(neither.err).toMatch(/is at least \d+ bytes\n$/);
    // Zeros of a minimal state's least size: refused on the first offset, and no hint (they fit mainnet's size bounds no better).
    const zeros = await run(['root', 'phase0.BeaconState', tmp.write('zeros.ssz', new Uint8Array(minimal.phase0.BeaconState.minSize)), '--preset', 'minimal']);
    expect(zeros.err).toMatch(/\(BAD_OFFSET\) at BeaconState\.historical_roots, byte offset \d+\n$/);
  });
});
