/**
 * Packs the four packages with pnpm (each `prepack` builds its package) and
 * checks each tarball's contents — what publint and attw do not look at: no
 * `workspace:` range or `source` condition left, sibling dependencies pinned
 * to the siblings' versions, the LICENSE identical to the repository's, a
 * README and a CHANGELOG, dist/ and nothing of src/ or test/, the hasher's
 * install script with the files it compiles, and immer left to the peer
 * dependency rather than bundled into `@ssztree/types/immer`.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pnpmCommand, REPO, run } from './run.mjs';

export const PACKAGES = ['hasher', 'core', 'types', 'cli'];

function manifest(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/** Every key and string value of a JSON value, depth first. */
function* walk(value) {
  if (typeof value === 'string') yield value;
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      yield key;
      yield* walk(inner);
    }
  }
}

/** Packs every package into `destination`; returns { name: tarball path }. */
export function packAll(destination) {
  mkdirSync(destination, { recursive: true });
  const [pnpm, ...lead] = pnpmCommand();
  run(pnpm, [...lead, '-r', '--filter', './packages/*', 'pack', '--pack-destination', destination]);
  const tarballs = {};
  for (const dir of PACKAGES) {
    const { name, version } = manifest(join(REPO, 'packages', dir));
    const file = join(destination, `${name.replace('@', '').replace('/', '-')}-${version}.tgz`);
    assert.ok(existsSync(file), `${name}: pnpm pack wrote ${file}`);
    tarballs[dir] = file;
  }
  return tarballs;
}

/** Unpacks `tarball` under `into` and checks what it holds; returns a one-line summary. */
export function inspect(dir, tarball, into) {
  mkdirSync(into, { recursive: true });
  run('tar', ['-xzf', tarball, '-C', into]);
  const root = join(into, 'package');
  const packed = manifest(root);
  const source = manifest(join(REPO, 'packages', dir));
  const files = run('tar', ['-tzf', tarball]).trim().split('\n').map((f) => f.replace(/^package\//, ''));
  const name = packed.name;

  const strings = [...walk(packed)];
  assert.ok(!strings.some((s) => s.startsWith('workspace:')), `${name}: no workspace: range in the packed manifest`);
  assert.ok(!strings.includes('source'), `${name}: no source condition in the packed manifest`);
  assert.equal(packed.publishConfig, undefined, `${name}: publishConfig applied, not packed`);
  for (const [dep, range] of Object.entries(packed.dependencies ?? {})) {
    if (dep.startsWith('@ssztree/')) assert.equal(range, manifest(join(REPO, 'packages', dep.slice('@ssztree/'.length))).version, `${name}: ${dep} pinned to its version`);
  }
  for (const field of ['description', 'keywords', 'repository', 'license', 'engines', 'files']) {
    assert.ok(packed[field] !== undefined && packed[field] !== '', `${name}: ${field} is set`);
  }
  assert.equal(typeof packed.sideEffects, 'boolean', `${name}: sideEffects is set`);
  assert.equal(packed.version, source.version);

  assert.equal(readFileSync(join(root, 'LICENSE'), 'utf8'), readFileSync(join(REPO, 'LICENSE'), 'utf8'), `${name}: the LICENSE is the repository's`);
  for (const doc of ['README.md', 'CHANGELOG.md']) assert.ok(files.includes(doc), `${name}: ${doc} is packed`);
  assert.ok(files.some((f) => f.startsWith('dist/')), `${name}: dist/ is packed`);
  assert.ok(!files.some((f) => /^(src|test)\//.test(f)), `${name}: no src/ or test/ in the tarball`);
  assert.ok(!files.some((f) => f.startsWith('native/build/')), `${name}: no built native module in the tarball`);
  for (const bin of Object.values(packed.bin ?? {})) assert.ok(files.includes(bin.replace(/^\.\//, '')), `${name}: bin ${bin} is packed`);

  if (dir === 'hasher') {
    assert.equal(packed.scripts?.install, 'node scripts/build-native.mjs', `${name}: the install script builds the native module`);
    for (const f of ['native/sha256x16.c', 'scripts/build-native.mjs']) assert.ok(files.includes(f), `${name}: ${f} is packed`);
  }
  if (dir === 'types') {
    const immerEntry = readFileSync(join(root, 'dist/immer/index.js'), 'utf8');
    assert.match(immerEntry, /from ['"]immer['"]/, `${name}: ./immer imports the immer peer dependency`);
    // immer's own code marks its drafts with this symbol: in our dist/ it would mean immer was bundled.
    const bundled = files.filter((f) => /\.c?js$/.test(f) && readFileSync(join(root, f), 'utf8').includes('Symbol.for("immer-state")'));
    assert.deepEqual(bundled, [], `${name}: immer is not bundled`);
  }
  return `${name}@${packed.version}: ${files.length} files`;
}
