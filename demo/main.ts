/**
 * The ssztree demo (`npm run demo`): a synthetic mainnet fulu (or electra, or gloas)
 * BeaconState of 2^20 validators is built (from values and from bytes, as a
 * client loads one), then simulated blocks and epoch transitions are applied
 * through tree-backed views, each on a clone of the last state as a client's
 * state cache does. A live table shows write and commit + root times
 * (p50/p95), memory (a state's tree per validator, and the whole process's),
 * and the block and epoch commit + root against three full-state baselines:
 * hashTreeRoot of the whole value at start and at the end, and a fresh tree
 * from bytes. Every figure names its state, part and denominator.
 * `--compare` runs the same writes through @chainsafe/ssz ViewDU, in a
 * process of its own (demo/peerSide.ts: its heap never in our garbage
 * collections' way), and checks that both roots agree after every block
 * and epoch.
 *
 * Invariant: every root printed is checked — the three builds against each
 * other, the final incremental root against a full rehash of the final
 * value, and (with --compare) every root against ChainSafe's. Any mismatch
 * exits with code 1.
 */
import { getHasher, hasherNotice } from '@ssztree/hasher';
import { preimageBytes, toHex, type ViewOf } from '@ssztree/types';
import { applyBlock, applyEpoch, type RotateParticipation, type StateLike } from './apply.js';
import { parseOptions, USAGE, UsageError, type Options } from './options.js';
import { peerMissing as probePeer, startPeer, type PeerSide, type PeerStep } from './peerSide.js';
import { Screen, timingTable, type TimingRow } from './render.js';
import { Rng } from './rng.js';
import { upgradeState } from '@ssztree/types/consensus';
import { BeaconState as ElectraState, STATE_TYPES, generateState, ptcWindow, START_SLOT } from './state.js';
import { fmt, heapMB, MB, Samples, since } from './stats.js';
import { planBlock, planEpoch, planSeed, SLOTS_PER_EPOCH } from './workload.js';

type StateView = ViewOf<typeof ElectraState>;

const gc = (globalThis as { gc?: () => void }).gc;
const short = (root: Uint8Array) => `${toHex(root).slice(0, 18)}…`;

// Ours: previous takes current's view (O(1): both fields are the spec's EpochParticipation, and a view
// assignment accepts any schema of the same SSZ definition); current becomes a fresh all-zero list.
const rotateOurs: RotateParticipation = (state, n) => {
  const s = state as unknown as StateView;
  s.previous_epoch_participation = s.current_epoch_participation;
  s.setField('current_epoch_participation', new Uint8Array(n));
};

/** One timed call. */
function timed<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const r = fn();
  return [r, since(t)];
}

/** Whether epoch transition number floor(k·E/B) happens after block k (1-based): E of them, evenly spread. */
const epochAfter = (k: number, o: Options) => o.blocks > 0 && Math.floor((k * o.epochs) / o.blocks) > Math.floor(((k - 1) * o.epochs) / o.blocks);

/** The peer's process while it runs: closed when the run ends, however it ends. */
let running: PeerSide | null = null;

