#!/usr/bin/env node
/**
 * The `ssztree` command inside this repository (`npx ssztree …`,
 * `pnpm ssztree …` from any folder of the checkout, no build step needed).
 *
 * It runs the TypeScript source through tsx with the `source` export
 * condition, so the command is always the code as it is now, never a dist/
 * left from an older build. Where tsx or src/ is absent it runs the built
 * dist/cli.js instead. The published package does not use this file: its
 * manifest (publishConfig.bin) points `ssztree` straight at dist/cli.js.
 *
 * The child inherits stdin/stdout/stderr, so pipes and exit codes are the
 * command's own; a signal sent to this process is passed on.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const built = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

function tsxLoader() {
  try {
    return import.meta.resolve('tsx');
  } catch {
    return undefined;
  }
}

const loader = existsSync(source) ? tsxLoader() : undefined;
if (loader === undefined && !existsSync(built)) {
  console.error('ssztree: neither tsx (to run src/cli.ts) nor a built dist/cli.js was found; run `pnpm install` (or `pnpm run build`) first');
  process.exit(2);
}
const args = loader === undefined ? [built] : ['--import', loader, '--conditions=source', source];
const child = spawn(process.execPath, [...args, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal !== null) {
    process.removeAllListeners(signal); // die of the same signal, as a shell expects
    process.kill(process.pid, signal);
  }
  else process.exit(code ?? 1);
});
