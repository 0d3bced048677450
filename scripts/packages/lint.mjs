/**
 * The ecosystem's linters on the tarballs we publish (never on the working
 * tree, whose manifests still hold workspace ranges and the `source`
 * condition): publint (`--strict`: warnings fail too) for the manifest and
 * its files, and @arethetypeswrong/cli for the declarations under every
 * module resolution TypeScript has (node10, node16 from CJS and from ESM,
 * bundler; profile `strict`). attw reads the tarball itself: its `--pack`
 * would run `npm pack`, which our prepack refuses (scripts/prepack.mjs).
 */
import { join } from 'node:path';
import { REPO, run } from './run.mjs';

const bin = (name) => join(REPO, 'node_modules/.bin', name);

/** Lints one tarball; throws with the linter's report on any problem. */
export function lint(tarball) {
  const publint = run(bin('publint'), ['run', tarball, '--strict']);
  if (!/All good!/.test(publint)) throw new Error(`publint ${tarball}:\n${publint}`);
  const attw = run(bin('attw'), [tarball, '--profile', 'strict', '--format', 'ascii', '--no-emoji', '--no-color']);
  if (!/No problems found/.test(attw)) throw new Error(`attw ${tarball}:\n${attw}`);
  return 'publint: all good; attw: no problems (node10, node16 CJS/ESM, bundler)';
}