async function run(o: Options): Promise<number> {
  const screen = new Screen();
  const n = o.validators;
  const failures: string[] = [];
  // The fulu and gloas states hold electra's fields the simulation drives (gloas's lists as progressive
  // lists, whose views take the same get/set/push): one simulation for every fork.
  let BeaconState = STATE_TYPES[o.fork] as unknown as typeof ElectraState;
  screen.line(`ssztree demo: mainnet ${o.fork} BeaconState, ${n} validators, ${o.blocks} blocks, ${o.epochs} epoch transitions, seed ${o.seed}${o.inPlace ? ', blocks applied in place (--in-place)' : ''}`);
  screen.line(`  hasher ${getHasher()}, Node ${process.version}${hasherNotice() ? ` (${hasherNotice()})` : ''}`);
  screen.line();

  // ---------------------------------------------------------------- build
  let t = performance.now();
  let value: ReturnType<typeof generateState> | null = generateState(n, o.seed, (done) => screen.progress('generating', done, n, 'validators'), o.fork);
  screen.phase('generating', since(t), `${n} validators with distinct pubkeys, balances, flags, roots`);
  const [bytes0, serializeMs] = timed(() => BeaconState.serialize(value!));
  let bytes: Uint8Array | null = bytes0;
  screen.phase('serializing', serializeMs, `${fmt(bytes0.length / MB)} MB of SSZ`);
  screen.progress('hashing (full rehash)', 0, 1, 'state');
  const [fullRoot, fullRehashMs] = timed(() => BeaconState.hashTreeRoot(value!));
  screen.phase('full rehash', fullRehashMs, `BeaconState.hashTreeRoot(value): ${short(fullRoot)}`);
  screen.progress('building tree (values)', 0, 1, 'state');
  const [fromValue, toViewMs] = timed(() => {
    const v = BeaconState.toView(value!);
    return [v, v.hashTreeRoot()] as const;
  });
  screen.phase('values → view + root', toViewMs, 'BeaconState.toView(value).hashTreeRoot()');
  if (toHex(fromValue[1]) !== toHex(fullRoot)) failures.push('toView root differs from the value root');
  fromValue[0].dispose();
  value = null;
  gc?.();
  screen.progress('building tree (bytes)', 0, 1, 'state');
  const [fromBytes, fromBytesMs] = timed(() => {
    const v = BeaconState.deserializeToView(bytes!);
    return [v, v.hashTreeRoot()] as const;
  });
  screen.phase('bytes → view + root', fromBytesMs, 'BeaconState.deserializeToView(bytes).hashTreeRoot() — a client loading a state');
  if (toHex(fromBytes[1]) !== toHex(fullRoot)) failures.push('deserializeToView root differs from the value root');
  let head: StateView = fromBytes[0];
  let headRoot = fromBytes[1];

  // ---------------------------------------------------------------- peer
  let peer: PeerSide | null = null;
  let peerLoadMs = Number.NaN;
  let peerMissing: string | undefined;
  if (o.compare) {
    peerMissing = await probePeer();
    if (peerMissing !== undefined) screen.line(`  --compare: @chainsafe/ssz is not installed (${peerMissing}); running ssztree alone`);
    else {
      screen.progress('@chainsafe/ssz: bytes', 0, 1, 'state');
      peer = await startPeer(o, bytes!);
      running = peer;
      peerLoadMs = peer.loadMs;
      const agree = peer.loadRoot === toHex(headRoot);
      if (!agree) failures.push('@chainsafe/ssz root of the loaded state differs');
      screen.phase('@chainsafe/ssz bytes → root', peerLoadMs, `@chainsafe/ssz ${peer.version} ViewDU in its own process, roots ${agree ? 'agree' : 'DIFFER'}`);
    }
  }
  bytes = null;
  gc?.();

  t = performance.now();
  const startMemory = head.memory();
  const validatorMemory = head.validators.memory();
  const memoryMs = since(t);
  const preimages = preimageBytes();
  screen.line(
    `  memory of the loaded state: its tree ${fmt(startMemory.bytes / MB)} MB = ${fmt(startMemory.bytes / n)} B/validator (of which the validators list ${fmt(validatorMemory.bytes / n)} B/validator), plus the pubkey table ${fmt(preimages / n)} B/validator (counted in ${fmt(memoryMs, 0)} ms)`,
  );
  screen.line(`  memory of the whole process (JS heap + array buffers: the tree, the table, everything else): ${fmt(heapMB())} MB = ${fmt((heapMB() * MB) / n, 0)} B/validator`);
  screen.line();

  // --------------------------------------------------------------- blocks
  const initial = head.clone(); // kept to the end: how much does the last state share with the first?
  const rows = {
    blockWrites: new Samples(),
    blockRoot: new Samples(),
    epochWrites: new Samples(),
    epochRoot: new Samples(),
    peerBlockWrites: new Samples(),
    peerBlockRoot: new Samples(),
    peerEpochWrites: new Samples(),
    peerEpochRoot: new Samples(),
  };
  const table: TimingRow[] = [
    { name: 'block: writes (views)', samples: rows.blockWrites },
    { name: 'block: commit + root', samples: rows.blockRoot },
    { name: 'epoch: writes (views)', samples: rows.epochWrites },
    { name: 'epoch: commit + root', samples: rows.epochRoot },
  ];
  if (peer)
    table.push(
      { name: '@chainsafe/ssz block: writes', samples: rows.peerBlockWrites },
      { name: '@chainsafe/ssz block: commit + root', samples: rows.peerBlockRoot },
      { name: '@chainsafe/ssz epoch: writes', samples: rows.peerEpochWrites },
      { name: '@chainsafe/ssz epoch: commit + root', samples: rows.peerEpochRoot },
    );
  let checks = 0;
  let agreed = 0;
  let inPlaceCommits = 0;
  const rng = new Rng(planSeed(o.seed));

  /**
   * One step (block or epoch) on both sides: writes timed, commit + root timed, roots compared. The
   * peer's side runs in its process after ours (`peerStep`, given the root before the step), never
   * at the same time: the two sides do not share the cores while timed.
   */
  const step = async (
    write: (s: StateLike, prev: Uint8Array, rotate: RotateParticipation) => void,
    peerStep: (prev: Uint8Array) => Promise<PeerStep>,
    w: Samples,
    r: Samples,
    pw: Samples,
    pr: Samples,
    isEpoch: boolean,
  ): Promise<void> => {
    // A state cache applies each block to a clone and keeps the pre-block state (the clone's first
    // commit copies the written paths); --in-place applies it to the head itself, which then commits in
    // place (after the first block: `initial` shares the starting version).
    // A task turn first, as a client has between blocks: the old head's release, which dispose()
    // defers, runs here rather than inside the next timed commit.
    await new Promise((resolve) => setImmediate(resolve));
    const next = o.inPlace ? head : head.clone();
    const rootBefore = next.rootNode;
    const [, writeMs] = timed(() => write(next as unknown as StateLike, headRoot, rotateOurs));
    const [root, rootMs] = timed(() => next.hashTreeRoot());
    if (next.rootNode === rootBefore) inPlaceCommits++; // the same root node, new contents
    w.add(writeMs);
    r.add(rootMs);
    if (head !== initial && head !== next) head.dispose();
    head = next;
    if (peer) {
      const theirs = await peerStep(headRoot);
      pw.add(theirs.writeMs);
      pr.add(theirs.rootMs);
      checks++;
      if (theirs.root === toHex(root)) agreed++;
      else failures.push(`roots differ from @chainsafe/ssz after ${isEpoch ? 'an epoch' : 'a block'} at slot ${head.slot}`);
    }
    headRoot = root;
  };

  // The live line: where we are, the whole process's memory per validator, and the block p50 against the
  // full rehash of the generated value at start (the one denominator known yet: the final summary adds others).
  const status = (label: string) => {
    const heap = heapMB();
    const p50 = rows.blockRoot.percentile(50);
    return `${label}  slot ${head.slot}  whole process ${fmt(heap, 0)} MB = ${fmt((heap * MB) / n, 0)} B/validator  block commit+root p50 ${fmt(p50, 2)} ms, ${fmt(fullRehashMs / p50, 0)}× faster than hashTreeRoot(value) at start (${fmt(fullRehashMs, 0)} ms)  root ${short(headRoot)}${peer ? `  @chainsafe/ssz agrees ${agreed}/${checks}` : ''}`;
  };
  let epochsDone = 0;
  let upgrade: { block: number; ms: number; sharedPercent: number; root: string } | null = null;
  for (let k = 1; k <= o.blocks; k++) {
    const slot = START_SLOT + k;
    if (k === o.upgradeAt) {
      // The fork boundary: the head (fulu) becomes a gloas view sharing its tree, the SSZ half of
      // upgrade_to_gloas; the PTC window is the caller's (here synthetic), the pending deposits with
      // builder credentials and random (invalid) signatures are dropped as the onboarding would.
      const fuluHead = head as unknown as Parameters<typeof upgradeState<'gloas'>>[0];
      const pending = (fuluHead as unknown as { pending_deposits: { toValue(): { withdrawal_credentials: Uint8Array }[] } }).pending_deposits.toValue();
      const ptc = ptcWindow(n, o.seed);
      const [gloas, ms] = timed(() => {
        const g = upgradeState(fuluHead, 'gloas', { network: 'mainnet', values: { ptc_window: ptc, pending_deposits: pending.filter((d) => d.withdrawal_credentials[0] !== 0xb0) as never } });
        g.hashTreeRoot();
        return g;
      });
      const shared = gloas.sharedWith(fuluHead);
      upgrade = { block: k, ms, sharedPercent: (100 * shared.sharedBytes) / shared.bytes, root: toHex(gloas.hashTreeRoot()) };
      screen.line(`  upgrade fulu → gloas before block ${k}: ${fmt(ms, 1)} ms (upgradeState + root), ${fmt(upgrade.sharedPercent)}% of the gloas tree shared with the fulu head; root ${short(gloas.hashTreeRoot())}`);
      if (head !== initial) head.dispose();
      head = gloas as unknown as StateView;
      headRoot = gloas.hashTreeRoot();
      BeaconState = STATE_TYPES.gloas as unknown as typeof ElectraState;
    }
    const plan = planBlock(rng, n, slot);
    await step((s, prev) => applyBlock(s, plan, prev), (prev) => peer!.block(plan, prev), rows.blockWrites, rows.blockRoot, rows.peerBlockWrites, rows.peerBlockRoot, false);
    if (!screen.tty) {
      screen.line(
        `block ${k}/${o.blocks} slot ${slot}: writes ${fmt(rows.blockWrites.last, 2)} ms, commit+root ${fmt(rows.blockRoot.last, 2)} ms${peer ? `; @chainsafe/ssz writes ${fmt(rows.peerBlockWrites.last, 2)} ms, commit+root ${fmt(rows.peerBlockRoot.last, 2)} ms, agree ${agreed}/${checks}` : ''}; heap+buffers ${fmt(heapMB(), 0)} MB; root ${short(headRoot)}`,
      );
    } else screen.table(timingTable(table, status(`block ${k}/${o.blocks}`)));
    if (epochAfter(k, o)) {
      const epochPlan = planEpoch(rng, n, Math.floor(slot / SLOTS_PER_EPOCH));
      await step((s, _prev, rotate) => applyEpoch(s, epochPlan, rotate), () => peer!.epoch(epochPlan), rows.epochWrites, rows.epochRoot, rows.peerEpochWrites, rows.peerEpochRoot, true);
      epochsDone++;
      if (!screen.tty) {
        screen.line(
          `epoch ${epochsDone}/${o.epochs} (after slot ${slot}): writes ${fmt(rows.epochWrites.last, 2)} ms, commit+root ${fmt(rows.epochRoot.last, 2)} ms${peer ? `; @chainsafe/ssz writes ${fmt(rows.peerEpochWrites.last, 2)} ms, commit+root ${fmt(rows.peerEpochRoot.last, 2)} ms, agree ${agreed}/${checks}` : ''}; root ${short(headRoot)}`,
        );
      } else screen.table(timingTable(table, status(`epoch ${epochsDone}/${o.epochs}`)));
    }
  }
  if (!screen.tty) {
    screen.line();
    for (const l of timingTable(table, status('done'))) screen.line(l);
  } else screen.table(timingTable(table, status('done')));
  screen.line();

  peer?.close(); // its figures are in: its memory goes back before our final checks

  // ---------------------------------------------------------------- checks
  const [finalValue, toValueMs] = timed(() => head.toValue());
  const [rehashRoot, endRehashMs] = timed(() => BeaconState.hashTreeRoot(finalValue));
  const rootsMatch = toHex(rehashRoot) === toHex(headRoot);
  if (!rootsMatch) failures.push('the final incremental root differs from a full rehash of the final value');
  screen.line(`  final root ${toHex(headRoot)}`);
  screen.line(`  full rehash of the final state (toValue ${fmt(toValueMs, 0)} ms, hashTreeRoot ${fmt(endRehashMs, 0)} ms): ${rootsMatch ? 'equals the incremental root' : 'DIFFERS from the incremental root'}`);
  if (peer) screen.line(`  @chainsafe/ssz ViewDU: roots agree after ${agreed} of ${checks} blocks and epochs`);

  const endMemory = head.memory();
  const shared = head.sharedWith(initial);
  const blockP50 = rows.blockRoot.percentile(50);
  const epochP50 = rows.epochRoot.percentile(50);
  // Three ways to get a state's root without incremental hashing, each a denominator of its own: the
  // value rehash at start runs first in the process (colder), the one at the end on the final state.
  const against = (p50: number, digits: number) =>
    `${fmt(fullRehashMs / p50, digits)}× faster than hashTreeRoot(value) of the whole state at start (${fmt(fullRehashMs, 0)} ms), ` +
    `${fmt(endRehashMs / p50, digits)}× than at the end (${fmt(endRehashMs, 0)} ms), ${fmt(fromBytesMs / p50, digits)}× than a fresh tree from bytes (${fmt(fromBytesMs, 0)} ms)`;
  screen.line(`  block commit+root p50 ${fmt(blockP50, 2)} ms: ${against(blockP50, 0)}`);
  screen.line(`  epoch commit+root p50 ${fmt(epochP50, 1)} ms: ${against(epochP50, 1)}`);
  screen.line(
    `  memory of the final state: its tree ${fmt(endMemory.bytes / MB)} MB = ${fmt(endMemory.bytes / n)} B/validator, ${fmt((100 * shared.sharedBytes) / Math.max(1, endMemory.bytes))}% of it shared with the loaded state's tree, plus the pubkey table ${fmt(preimageBytes() / n)} B/validator`,
  );
  screen.line(`  memory of the whole process (JS heap + array buffers: both states' trees, the table, everything else): ${fmt(heapMB(), 0)} MB = ${fmt((heapMB() * MB) / n, 0)} B/validator`);
  if (peer) {
    const ratio = (a: Samples, b: Samples) => fmt(a.percentile(50) / b.percentile(50), 2);
    screen.line(
      `  vs @chainsafe/ssz (p50 ratios, theirs / ours): block writes ${ratio(rows.peerBlockWrites, rows.blockWrites)}×, block commit+root ${ratio(rows.peerBlockRoot, rows.blockRoot)}×, epoch writes ${ratio(rows.peerEpochWrites, rows.epochWrites)}×, epoch commit+root ${ratio(rows.peerEpochRoot, rows.epochRoot)}×, load from bytes ${fmt(peerLoadMs / fromBytesMs, 2)}×`,
    );
  }
  for (const f of failures) screen.line(`  FAILED: ${f}`);
  screen.line(failures.length === 0 ? '  all roots checked: ok' : `  ${failures.length} check(s) failed`);

  if (o.json) {
    const pct = (s: Samples) => ({ p50: s.percentile(50), p95: s.percentile(95), n: s.count });
    const summary = {
      options: o,
      hasher: getHasher(),
      build: { serializeMs, fullRehashMs, toViewMs, fromBytesMs, peerLoadMs: peer ? peerLoadMs : null },
      blocks: { writes: pct(rows.blockWrites), commitRoot: pct(rows.blockRoot) },
      epochs: { writes: pct(rows.epochWrites), commitRoot: pct(rows.epochRoot) },
      speedUp: {
        block: fullRehashMs / blockP50,
        epoch: fullRehashMs / epochP50,
        denominators: { fullRehashAtStartMs: fullRehashMs, fullRehashAtEndMs: endRehashMs, fromBytesMs },
        blockVsEnd: endRehashMs / blockP50,
        blockVsFromBytes: fromBytesMs / blockP50,
      },
      memory: { stateBytesPerValidator: endMemory.bytes / n, sharedBytes: shared.sharedBytes, preimageBytesPerValidator: preimageBytes() / n },
      roots: { incremental: toHex(headRoot), fullRehash: toHex(rehashRoot), match: rootsMatch },
      compare: { ran: peer !== null, missing: peerMissing ?? null, checks, agreed },
      inPlaceCommits,
      upgrade,
      failures,
    };
    screen.line(JSON.stringify(summary));
  }
  return failures.length === 0 ? 0 : 1;
}

function main(): void {
  let o: Options;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`demo: ${e.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (o.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  run(o)
    .then(
      (code) => {
        process.exitCode = code;
      },
      (e: unknown) => {
        process.stderr.write(`demo: ${(e as Error).stack ?? String(e)}\n`);
        process.exitCode = 1;
      },
    )
    .finally(() => running?.close());
}

main();
