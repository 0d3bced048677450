/**
 * The hasher's built output (dist/), for tests that must load the package
 * the way users do — ESM `import` and CommonJS `require` of the bundles, not
 * the TypeScript sources. CI builds before it tests, so dist/ is normally
 * fresh; when it is missing or older than any source file (a developer
 * running one test after an edit), it is rebuilt with the package's own
 * tsup config first, so a test never runs against stale bundles.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Paths of the built ESM and CJS entries, rebuilding dist/ first if it is stale. */
export function builtHasher(): { esm: string; cjs: string } {
  const esm = join(PACKAGE, 'dist/index.js');
  const cjs = join(PACKAGE, 'dist/index.cjs');
  const built = existsSync(cjs) && existsSync(esm) ? Math.min(statSync(cjs).mtimeMs, statSync(esm).mtimeMs) : 0;
  if (built < Math.max(newestMtime(join(PACKAGE, 'src')), statSync(join(PACKAGE, 'tsup.config.ts')).mtimeMs)) {
    const tsup = join(createRequire(join(PACKAGE, 'package.json')).resolve('tsup/package.json'), '../dist/cli-default.js');
    execFileSync(process.execPath, [tsup], { cwd: PACKAGE, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return { esm, cjs };
}
