/**
 * Running the tools the package checks drive: a child process whose output is
 * kept and shown only when it fails (so CI's log stays a list of what passed),
 * and the pnpm this repository pins, however it is reachable here.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** Runs `command args` and returns its stdout; throws with its output when it exits non-zero. */
export function run(command, args, { cwd = REPO, env = {}, input, allowFailure = false } = {}) {
  const result = spawnSync(command, args, { cwd, env: { ...process.env, ...env }, input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.error) throw result.error;
  if (result.status !== 0 && !allowFailure) {
    const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-60).join('\n');
    throw new Error(`${[command, ...args].join(' ')} (in ${cwd}) exited ${result.status ?? result.signal}:\n${output}`);
  }
  return allowFailure ? result : result.stdout;
}

/** `[command, ...leading args]` for the pinned pnpm: the one running us, else pnpm on PATH if it is that version, else npx. */
export function pnpmCommand() {
  const pinned = JSON.parse(readFileSync(`${REPO}/package.json`, 'utf8')).packageManager.split('@')[1].split('+')[0];
  const execPath = process.env.npm_execpath ?? '';
  if ((process.env.npm_config_user_agent ?? '').startsWith(`pnpm/${pinned} `) && /\.[cm]?js$/.test(execPath)) return [process.execPath, execPath];
  const onPath = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (onPath.status === 0 && onPath.stdout.trim() === pinned) return ['pnpm'];
  return ['npx', '--yes', `pnpm@${pinned}`];
}

let last = Date.now();

/** Prints one progress line of the checks, with the seconds since the previous one. */
export function step(message) {
  const now = Date.now();
  console.log(`check-packages: ${message} (${((now - last) / 1000).toFixed(1)} s)`);
  last = now;
}
