/**
 * A project outside the repository that installs the four tarballs with npm,
 * as a user's would, and uses them: the consumers of test/package-consumer/
 * (ESM `import`, CJS `require`, tsc under nodenext, node16 and bundler), every
 * `ts` example of the package READMEs compiled and run, the `ssztree` bin on
 * the project's PATH, and the native backend as its install left it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PACKAGES } from './pack.mjs';
import { REPO, run, step } from './run.mjs';

const FIXTURES = join(REPO, 'test/package-consumer');

/** The version of a dependency installed in this repository (so the consumer's matches what we test with). */
function installedVersion(name) {
  return JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/**
 * What the hasher's install should have left on this machine, found the way
 * scripts/build-native.mjs decides (platform, Node headers, `$CC`), plus the
 * CPU: see native.mjs for the meaning of each answer.
 */
export function nativeExpectation(env = process.env) {
  if (process.arch !== 'x64' || !['linux', 'darwin'].includes(process.platform)) return 'platform';
  if (!existsSync(join(dirname(process.execPath), '..', 'include', 'node', 'node_api.h'))) return 'no-headers';
  try {
    execFileSync(env.CC || 'cc', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'no-compiler';
  }
  const flags =
    process.platform === 'linux'
      ? (readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1] ?? '').split(/\s+/)
      : execFileSync('sysctl', ['-n', 'machdep.cpu.leaf7_features'], { encoding: 'utf8' }).toLowerCase().split(/\s+/).map((f) => f.replace('.', ''));
  return flags.includes('avx512f') && flags.includes('avx512bw') ? 'built' : 'built-cpu';
}

/** The ```ts blocks of each package README, as { file, code }. */
function readmeExamples() {
  return PACKAGES.flatMap((dir) => {
    const text = readFileSync(join(REPO, 'packages', dir, 'README.md'), 'utf8');
    return [...text.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m, i) => ({ file: `readme-${dir}-${i}.mts`, code: m[1] }));
  });
}

/** Installs `tarballs` into a new project under `dir` with npm and runs every consumer there. */
export function npmConsumer(tarballs, dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'ssztree-consumer', private: true }, null, 2)}\n`);
  const deps = [...Object.values(tarballs), `immer@${installedVersion('immer')}`, `typescript@${installedVersion('typescript')}`, `@types/node@${installedVersion('@types/node')}`];
  const install = run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...deps], { cwd: dir, allowFailure: true });
  assert.equal(install.status, 0, `npm install of the tarballs:\n${install.stdout}${install.stderr}`);
  const ours = `${install.stdout}${install.stderr}`.split('\n').filter((l) => l.includes('@ssztree/hasher:'));
  assert.ok(ours.length <= 1, `the hasher's install says at most one line:\n${ours.join('\n')}`);
  step(`npm install of the 4 tarballs into ${dir}: ok`);

  for (const f of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, f), join(dir, f));
  copyFileSync(join(dir, 'typed.mts'), join(dir, 'typed.cts'));
  const node = (args, env) => run(process.execPath, args, { cwd: dir, env }).trim();
  step(node(['esm.mjs']));
  step(node(['cjs.cjs']));

  const tsc = join(dir, 'node_modules/typescript/bin/tsc');
  for (const resolution of ['nodenext', 'node16', 'bundler']) node([tsc, '-p', `tsconfig.${resolution}.json`]);
  step('tsc (strict) of the ESM and CJS consumer: nodenext ok (declaration files checked too), node16 ok, bundler ok (ESM)');

  const examples = readmeExamples();
  for (const { file, code } of examples) writeFileSync(join(dir, file), code);
  const config = { extends: './tsconfig.nodenext.json', compilerOptions: { noEmit: false, outDir: 'readme-out', skipLibCheck: true }, files: examples.map((e) => e.file) };
  writeFileSync(join(dir, 'tsconfig.readme.json'), JSON.stringify(config, null, 2));
  node([tsc, '-p', 'tsconfig.readme.json']);
  for (const { file } of examples) {
    // The examples print the checks their comments promise (`// true`): none may print false.
    const printed = node([join('readme-out', file.replace(/\.mts$/, '.mjs'))]);
    assert.doesNotMatch(printed, /^false$/m, `${file} printed false:\n${printed}`);
  }
  step(`the ${examples.length} ts examples of the package READMEs type-check and run: ok`);

  assert.ok(existsSync(join(dir, 'node_modules/.bin/ssztree')), 'ssztree is on the project PATH (node_modules/.bin)');
  // As a user types it (the bin exists, so npx finds it locally and downloads nothing).
  const help = run('npx', ['ssztree', '--help'], { cwd: dir });
  assert.match(help, /^usage: ssztree|ssztree root <Type> <file>/m);
  const checkpoint = JSON.stringify({ epoch: '7', root: `0x${'ab'.repeat(32)}` });
  const printed = run('npx', ['ssztree', 'root', 'phase0.Checkpoint', '-'], { cwd: dir, input: checkpoint }).trim();
  const expected = node(['-e', `const { mainnet } = require('@ssztree/types/consensus'); const T = mainnet.phase0.Checkpoint; console.log('0x' + Buffer.from(T.hashTreeRoot(T.fromJson(${checkpoint}))).toString('hex'))`]);
  assert.equal(printed, expected, 'ssztree root of a checkpoint on stdin');
  step('npx ssztree --help and ssztree root from stdin in the project: ok');

  const expectation = nativeExpectation();
  step(node(['native.mjs', expectation], expectation === 'built' ? { SSZTREE_HASHER: 'avx512' } : {}));
  if (expectation === 'built') step(node(['native.mjs', expectation]));
}
