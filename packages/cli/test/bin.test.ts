/**
 * The `ssztree` command inside the repository, as a contributor runs it after
 * `pnpm install` and nothing else: the bin shim (bin/ssztree.mjs) runs the
 * TypeScript source, from the package and through `npx ssztree` at the root
 * or in a subfolder, with stdin, stdout and the exit code passed through.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mainnet } from '@ssztree/types/consensus';

const SHIM = fileURLToPath(new URL('../bin/ssztree.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const checkpoint = { epoch: '7', root: `0x${'ab'.repeat(32)}` };
const T = mainnet.phase0.Checkpoint;
const expectedRoot = `0x${Buffer.from(T.hashTreeRoot(T.fromJson(checkpoint))).toString('hex')}`;

function spawn(command: string, args: string[], cwd: string, input?: string) {
  const r = spawnSync(command, args, { cwd, input, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('ssztree in the repository', () => {
  it('the shim runs the source: root of a checkpoint on stdin, exit 0', () => {
    const r = spawn(process.execPath, [SHIM, 'root', 'phase0.Checkpoint', '-'], ROOT, JSON.stringify(checkpoint));
    expect([r.code, r.out.trim(), r.err]).toEqual([0, expectedRoot, '']);
  });

  it('the exit code and stderr are the command\'s own', () => {
    const r = spawn(process.execPath, [SHIM, 'no-such-command'], ROOT);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^ssztree: unknown command "no-such-command"\n/);
  });

  it('pnpm install links it: `npx ssztree` at the root and in a subfolder, without a build', () => {
    expect(existsSync(`${ROOT}node_modules/.bin/ssztree`)).toBe(true);
    const help = spawn('npx', ['ssztree', '--help'], ROOT);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/ssztree root <Type> <file>/);
    const nested = spawn('npx', ['ssztree', 'root', 'phase0.Checkpoint', '-'], `${ROOT}test`, JSON.stringify(checkpoint));
    expect([nested.code, nested.out.trim()]).toEqual([0, expectedRoot]);
  });
});
