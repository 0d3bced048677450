#!/usr/bin/env node
/**
 * Every package's `prepack`: builds the package (its `build` script), so
 * `pnpm pack` / `pnpm publish` from a fresh clone put a current dist/ in the
 * tarball — and refuses npm.
 *
 * Why refuse npm: the manifests name their siblings as `workspace:*` and keep
 * a `source` export condition pointing at src/ (which is not packed). pnpm
 * replaces both when it packs (the workspace ranges with the versions, the
 * exports with `publishConfig.exports`); npm packs the manifest as it is, and
 * its tarball then fails to install (EUNSUPPORTEDPROTOCOL) or resolves into
 * files that are not there. So under npm this stops with one clear line
 * instead of writing a tarball that looks fine and is not.
 *
 * Run from the package directory by the package manager: `node ../../scripts/prepack.mjs`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const agent = process.env.npm_config_user_agent ?? '';
const execPath = process.env.npm_execpath ?? '';

if (!agent.startsWith('pnpm/')) {
  const tool = agent.split(' ')[0] || 'this package manager';
  console.error(
    `${manifest.name}: pack and publish with pnpm (\`pnpm pack\`, \`pnpm publish\` or \`pnpm changeset publish\`), not ${tool}: ` +
      'only pnpm replaces the workspace:* ranges and the source-only exports with what a published package needs.',
  );
  process.exit(1);
}

// The pnpm that runs this script builds the package: `pnpm` itself may not be
// on PATH (e.g. run as `npx pnpm@…`), `npm_execpath` always names it.
const viaNode = /\.[cm]?js$/.test(execPath);
const build = spawnSync(viaNode ? process.execPath : execPath, [...(viaNode ? [execPath] : []), 'run', 'build'], { stdio: 'inherit' });
if (build.error) throw build.error;
process.exit(build.status ?? 1);
