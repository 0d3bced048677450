/**
 * Forcing garbage collection inside a test worker: `--expose-gc` enabled at
 * run time (V8 accepts the flag late for code compiled afterwards), then
 * FinalizationRegistry callbacks are given macrotask turns to run.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Collects garbage and lets finalizers run until `done()` holds (or gives up). */
export async function collectUntil(done: () => boolean, rounds = 30): Promise<boolean> {
  for (let i = 0; i < rounds; i++) {
    gc();
    await turn();
    await turn();
    if (done()) return true;
  }
  return done();
}

export async function fullGc(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await turn();
  }
}
