/**
 * Locates the official spec-test vectors (downloading them on first use via
 * scripts/fetch-spec-tests.mjs, run as a child process so a failure to
 * download fails the suite instead of skipping it) and reads one case.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const SCRIPT = fileURLToPath(new URL('../../scripts/fetch-spec-tests.mjs', import.meta.url));

/** The directory holding `tests/`; throws when the vectors cannot be fetched. */
export function specTestsDir(): string {
  const out = execFileSync(process.execPath, [SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const dir = out.trim().split('\n').pop() ?? '';
  if (!existsSync(join(dir, 'tests'))) throw new Error(`spec tests not found in ${dir}`);
  return dir;
}

export function listDirs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** YAML with integers as bigints, so uint64 values above 2^53 stay exact. */
export function readYaml(file: string): unknown {
  return parse(readFileSync(file, 'utf8'), { intAsBigInt: true });
}

export function readBytes(file: string): Uint8Array {
  const buf = readFileSync(file);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

export function readRoot(file: string): string {
  const meta = readYaml(file) as { root?: unknown };
  if (typeof meta.root !== 'string') throw new Error(`no root in ${file}`);
  return meta.root;
}
