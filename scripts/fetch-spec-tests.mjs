#!/usr/bin/env node
/**
 * Fetches the official consensus-spec SSZ test vectors (spec v0.12.x, from
 * the npm package @chainsafe/eth2-spec-tests@0.12.3) into a cache outside the
 * repository, and prints the directory holding `tests/`.
 *
 * Invariant: the cache directory is usable only when its marker file exists,
 * and the marker is written last, after a download whose sha512 equals the
 * pinned registry integrity and a complete extraction. An interrupted run
 * leaves no marker, so the next run starts over. Concurrent runs (test files
 * in parallel workers) serialize on a lock directory holding the owner's
 * pid; a lock whose owner is gone is taken over.
 *
 * Only two subtrees are extracted (streamed through `tar --wildcards`; the
 * whole package unpacks to more than 4 GB):
 *   tests/general/phase0/ssz_generic  and  tests/minimal/phase0/ssz_static
 *
 * Environment:
 *   SSZTREE_SPEC_CACHE    cache root (default: ~/.cache/ssztree)
 *   SSZTREE_SPEC_TARBALL  a local copy of the tarball to use instead of
 *                         downloading (still checked against the integrity)
 *
 * Usage: node scripts/fetch-spec-tests.mjs   (or import { ensureSpecTests })
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const PACKAGE = '@chainsafe/eth2-spec-tests@0.12.3';
/** `npm view @chainsafe/eth2-spec-tests@0.12.3 dist.integrity`, pinned so tests never ask the registry. */
export const INTEGRITY =
  'sha512-1MPLUSuW5RoSobf2p6/h5d3nDPYChkFcC7217f5cYO0Y8aUnPN4we3OYSHzyRTTUzB5DWXDjLe0RczCeBZX7Sg==';
const TARBALL_NAME = 'chainsafe-eth2-spec-tests-0.12.3.tgz';
const SUBTREES = ['tests/general/phase0/ssz_generic', 'tests/minimal/phase0/ssz_static'];
const MARKER = '.complete';

export function cacheRoot() {
  return resolve(process.env.SSZTREE_SPEC_CACHE || join(homedir(), '.cache', 'ssztree'));
}

export function specDir() {
  return join(cacheRoot(), 'eth2-spec-tests-0.12.3');
}

async function sha512Base64(file) {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return `sha512-${hash.digest('base64')}`;
}

function log(message) {
  process.stderr.write(`fetch-spec-tests: ${message}\n`);
}

/**
 * `npm pack` writes the tarball, then fails while listing its >4 GB of
 * contents (ERR_BUFFER_TOO_LARGE); its exit status therefore says nothing,
 * and the checksum is the judge.
 */
function npmPack(destination) {
  log(`downloading ${PACKAGE} with npm pack (about 130 MB)…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  spawnSync(npm, ['pack', PACKAGE, '--pack-destination', destination, '--silent'], {
    stdio: ['ignore', 'ignore', 'ignore'],
    maxBuffer: 1024 * 1024,
  });
  const file = join(destination, TARBALL_NAME);
  if (!existsSync(file)) throw new Error(`fetch-spec-tests: npm pack wrote no ${TARBALL_NAME} in ${destination}`);
  return file;
}

/** True when process `pid` is alive on this machine. */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Runs `fn` holding the cache lock; waits while another live process holds it. */
async function withLock(lock, fn) {
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // The owner has not written its pid yet.
      }
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolveWait) => setTimeout(resolveWait, 500));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Returns the directory that holds `tests/`, downloading and extracting on first use. */
export async function ensureSpecTests() {
  const dir = specDir();
  if (existsSync(join(dir, MARKER))) return dir;
  mkdirSync(cacheRoot(), { recursive: true });
  return withLock(`${dir}.lock`, async () => {
    // Another process may have finished while this one waited.
    if (existsSync(join(dir, MARKER))) return dir;
    return fetchAndExtract(dir);
  });
}

async function fetchAndExtract(dir) {
  const root = cacheRoot();
  let tarball = process.env.SSZTREE_SPEC_TARBALL;
  const download = join(root, `download-${process.pid}`);
  let downloaded = false;
  const scratch = `${dir}.partial-${process.pid}`;
  if (!tarball || !existsSync(tarball)) {
    rmSync(download, { recursive: true, force: true });
    mkdirSync(download, { recursive: true });
    tarball = npmPack(download);
    downloaded = true;
  }
  try {
    const integrity = await sha512Base64(tarball);
    if (integrity !== INTEGRITY) {
      throw new Error(`fetch-spec-tests: ${tarball} has integrity ${integrity}, expected ${INTEGRITY}`);
    }

    // Extract into a scratch directory, then move it into place: a half
    // extraction never sits where a reader would look.
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    log(`extracting ${SUBTREES.join(' and ')}…`);
    execFileSync(
      'tar',
      ['-xzf', tarball, '-C', scratch, '--strip-components=1', '--wildcards', ...SUBTREES.map((s) => `package/${s}/*`)],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    for (const sub of SUBTREES) {
      const full = join(scratch, sub);
      if (!existsSync(full) || readdirSync(full).length === 0) {
        throw new Error(`fetch-spec-tests: the tarball held no ${sub}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
    writeFileSync(join(dir, MARKER), `${INTEGRITY}\n`);
    log(`ready in ${dir}`);
    return dir;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    if (downloaded) rmSync(download, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureSpecTests().then(
    (dir) => process.stdout.write(`${dir}\n`),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
