/**
 * Forcing garbage collection inside a test worker: `--expose-gc` enabled at
 * run time (V8 accepts the flag late for code compiled afterwards), then
 * FinalizationRegistry callbacks are given macrotask turns to run. The same
 * helper as packages/core/test/gc.ts, copied because each package's
 * type-check keeps its tests inside the package (`rootDir`).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Collects garbage and lets finalizers run until `done()` holds (or gives up after `rounds`). */
export async function collectUntil(done: () => boolean, rounds = 30): Promise<boolean> {
  for (let i = 0; i < rounds; i++) {
    gc();
    await turn();
    await turn();
    if (done()) return true;
  }
  return done();
}
