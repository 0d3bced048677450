// The native hashing module (its avx512 kernel) as a consumer gets it, checked against what its
// install should have done here. Usage: node native.mjs <expectation>
//   built      the install built the module and this CPU runs it: avx512 is
//              available, and SSZTREE_HASHER=avx512 hashes on it with no notice
//   built-cpu  the module was built but this CPU lacks AVX-512 (the reason says so)
//   <code>     not built, for the reason the build script recorded as <code>
//              (no-compiler, no-headers, platform, …), or `not-run` when the
//              install script never ran: the reason and the start-up notice name it
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getHasher, hasherNotice, listHashers } from '@ssztree/hasher';

const expectation = process.argv[2];
const home = dirname(createRequire(import.meta.url).resolve('@ssztree/hasher/package.json'));
const statusFile = join(home, 'native/build/status.json');
const status = existsSync(statusFile) ? JSON.parse(readFileSync(statusFile, 'utf8')) : undefined;
const avx512 = listHashers().find((h) => h.name === 'avx512');
const notice = hasherNotice();

if (expectation === 'built') {
  assert.equal(status?.code, 'built', 'the install script recorded a build');
  assert.deepEqual(avx512, { name: 'avx512', available: true });
  if (process.env.SSZTREE_HASHER === 'avx512') {
    assert.equal(getHasher(), 'avx512');
    assert.equal(notice, undefined);
  }
} else if (expectation === 'built-cpu') {
  assert.equal(status?.code, 'built');
  assert.match(avx512.reason, /this CPU (or OS )?lacks AVX-512/);
} else {
  assert.equal(avx512.available, false);
  assert.match(avx512.reason, /^avx512: native module not built \(/);
  if (expectation === 'not-run') {
    assert.equal(status, undefined, 'no status file: the install script never ran');
    assert.match(avx512.reason, /install script has not run.*; to build it: node .*scripts\/build-native\.mjs$/);
  } else {
    assert.equal(status?.code, expectation, `the install script recorded ${expectation}`);
    assert.ok(avx512.reason.includes(status.reason), 'the reason is the one recorded at install time');
  }
  // The start-up choice passed avx512 over: its notice carries the same reason.
  assert.ok(notice?.includes(avx512.reason), `hasherNotice() names the reason: ${notice}`);
}
console.log(`consumer (native, ${expectation}): hasher ${getHasher()}; avx512 ${avx512.available ? 'available' : avx512.reason}`);
