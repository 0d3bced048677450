/**
 * The demo (`npm run demo`, demo/main.ts) in a child process at a small
 * size, with `--compare`: it must exit 0, print the timing table, agree with
 * @chainsafe/ssz after every block and epoch, and end with an incremental
 * root equal to a full rehash of the final state. Output is piped, so the
 * demo prints plain lines (no ANSI redraws). The peer's process is driven
 * directly too: same roots as ours, and a plan not the parent's is an error.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toHex } from '@ssztree/types';
import { RowProcess } from '../bench/lib/rowProcess.js';
import { applyBlock, type StateLike } from '../demo/apply.js';
import { parseOptions, UsageError } from '../demo/options.js';
import { Rng } from '../demo/rng.js';
import { generateState, START_SLOT, STATE_TYPES } from '../demo/state.js';
import { planBlock, planSeed } from '../demo/workload.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function demo(args: string[], nodeArgs: string[] = []) {
  return spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', ...nodeArgs, '--conditions=source', 'demo/main.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 55_000,
  });
}

interface Summary {
  options: { validators: number; blocks: number; epochs: number };
  blocks: { commitRoot: { p50: number; p95: number; n: number } };
  epochs: { commitRoot: { n: number } };
  roots: { incremental: string; fullRehash: string; match: boolean };
  compare: { ran: boolean; checks: number; agreed: number };
  speedUp: { block: number };
  memory: { stateBytesPerValidator: number };
  failures: string[];
}

describe('demo', () => {
  it('--fork electra: the electra state, roots agree with a full rehash', { timeout: 120_000 }, () => {
    const child = demo(['--validators', '256', '--blocks', '2', '--epochs', '0', '--fork', 'electra', '--json']);
    expect(child.status).toBe(0);
    expect(child.stdout).toContain('mainnet electra BeaconState, 256 validators');
    const lines = child.stdout.trim().split('\n');
    expect(JSON.parse(lines[lines.length - 1] as string)).toMatchObject({ failures: [], roots: { match: true } });
  });

  it('--fork gloas --compare: the progressive state, roots agree with @chainsafe/ssz after every block and epoch', { timeout: 120_000 }, () => {
    const child = demo(['--validators', '300', '--blocks', '2', '--epochs', '1', '--fork', 'gloas', '--compare', '--json']);
    expect(child.status).toBe(0);
    expect(child.stdout).toContain('mainnet gloas BeaconState, 300 validators');
    const lines = child.stdout.trim().split('\n');
    expect(JSON.parse(lines[lines.length - 1] as string)).toMatchObject({ failures: [], roots: { match: true }, compare: { ran: true, checks: 3, agreed: 3 } });
  });

  it('--upgrade-at: a fulu state upgraded to gloas between blocks, its time and sharing printed, the final root a full rehash’s', { timeout: 120_000 }, () => {
    const child = demo(['--validators', '300', '--blocks', '3', '--epochs', '1', '--upgrade-at', '2', '--json']);
    expect(child.status).toBe(0);
    expect(child.stdout).toMatch(/upgrade fulu → gloas before block 2: [0-9.]+ ms \(upgradeState \+ root\), [0-9.]+% of the gloas tree shared/);
    const lines = child.stdout.trim().split('\n');
    const summary = JSON.parse(lines[lines.length - 1] as string) as { failures: string[]; roots: { match: boolean }; upgrade: { block: number; ms: number } };
    expect(summary).toMatchObject({ failures: [], roots: { match: true }, upgrade: { block: 2 } });
    expect(summary.upgrade.ms).toBeGreaterThan(0);
  });

  it('1024 validators, 4 blocks, 1 epoch, --compare: roots agree with @chainsafe/ssz and with a full rehash', { timeout: 120_000 }, () => {
    const child = demo(['--validators', '1024', '--blocks', '4', '--epochs', '1', '--seed', '7', '--compare', '--json']);
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const out = child.stdout;
    const lines = out.trim().split('\n');
    const summary = JSON.parse(lines[lines.length - 1] as string) as Summary;
    expect(summary.failures).toEqual([]);
    expect(summary.options).toMatchObject({ validators: 1024, blocks: 4, epochs: 1 });
    // Every block and the epoch compared with ChainSafe, all agreeing.
    expect(summary.compare).toMatchObject({ ran: true, checks: 5, agreed: 5 });
    expect(out).toContain('@chainsafe/ssz ViewDU: roots agree after 5 of 5 blocks and epochs');
    // The incremental root equals a full rehash of the final value.
    expect(summary.roots.match).toBe(true);
    expect(summary.roots.incremental).toMatch(/^0x[0-9a-f]{64}$/);
    expect(summary.roots.fullRehash).toBe(summary.roots.incremental);
    expect(out).toContain('equals the incremental root');
    // The table: a plain line per block and epoch, then the p50/p95 summary.
    expect(lines.filter((l) => /^block \d+\/4 slot \d+: writes [\d.]+ ms, commit\+root [\d.]+ ms/.test(l))).toHaveLength(4);
    expect(lines.filter((l) => l.startsWith('epoch 1/1 '))).toHaveLength(1);
    expect(out).toMatch(/ms\s+last\s+p50\s+p95\s+n/);
    expect(out).toMatch(/block: commit \+ root\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+4/);
    expect(out).toMatch(/@chainsafe\/ssz block: commit \+ root\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+4/);
    expect(out).not.toContain('\x1b[');
    expect(summary.blocks.commitRoot.n).toBe(4);
    expect(summary.epochs.commitRoot.n).toBe(1);
    expect(summary.blocks.commitRoot.p95).toBeGreaterThanOrEqual(summary.blocks.commitRoot.p50);
    expect(summary.speedUp.block).toBeGreaterThan(0);
    expect(summary.memory.stateBytesPerValidator).toBeGreaterThan(0);
  });

  it('--in-place --compare: the head takes each block itself and commits in place; roots agree with @chainsafe/ssz and a full rehash', { timeout: 120_000 }, () => {
    const child = demo(['--validators', '1024', '--blocks', '4', '--epochs', '1', '--seed', '7', '--compare', '--in-place', '--json']);
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const summary = JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as Summary & { inPlaceCommits: number };
    expect(summary.failures).toEqual([]);
    expect(summary.options).toMatchObject({ inPlace: true });
    expect(summary.compare).toMatchObject({ ran: true, checks: 5, agreed: 5 });
    expect(summary.roots.fullRehash).toBe(summary.roots.incremental);
    // The first block copies (the kept initial state shares that version); the other 3 blocks and the epoch go in place.
    expect(summary.inPlaceCommits).toBe(4);
    // Same seed as the test above: the same blocks give the same roots either way.
    const cloned = demo(['--validators', '1024', '--blocks', '4', '--epochs', '1', '--seed', '7', '--json']);
    expect((JSON.parse(cloned.stdout.trim().split('\n').at(-1) as string) as Summary & { inPlaceCommits: number }).roots.incremental).toBe(summary.roots.incremental);
    expect((JSON.parse(cloned.stdout.trim().split('\n').at(-1) as string) as Summary & { inPlaceCommits: number }).inPlaceCommits).toBe(0);
  });

  it('every figure says what it measures: each speed-up its denominator and that time, each memory figure its state and part', { timeout: 120_000 }, () => {
    const child = demo(['--validators', '1024', '--blocks', '4', '--epochs', '1', '--seed', '7', '--json']);
    expect(child.status).toBe(0);
    const lines = child.stdout.trim().split('\n').slice(0, -1); // the JSON summary aside
    const speedUps = lines.filter((l) => /\d×/.test(l));
    expect(speedUps.length).toBeGreaterThanOrEqual(3); // the live line, block and epoch at the end
    for (const l of speedUps) {
      // Every "N×" reads "N× [faster ]than <what> (<time> ms)".
      const figures = l.match(/[\d.]+×/g) ?? [];
      const named = l.match(/[\d.]+× (?:faster )?than .+? \([\d.]+ ms\)/g) ?? [];
      expect(named.length, l).toBe(figures.length);
    }
    const perValidator = lines.filter((l) => l.includes('B/validator'));
    expect(perValidator.length).toBeGreaterThanOrEqual(4);
    // Which memory: a state's tree (which state), or the whole process.
    for (const l of perValidator) expect(l, l).toMatch(/memory of the (loaded|final) state: its tree|whole process/);
    // The end of the run restates the live line's figure with the same denominator.
    const summary = JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as { speedUp: { block: number; denominators: Record<string, number> } };
    const live = /block commit\+root p50 [\d.]+ ms, (\d+)× faster than hashTreeRoot\(value\) at start/.exec(lines.find((l) => l.startsWith('  done'))!);
    const final = /block commit\+root p50 [\d.]+ ms: (\d+)× faster than hashTreeRoot\(value\) of the whole state at start/.exec(lines.find((l) => l.startsWith('  block commit+root p50'))!);
    expect(live?.[1]).toBe(final?.[1]);
    expect(Number(final?.[1])).toBe(Math.round(summary.speedUp.block));
    expect(Object.keys(summary.speedUp.denominators).sort()).toEqual(['fromBytesMs', 'fullRehashAtEndMs', 'fullRehashAtStartMs']);
  });

  it('--compare without @chainsafe/ssz installed: one line says so, the demo runs alone', { timeout: 120_000 }, () => {
    const child = demo(['--validators', '256', '--blocks', '2', '--epochs', '1', '--compare', '--json'], ['--import', './test/demo/without-chainsafe.mjs']);
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const notes = child.stdout.split('\n').filter((l) => l.includes('not installed'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('@chainsafe/ssz is not installed');
    const summary = JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as Summary & { compare: { missing: string | null } };
    expect(summary.compare).toMatchObject({ ran: false, checks: 0 });
    expect(summary.compare.missing).toContain('Cannot find package');
    expect(summary.roots.match).toBe(true);
    expect(child.stdout).not.toContain('@chainsafe/ssz block');
  });

  it('same seed, same roots; another seed, another state', { timeout: 120_000 }, () => {
    const a = demo(['--validators', '256', '--blocks', '2', '--epochs', '1', '--seed', '3', '--json']);
    const b = demo(['--validators', '256', '--blocks', '2', '--epochs', '1', '--seed', '3', '--json']);
    const c = demo(['--validators', '256', '--blocks', '2', '--epochs', '1', '--seed', '4', '--json']);
    const rootOf = (r: ReturnType<typeof demo>) => {
      expect(r.status).toBe(0);
      return (JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as Summary).roots.incremental;
    };
    expect(rootOf(a)).toBe(rootOf(b));
    expect(rootOf(c)).not.toBe(rootOf(a));
  });

  it('--help prints the usage; bad options exit 2 with a message', { timeout: 120_000 }, () => {
    const help = demo(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--validators N');
    expect(help.stdout).toContain('--compare');
    const bad = demo(['--validators', 'lots']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--validators needs an integer');
    const unknown = demo(['--fast']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown option --fast');
  });
});

describe('demo --compare peer process (demo/peerRow.ts)', () => {
  it('loads the state from the file, applies the parent\'s plans to the same roots as ours, and rejects a plan that is not the parent\'s', { timeout: 120_000 }, async () => {
    const n = 256;
    const seed = 5;
    const State = STATE_TYPES.gloas;
    const bytes = State.serialize(generateState(n, seed, () => {}, 'gloas') as never);
    const dir = mkdtempSync(join(tmpdir(), 'ssztree-demo-test-'));
    const file = join(dir, 'state.ssz');
    writeFileSync(file, bytes);
    const peer = new RowProcess(fileURLToPath(new URL('../demo/peerRow.ts', import.meta.url)), 'gloas', [], [String(n), String(seed), file]);
    try {
      const ours = State.deserializeToView(bytes);
      const root0 = ours.hashTreeRoot();
      const load = await peer.runAll(['load']);
      expect(load.kind).toBe('result');
      expect(load.kind === 'result' && load.out?.[0]?.split(' ')[0]).toBe(toHex(root0));
      // The parent's first block plan, drawn as demo/main.ts draws it; ours applied to our view.
      const rng = new Rng(planSeed(seed));
      const plan = planBlock(rng, n, START_SLOT + 1);
      const next = ours.clone();
      applyBlock(next as unknown as StateLike, plan, root0);
      const step = await peer.runAll([`block ${plan.slot} ${toHex(plan.randaoMix)} ${toHex(root0)}`, 'root']);
      expect(step.kind).toBe('result');
      if (step.kind !== 'result') return;
      expect(step.ms).toHaveLength(2);
      expect(step.out?.[1]).toBe(toHex(next.hashTreeRoot()));
      // The next plan drawn there is not this one again: its fingerprint does not match, an error.
      const wrong = await peer.runAll([`block ${plan.slot + 1n} ${toHex(plan.randaoMix)} ${toHex(root0)}`, 'root']);
      expect(wrong.kind).toBe('error');
      expect(wrong.kind === 'error' && wrong.message).toContain("differs from the parent's");
    } finally {
      peer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('demo options', () => {
  it('defaults: 2^20 validators, 64 blocks, 2 epochs', () => {
    expect(parseOptions([])).toMatchObject({ validators: 2 ** 20, blocks: 64, epochs: 2, seed: 1, compare: false, json: false, fork: 'fulu' });
  });
  it('--fork: fulu (the default), electra or gloas; --upgrade-at only from fulu, within the blocks, without --compare', () => {
    expect(parseOptions(['--fork', 'electra']).fork).toBe('electra');
    expect(parseOptions(['--fork', 'gloas']).fork).toBe('gloas');
    expect(() => parseOptions(['--fork', 'heze'])).toThrowError(UsageError);
    expect(parseOptions(['--upgrade-at', '3', '--blocks', '8']).upgradeAt).toBe(3);
    expect(parseOptions([]).upgradeAt).toBe(0);
    for (const argv of [['--upgrade-at', '3', '--fork', 'gloas'], ['--upgrade-at', '9', '--blocks', '8'], ['--upgrade-at', '2', '--compare'], ['--upgrade-at', '0']]) {
      expect(() => parseOptions(argv), argv.join(' ')).toThrowError(UsageError);
    }
  });
  it('the default epoch count shrinks with --blocks; an explicit one must fit', () => {
    expect(parseOptions(['--blocks', '1']).epochs).toBe(1);
    expect(parseOptions(['--blocks', '0']).epochs).toBe(0);
    expect(() => parseOptions(['--blocks', '1', '--epochs', '2'])).toThrowError(UsageError);
  });
  it('rejects bad numbers, unknown flags and sizes that do not fit in memory', () => {
    for (const argv of [['--validators', '0'], ['--validators', '1.5'], ['--validators'], ['--blocks', '-1'], ['--seed', 'x'], ['--validators', String(2 ** 20 + 1)], ['--nope']]) {
      expect(() => parseOptions(argv), argv.join(' ')).toThrowError(UsageError);
    }
    expect(parseOptions(['--validators', String(2 ** 20), '--compare']).validators).toBe(2 ** 20);
  });
});
