/**
 * What `listHashers()` says when the native module is absent, end to end:
 * scripts/build-native.mjs runs in a copy of the package's layout (so this
 * repository's own build is never touched), leaves its status file, and
 * `notBuiltMessage` turns it into the reason and the command to run.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { notBuiltMessage, readBuildStatus } from '../src/backends/nativeStatus.js';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A fresh copy of what the published package holds for the native build. */
function packageCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ssztree-native-'));
  dirs.push(dir);
  for (const file of ['scripts/build-native.mjs', 'native/sha256x16.c']) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(PACKAGE, file), join(dir, file));
  }
  return dir;
}

const moduleUrl = (dir: string) => pathToFileURL(join(dir, 'native/build/sha256x16.node'));

function build(dir: string, env: Record<string, string>) {
  const r = spawnSync(process.execPath, [join(dir, 'scripts/build-native.mjs')], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { code: r.status, lines: r.stdout.trim().split('\n').filter((l) => l !== '') };
}

/** What scripts/build-native.mjs needs to compile here. */
const canCompile =
  process.arch === 'x64' &&
  (process.platform === 'linux' || process.platform === 'darwin') &&
  existsSync(join(dirname(process.execPath), '..', 'include', 'node', 'node_api.h')) &&
  spawnSync(process.env.CC || 'cc', ['--version']).status === 0;

describe('the native build status', () => {
  it.runIf(process.arch === 'x64' && process.platform === 'linux')('without a compiler: one line, exit 0, and the reason with the command to run', () => {
    const dir = packageCopy();
    const r = build(dir, { CC: '/nonexistent/cc' });
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(1);
    const headers = existsSync(join(dirname(process.execPath), '..', 'include', 'node', 'node_api.h'));
    const status = readBuildStatus(moduleUrl(dir));
    expect(status?.code).toBe(headers ? 'no-compiler' : 'no-headers');
    const message = notBuiltMessage([moduleUrl(dir)]);
    expect(message).toBe(
      headers
        ? `avx512: native module not built (no C compiler (/nonexistent/cc)); install a C compiler (gcc or clang), then run: node ${join(dir, 'scripts/build-native.mjs')}`
        : `avx512: native module not built (${status?.reason}); install Node's development headers, then run: node ${join(dir, 'scripts/build-native.mjs')}`,
    );
  });

  it('no status file: the install script never ran, and the command says how to build', () => {
    const dir = packageCopy();
    expect(readBuildStatus(moduleUrl(dir))).toBeUndefined();
    expect(notBuiltMessage([moduleUrl(dir)])).toBe(
      `avx512: native module not built (the package's install script has not run here; pnpm runs it only for allowed builds); to build it: node ${join(dir, 'scripts/build-native.mjs')}`,
    );
  });

  it('the place of the package is found among the candidates; the command is relative inside the working directory', () => {
    const dir = packageCopy();
    const elsewhere = pathToFileURL(join(dir, 'no/such/place/sha256x16.node'));
    const message = notBuiltMessage([elsewhere, moduleUrl(dir)], {
      fs: { existsSync, readFileSync },
      path: { relative: (from, to) => (to.startsWith(`${from}/`) ? to.slice(from.length + 1) : `../${to}`), isAbsolute: (p) => p.startsWith('/') },
      url: { fileURLToPath },
      cwd: () => dir,
    });
    expect(message).toMatch(/; to build it: node scripts\/build-native\.mjs$/);
  });

  it('each recorded failure keeps its reason; another platform offers no command', () => {
    const dir = packageCopy();
    const record = (code: string, reason: string) => {
      mkdirSync(join(dir, 'native/build'), { recursive: true });
      writeFileSync(join(dir, 'native/build/status.json'), JSON.stringify({ code, reason }));
      return notBuiltMessage([moduleUrl(dir)]);
    };
    expect(record('platform', 'arm64 host; the kernel is x86-64 AVX-512')).toBe('avx512: native module not built (arm64 host; the kernel is x86-64 AVX-512)');
    expect(record('check-failed', 'the built module failed its check and was removed: wrong digests for 7 messages')).toMatch(
      /^avx512: native module not built \(the built module failed its check and was removed: wrong digests for 7 messages\); to retry: node .*build-native\.mjs$/,
    );
    expect(record('built', 'built and checked against node:crypto')).toMatch(/^avx512: native module not built \(the module recorded as built is gone\); to rebuild it: node /);
    writeFileSync(join(dir, 'native/build/status.json'), '{ not json');
    expect(readBuildStatus(moduleUrl(dir))).toBeUndefined();
  });

  it.runIf(canCompile)('where it can compile: builds, records `built`, and the module loads', () => {
    const dir = packageCopy();
    const r = build(dir, {});
    expect(r.code).toBe(0);
    expect(r.lines).toHaveLength(1);
    expect(readBuildStatus(moduleUrl(dir))?.code).toBe('built');
    const native = createRequire(import.meta.url)(fileURLToPath(moduleUrl(dir))) as { supported(): boolean };
    expect(typeof native.supported()).toBe('boolean');
  });
});
