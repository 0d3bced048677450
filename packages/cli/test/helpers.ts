/**
 * Test helpers: run `main` in-process with captured streams, and locate the
 * spec vectors (fetched on first use, like test/spec does).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { main, type CliIo } from '../src/index.js';

export interface RunResult {
  readonly code: number;
  /** stdout as text */
  readonly out: string;
  /** stdout as bytes (what `encode` writes) */
  readonly bytes: Uint8Array;
  readonly err: string;
}

export interface RunOptions {
  readonly stdin?: Uint8Array | string;
  readonly stdoutIsTTY?: boolean;
  readonly stderrIsTTY?: boolean;
  readonly cwd?: string;
}

export async function run(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const out: Uint8Array[] = [];
  let err = '';
  const io: CliIo = {
    writeOut: (d) => out.push(typeof d === 'string' ? new TextEncoder().encode(d) : d.slice()),
    writeErr: (t) => {
      err += t;
    },
    readStdin: async () => (typeof options.stdin === 'string' ? new TextEncoder().encode(options.stdin) : (options.stdin ?? new Uint8Array(0))),
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    cwd: options.cwd ?? process.cwd(),
  };
  const code = await main(argv, io);
  const bytes = new Uint8Array(Buffer.concat(out));
  return { code, out: new TextDecoder().decode(bytes), bytes, err };
}

/** A fresh temporary directory and a function writing files into it. */
export function tempDir(): { dir: string; write(name: string, data: Uint8Array | string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'ssztree-cli-'));
  return {
    dir,
    write(name, data) {
      const path = join(dir, name);
      writeFileSync(path, data);
      return path;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const FETCH_SCRIPT = fileURLToPath(new URL('../../../scripts/fetch-spec-tests.mjs', import.meta.url));

/**
 * The spec vectors' directory, fetched on first use by the repository's
 * script (as test/spec does; a failed download fails the suite, no skip).
 */
export function specTestsDir(): string {
  const out = execFileSync(process.execPath, [FETCH_SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const dir = out.trim().split('\n').pop() ?? '';
  if (!existsSync(join(dir, 'tests'))) throw new Error(`spec tests not found in ${dir}`);
  return dir;
}

export function readBytes(file: string): Uint8Array {
  const buf = readFileSync(file);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** YAML with integers as bigints, so uint64 values above 2^53 stay exact. */
export function readYaml(file: string): unknown {
  return parse(readFileSync(file, 'utf8'), { intAsBigInt: true });
}

export function readRoot(file: string): string {
  const meta = readYaml(file) as { root?: unknown };
  if (typeof meta.root !== 'string') throw new Error(`no root in ${file}`);
  return meta.root;
}
