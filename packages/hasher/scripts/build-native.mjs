// Compiles native/sha256x16.c into native/build/sha256x16.node, the native
// hashing module (kernels `shani`, SHA-NI, and `avx512`), when this machine can: an x86-64 Linux or macOS host with
// a C compiler (`$CC`, else `cc`) and Node's own Node-API headers
// (<node prefix>/include/node/node_api.h, shipped with every Node install).
//
// It is the package's `install` script, so it runs when a project installs
// @ssztree/hasher (npm runs it; pnpm 10 once the project allows the package's
// build), when this repository's `pnpm install` runs, and in the package build.
//
// The backend is optional, like @chainsafe/hashtree: where it cannot be built
// this prints one line saying why and exits 0, and the hasher uses the next
// backend. So no install or build ever fails for want of a compiler. A build
// that compiles but fails its known-answer check is deleted, so a broken
// binary is never left for the loader to find.
//
// Every run that decides something leaves native/build/status.json: what
// happened (`code`) and why, in one sentence (`reason`). The loader
// (src/backends/nativeStatus.ts) reads it when there is no module, so
// `listHashers()` names the real cause (no compiler, no headers, a failed
// compile or check, another platform) instead of guessing; no file at all
// means this script never ran (e.g. `--ignore-scripts`, or pnpm not yet
// allowed to run it).
//
//   node scripts/build-native.mjs           # build if missing or older than the source
//   node scripts/build-native.mjs --force   # rebuild
//   node scripts/build-native.mjs --strict  # exit 1 instead of skipping (to check a build host)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'native/sha256x16.c');
const output = join(root, 'native/build/sha256x16.node');
const statusFile = join(root, 'native/build/status.json');
const force = process.argv.includes('--force');
const strict = process.argv.includes('--strict');

/**
 * Records the outcome for the loader. Best effort: a read-only install
 * directory must not turn a skipped optional build into a failed install.
 */
function record(code, reason) {
  try {
    mkdirSync(dirname(statusFile), { recursive: true });
    const status = { code, reason, node: process.version, cc: process.env.CC || 'cc', date: new Date().toISOString() };
    writeFileSync(statusFile, `${JSON.stringify(status, null, 2)}\n`);
  } catch {
    // The loader then reports the module as never built, which is also true.
  }
}

function skip(code, reason) {
  record(code, reason);
  console.log(`@ssztree/hasher: native hashing module (shani, avx512) not built (${reason}); the hasher uses the next backend`);
  process.exit(strict ? 1 : 0);
}

if (process.arch !== 'x64') skip('platform', `${process.arch} host; the kernels are x86-64 (SHA-NI, AVX-512)`);
if (process.platform !== 'linux' && process.platform !== 'darwin') skip('platform', `${process.platform} host`);
if (!force && existsSync(output) && statSync(output).mtimeMs >= statSync(source).mtimeMs) process.exit(0);

const headers = join(dirname(process.execPath), '..', 'include', 'node');
if (!existsSync(join(headers, 'node_api.h'))) skip('no-headers', `no Node-API headers at ${headers}`);
const cc = process.env.CC || 'cc';
try {
  execFileSync(cc, ['--version'], { stdio: 'ignore' });
} catch {
  skip('no-compiler', `no C compiler (${cc})`);
}

try {
  mkdirSync(dirname(output), { recursive: true });
} catch (cause) {
  skip('unwritable', `cannot write ${dirname(output)}: ${cause instanceof Error ? cause.message : String(cause)}`);
}
const flags = ['-O3', '-std=gnu11', '-Wall', '-Wextra', '-fPIC', '-shared', '-fvisibility=hidden', `-I${headers}`];
if (process.platform === 'darwin') flags.push('-undefined', 'dynamic_lookup');
try {
  execFileSync(cc, [...flags, '-o', output, source], { stdio: ['ignore', 'inherit', 'pipe'] });
} catch (cause) {
  rmSync(output, { force: true });
  skip('compile-failed', `${cc} failed: ${String(cause.stderr ?? cause.message).trim().split('\n')[0]}`);
}

// Known answers against node:crypto, on counts around the 16-lane groups and
// on an in-place fold; any mismatch removes the binary.
let runnable = [];
try {
  const native = createRequire(import.meta.url)(output);
  runnable = native.kernels();
  if (runnable.length === 0) {
    record('built', 'built; this CPU lacks both SHA-NI with AVX2 and AVX-512 F and BW');
    console.log('@ssztree/hasher: native hashing module built; this CPU runs neither of its kernels (SHA-NI, AVX-512), so it stays unused here');
    process.exit(0);
  }
  // Every kernel this CPU runs, on counts around its groups (4 for shani, 16 for avx512).
  for (const kernel of runnable) {
    for (const count of [1, 3, 4, 5, 7, 15, 16, 17, 33, 100]) {
      const input = new Uint8Array(64 * count).map((_, i) => (i * 131 + 7) & 0xff);
      const expected = new Uint8Array(32 * count);
      for (let i = 0; i < count; i++) expected.set(createHash('sha256').update(input.subarray(64 * i, 64 * i + 64)).digest(), 32 * i);
      const out = new Uint8Array(32 * count);
      native[kernel](input, out);
      native[kernel](input, input.subarray(0, 32 * count)); // in-place fold: digests over the front half
      if (Buffer.compare(out, expected) !== 0 || Buffer.compare(input.subarray(0, 32 * count), expected) !== 0) {
        throw new Error(`${kernel}: wrong digests for ${count} messages`);
      }
    }
  }
} catch (cause) {
  rmSync(output, { force: true });
  skip('check-failed', `the built module failed its check and was removed: ${cause instanceof Error ? cause.message : String(cause)}`);
}
record('built', `built and checked against node:crypto (kernels here: ${runnable.join(', ')})`);
console.log(`@ssztree/hasher: built the native hashing module, kernels ${runnable.join(', ')} (${output.slice(root.length + 1)})`);
