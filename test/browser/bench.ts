/**
 * The Web Worker pool in headless Chromium: `hashIntoAsync` with one worker
 * against the backend alone, round by round in the same page (see
 * `page/entry.ts`, mode `bench`). Prints one JSON line per backend.
 *
 *   npm run bench:browser
 */
import { startBrowser } from './harness.js';

const run = await startBrowser([]);
try {
  for (const backend of ['wasm', 'js']) {
    console.log(JSON.stringify(await run.report('bench', `&backend=${backend}`)));
  }
} finally {
  await run.close();
}
