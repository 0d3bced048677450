/**
 * Profile driver for the build paths of issue #5 (ours only): List[Validator]
 * of 2^18 from values (V1) and from bytes (V2), each to a view + root, a few
 * rounds with the view disposed after each and a task turn before the next
 * (as a long-running node would).
 *
 *   node --cpu-prof --conditions=source --import tsx bench/profile-build.ts [V1|V2] [rounds]
 *   node --expose-gc --conditions=source --import tsx bench/profile-build.ts M
 *     (memory: node bytes per validator from view.memory(), preimage-table
 *     bytes per validator, and heap + array buffers per validator after gc)
 */
import { configureThreads } from '@ssztree/hasher';
import { list, preimageBytes } from '@ssztree/types';
import { makeValidators, Validator } from './lib/validator.js';

configureThreads(0);
const NV = 2 ** 18;
const Validators = list(Validator, 2 ** 40);
const values = makeValidators(NV, 0xaa);
const bytes = Validators.serialize(values);
const which = process.argv[2] ?? 'V2';
if (which === 'M') {
  const gc = (globalThis as { gc?: () => void }).gc as () => void;
  const heap = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const base = heap() - preimageBytes();
  const view = Validators.deserializeToView(bytes);
  view.hashTreeRoot();
  const total = heap() - base;
  console.log(JSON.stringify({ nodeBytesPerValidator: view.memory().bytes / NV, preimageBytesPerValidator: preimageBytes() / NV, processBytesPerValidator: total / NV }));
  process.exit(0);
}
const rounds = Number(process.argv[3] ?? 5);
for (let r = 0; r < rounds; r++) {
  // A task turn between rounds, as a node has between builds. Before dispose() swept a large nursery itself
  // (docs/CORE.md, "Reclamation") this turn was what let the previous round's records be recycled (without it every
  // round built on fresh pages: V2 ~500 ms instead of ~330 ms); now the dispose below does that, the turn stays.
  await new Promise((resolve) => setImmediate(resolve));
  const t0 = performance.now();
  const view = which === 'V1' ? Validators.toView(values) : Validators.deserializeToView(bytes);
  view.hashTreeRoot();
  const t1 = performance.now();
  view.dispose();
  console.log(which, r, (t1 - t0).toFixed(1), 'ms');
}
