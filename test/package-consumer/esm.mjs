// ESM consumer of the installed tarballs: `import` of every entry point, the
// shared checks, and the same export names as `require` gives.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as hasher from '@ssztree/hasher';
import * as core from '@ssztree/core';
import * as types from '@ssztree/types';
import * as consensus from '@ssztree/types/consensus';
import * as immerSubpath from '@ssztree/types/immer';
import * as cli from '@ssztree/cli';
import checks from './checks.cjs';

const entries = { '@ssztree/hasher': hasher, '@ssztree/core': core, '@ssztree/types': types, '@ssztree/types/consensus': consensus, '@ssztree/types/immer': immerSubpath, '@ssztree/cli': cli };
const require = createRequire(import.meta.url);
for (const [id, esm] of Object.entries(entries)) {
  const names = Object.keys(esm).filter((k) => k !== 'default').sort();
  assert.ok(names.length > 0, `${id} exports something`);
  assert.deepEqual(Object.keys(require(id)).sort(), names, `${id}: import and require give the same names`);
}
await checks.check({ hasher, core, types, consensus, immerSubpath, cli }, 'ESM import');
