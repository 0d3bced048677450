// CommonJS consumer of the installed tarballs: `require` of every entry point and the shared checks.
'use strict';
const { check } = require('./checks.cjs');

check(
  {
    hasher: require('@ssztree/hasher'),
    core: require('@ssztree/core'),
    types: require('@ssztree/types'),
    consensus: require('@ssztree/types/consensus'),
    immerSubpath: require('@ssztree/types/immer'),
    cli: require('@ssztree/cli'),
  },
  'CJS require',
).catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
