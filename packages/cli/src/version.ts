/**
 * The CLI's version: the `version` field of this package's package.json,
 * read where the module runs (`src/` under tsx, `dist/` when built: both one
 * level below the package root), so it is always the installed package's.
 * @module
 */
import { readFileSync } from 'node:fs';

export function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error('the package.json of @ssztree/cli has no version');
  return manifest.version;
}
