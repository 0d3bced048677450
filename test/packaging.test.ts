/**
 * The package manifests and what ships beside them, checked in the working
 * tree (the packed tarballs themselves are checked by scripts/check-packages.mjs
 * in CI): every field a registry user relies on, the published exports equal
 * to the development ones minus the `source` condition, one LICENSE, a README
 * with an example and a CHANGELOG per package, versioning by Changesets, and
 * npm's pack refused with a clear message rather than a broken tarball.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['hasher', 'core', 'types', 'cli'];
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const manifest = (dir: string) => JSON.parse(read(`packages/${dir}/package.json`));
const rootManifest = JSON.parse(read('package.json'));

/** `exports` with every `source` condition dropped: what a published manifest must say. */
function withoutSource(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'source').map(([k, v]) => [k, withoutSource(v)]));
}

describe.each(PACKAGES)('packages/%s', (dir) => {
  const m = manifest(dir);

  it('has what a registry user relies on', () => {
    expect(m.name).toBe(`@ssztree/${dir}`);
    expect(m.description.length).toBeGreaterThan(40);
    expect(m.keywords.length).toBeGreaterThan(3);
    expect(m.license).toBe('MIT');
    expect(m.repository).toEqual({ ...rootManifest.repository, directory: `packages/${dir}` });
    expect(m.sideEffects).toBe(false);
    expect(m.engines).toEqual(rootManifest.engines);
    expect(m.files).toEqual(expect.arrayContaining(['dist', 'CHANGELOG.md']));
    expect(m.scripts.prepack).toBe('node ../../scripts/prepack.mjs');
  });

  it('publishes its development exports without the source condition', () => {
    expect(m.exports['.'].source).toMatch(/^\.\/src\//);
    expect(m.publishConfig.exports).toEqual(withoutSource(m.exports));
  });

  it('ships the root LICENSE, a README with a runnable example and a CHANGELOG', () => {
    expect(read(`packages/${dir}/LICENSE`)).toBe(read('LICENSE'));
    const readme = read(`packages/${dir}/README.md`);
    expect(readme).toMatch(new RegExp(`^# @ssztree/${dir}\\n`));
    expect(readme).toMatch(/^## Install\n/m);
    expect(readme).toMatch(/^```ts\nimport [^\n]* from '@ssztree\//m);
    expect(readme).toMatch(/^## Reference\n/m);
    expect(read(`packages/${dir}/CHANGELOG.md`)).toMatch(new RegExp(`^# @ssztree/${dir}\\n`));
  });

  it('npm pack stops with a message naming pnpm pack, and writes no tarball', () => {
    const cwd = join(ROOT, 'packages', dir);
    const before = readdirSync(cwd).filter((f) => f.endsWith('.tgz'));
    const r = spawnSync('npm', ['pack', '--dry-run'], { cwd, encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`@ssztree/${dir}: pack and publish with pnpm (\`pnpm pack\``);
    expect(readdirSync(cwd).filter((f) => f.endsWith('.tgz'))).toEqual(before);
  });
});

describe('the repository', () => {
  it('is MIT licensed to the ssztree authors', () => {
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) the ssztree authors\n/);
    expect(rootManifest.license).toBe('MIT');
  });

  it('versions the four packages together with Changesets', () => {
    const config = JSON.parse(read('.changeset/config.json'));
    expect(config.fixed).toEqual([['@ssztree/*']]);
    expect(config.access).toBe('public');
    expect(rootManifest.devDependencies['@changesets/cli']).toBeDefined();
    const pending = readdirSync(join(ROOT, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    for (const file of pending) expect(read(`.changeset/${file}`), file).toMatch(/^---\n('@ssztree\/(hasher|core|types|cli)': (patch|minor|major)\n)+---\n\n\S/);
    expect(read('CONTRIBUTING.md')).toMatch(/changeset/);
  });

  it('runs the hasher build from the package install script, not a root postinstall', () => {
    expect(manifest('hasher').scripts.install).toBe('node scripts/build-native.mjs');
    expect(rootManifest.scripts.postinstall).toBeUndefined();
    expect(existsSync(join(ROOT, 'packages/hasher/scripts/build-native.mjs'))).toBe(true);
  });
});
