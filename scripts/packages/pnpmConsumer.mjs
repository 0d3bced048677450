/**
 * The hasher's README for pnpm users, followed in a project outside the
 * repository: pnpm 10 installs @ssztree/hasher without running its install
 * script (listHashers() and hasherNotice() must then say that the script has
 * not run, and what to run), and after `pnpm approve-builds` the native
 * module is what this machine allows (native.mjs). (approve-builds rather
 * than a hand-written `allowBuilds` name: a tarball dependency is matched by
 * its full `file:` specifier, which approve-builds writes.)
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nativeExpectation } from './consumer.mjs';
import { pnpmCommand, REPO, run, step } from './run.mjs';

export function pnpmConsumer(hasherTarball, dir) {
  mkdirSync(dir, { recursive: true });
  const manifest = { name: 'ssztree-pnpm-consumer', private: true, dependencies: { '@ssztree/hasher': `file:${hasherTarball}` } };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(join(REPO, 'test/package-consumer/native.mjs'), join(dir, 'native.mjs'));
  const [pnpm, ...lead] = pnpmCommand();
  // No lockfile to keep frozen here (pnpm freezes it by default under CI=true).
  run(pnpm, [...lead, 'install', '--no-frozen-lockfile'], { cwd: dir });
  const node = (args, env) => run(process.execPath, args, { cwd: dir, env }).trim();
  step(`pnpm, build not allowed: ${node(['native.mjs', 'not-run'])}`);

  run(pnpm, [...lead, 'approve-builds', '--all'], { cwd: dir });
  const expectation = nativeExpectation();
  step(`pnpm, after pnpm approve-builds: ${node(['native.mjs', expectation], expectation === 'built' ? { SSZTREE_HASHER: 'avx512' } : {})}`);
}
