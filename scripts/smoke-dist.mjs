// The built packages bundle for a browser — what the package checks
// (scripts/check-packages.mjs: publint, attw, and Node consumers of the
// packed tarballs) do not cover. Run by .ci/run after the packages are built.
//
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

// esbuild with platform `browser` (no `source` condition, so the dist files)
// fails on any static import of a Node built-in. The pool's Web Workers load dist/hashWorker.browser.js,
// which must import nothing at all (a module worker does not see the page's
// import map). (test/browser runs the library in Chromium, dist included.)
const { build } = await import('esbuild');
const root = new URL('..', import.meta.url).pathname;
for (const entry of ['@ssztree/types', '@ssztree/types/consensus', 'packages/hasher/dist/hashWorker.browser.js']) {
  const worker = entry.endsWith('.js');
  const out = await build({
    // The worker has no exports, only effects: bundle it as an entry of its own.
    ...(worker ? { entryPoints: [root + entry] } : { stdin: { contents: `export * from ${JSON.stringify(entry)};`, resolveDir: root } }),
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
  });
  const text = out.outputFiles[0].text;
  assert.ok(text.length > 10_000, `${entry}: the bundle is not empty`);
  assert.ok(!/\bfrom\s*["']node:|require\(["']node:/.test(text), `${entry}: the browser bundle reaches no node: module`);
  if (worker) {
    const own = readFileSync(new URL(`../${entry}`, import.meta.url), 'utf8');
    assert.ok(!/^\s*(import|export)\b[^(]*\bfrom\s*["']/m.test(own) && !/\bimport\s*\(/.test(own), `${entry}: imports nothing`);
  }
  console.log(`smoke: ${entry} bundles for the browser (${(text.length / 1024).toFixed(0)} KB)`);
}
