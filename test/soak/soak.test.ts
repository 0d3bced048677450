/**
 * CI slice of the soak test (issue #8, docs/RELIABILITY.md "Soak test"):
 * the harness in a child process with --expose-gc (vitest's workers have no
 * gc), on 2^12 validators and 320 blocks; its verdicts are asserted here.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

interface SoakResult {
  options: { validators: number; blocks: number };
  epochs: number;
  bound: { baseMB: number; boundMB: number; endMB: number; storeEndMB: number; storeBoundMB: number };
  trend: { processFirstMB: number; processLastMB: number; nodesFirst: number; nodesLast: number; toleranceMB: number };
  memoryOk: boolean;
  rootsOk: boolean;
  rootsChecked: number;
  samples: unknown[];
  failures: string[];
  pass: boolean;
}

describe('soak (CI slice)', () => {
  it('2^12 validators, 320 blocks, 10 epochs, forks kept: memory within the bound, flat, kept roots re-verified', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const args = ['--validators', '4096', '--blocks', '320', '--epoch-every', '32', '--keep-every', '16', '--seed', '3', '--sample-every', '8', '--json'];
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--conditions=source', 'test/soak/soak.ts', ...args], {
      cwd: root,
      encoding: 'utf8',
      timeout: 50_000,
    });
    const lines = child.stdout.trim().split('\n');
    const result = JSON.parse(lines[lines.length - 1] as string) as SoakResult;
    expect(result.failures).toEqual([]);
    expect(result.options).toMatchObject({ validators: 4096, blocks: 320 });
    expect(result.epochs).toBe(10);
    // Memory: the end sample within the stated bound, no upward trend.
    expect(result.memoryOk).toBe(true);
    expect(result.samples.length).toBeGreaterThanOrEqual(9);
    expect(result.bound.endMB).toBeLessThanOrEqual(result.bound.boundMB);
    expect(result.bound.storeEndMB).toBeLessThanOrEqual(result.bound.storeBoundMB);
    expect(result.trend.processLastMB).toBeLessThanOrEqual(result.trend.processFirstMB + result.trend.toleranceMB);
    expect(result.trend.nodesLast).toBeLessThanOrEqual(result.trend.nodesFirst * 1.1);
    // Roots: 8 forks + the head, each equal to its recorded root and to a full recomputation.
    expect(result.rootsOk).toBe(true);
    expect(result.rootsChecked).toBe(9);
    expect(result.pass).toBe(true);
    expect(child.status).toBe(0);
  });

  it('--in-place: the head takes every block itself, commits in place between the forks it keeps; memory flat, kept roots re-verified', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const args = ['--validators', '4096', '--blocks', '320', '--epoch-every', '32', '--keep-every', '16', '--seed', '4', '--sample-every', '8', '--in-place', '--json'];
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--conditions=source', 'test/soak/soak.ts', ...args], {
      cwd: root,
      encoding: 'utf8',
      timeout: 50_000,
    });
    const lines = child.stdout.trim().split('\n');
    const result = JSON.parse(lines[lines.length - 1] as string) as SoakResult & { inPlaceBlocks: number };
    expect(result.failures).toEqual([]);
    expect(result.options).toMatchObject({ validators: 4096, blocks: 320, inPlace: true });
    // Every block went in place but the one right after each kept fork (a fork every 16 blocks, the
    // last at block 320 with no block after it: 19 commits that must copy).
    expect(result.inPlaceBlocks).toBe(320 - (320 / 16 - 1));
    expect(result.memoryOk).toBe(true);
    expect(result.trend.nodesLast).toBeLessThanOrEqual(result.trend.nodesFirst * 1.1);
    expect(result.rootsOk).toBe(true);
    expect(result.rootsChecked).toBe(9);
    expect(child.status).toBe(0);
  });

  it('the harness fails (exit 1) when its verdict fails: too few blocks for a trend', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--conditions=source', 'test/soak/soak.ts', '--validators', '256', '--blocks', '20', '--keep-every', '4', '--json'],
      { cwd: root, encoding: 'utf8', timeout: 30_000 },
    );
    const lines = child.stdout.trim().split('\n');
    const result = JSON.parse(lines[lines.length - 1] as string) as SoakResult;
    expect(result.pass).toBe(false);
    expect(result.rootsOk).toBe(true);
    expect(child.status).toBe(1);
  });
});
