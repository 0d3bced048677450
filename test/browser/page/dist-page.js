// The built packages as a user's page loads them: native ES modules from
// packages/*/dist through an import map (no bundler), so the published
// files themselves run — including the pool's default worker URL,
// dist/hashWorker.js beside dist/index.js, and its shared chunk.
// Plain JavaScript: served as is (see ../harness.ts, mode `dist`).
import { configureThreads, getBackend, hashIntoAsync, initHasher, poolStats } from '@ssztree/hasher';
import { fromHex, toHex } from '@ssztree/types';
import { minimal } from '@ssztree/types/consensus';

async function main() {
  const cases = await (await fetch('/cases.json')).json();
  const initChoice = await initHasher();
  const roots = cases.map((c) => {
    const type = minimal[c.fork][c.name];
    return toHex(type.hashTreeRoot(type.deserialize(fromHex(c.hex))));
  });
  const n = 2 * 8192 + 5; // above the pool's layer threshold
  const input = new Uint8Array(64 * n);
  for (let i = 0; i < input.length; i++) input[i] = (i * 131 + (i >>> 9)) & 0xff;
  const reference = new Uint8Array(32 * n);
  getBackend('noble').hashInto(input, reference);
  configureThreads(1);
  const pooled = new Uint8Array(32 * n);
  await hashIntoAsync(input, pooled);
  const stats = poolStats();
  configureThreads(0);
  return { initChoice, roots, pooledSame: toHex(pooled) === toHex(reference), jobsByWorkers: stats.jobsDone };
}

main().then(
  (report) => {
    globalThis.__report = report;
  },
  (error) => {
    globalThis.__failure = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  },
);
