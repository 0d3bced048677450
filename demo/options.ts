/**
 * Command-line options of the demo. Unknown flags and bad numbers are
 * reported with the usage text (exit code 2), never ignored.
 */
export interface Options {
  readonly validators: number;
  readonly blocks: number;
  readonly epochs: number;
  readonly seed: number;
  readonly compare: boolean;
  readonly inPlace: boolean;
  readonly json: boolean;
  readonly help: boolean;
  /** The fork of the state: fulu (mainnet's current fork), electra, or gloas (progressive state). */
  readonly fork: 'electra' | 'fulu' | 'gloas';
  /** With a fulu state: the block before which the state is upgraded to gloas (0: never). */
  readonly upgradeAt: number;
}

export const USAGE = `Usage: npm run demo -- [options]

Builds a synthetic mainnet fulu BeaconState (electra with --fork electra), then applies simulated blocks
and epoch transitions through tree-backed views, printing commit + root
times (p50/p95), memory per validator and the speed-up over a full rehash.

  --validators N   validators in the state (default and largest 1048576 = 2^20)
  --blocks N       blocks to apply (default 64)
  --epochs N       epoch transitions, spread evenly over the blocks (default 2:
                   one every 32 blocks, as on mainnet); 0 for none
  --seed N         seed of the synthetic data (default 1)
  --compare        run the same blocks through @chainsafe/ssz ViewDU too, in a
                   process of its own (its heap apart from ours), and check
                   that both roots agree after every block and epoch
  --in-place       apply each block to the head state itself instead of a
                   clone of it (a client that keeps no pre-block state): an
                   unshared view commits in place
  --fork F         the state's fork: fulu (default, mainnet's current fork), electra,
                   or gloas (a progressive BeaconState: blocks written through the
                   progressive list and container views)
  --upgrade-at N   with a fulu state: upgrade it to gloas (upgradeState, reusing
                   the tree) before block N, print the upgrade's time and sharing,
                   and run the remaining blocks on gloas; not with --compare
  --json           print a one-line JSON summary at the end
  --help           this text`;

export class UsageError extends Error {}

const LIMITS: Record<string, [number, number]> = {
  // Bounded by memory: measured peaks at 2^20 are 2.6 GB resident alone; with --compare the peer's process
  // adds its own (2.7 GB resident the larger of the two, `/usr/bin/time -v` on a gloas --blocks 16 run),
  // each under a 6 GB heap limit; larger states are not measured, so not offered.
  validators: [1, 2 ** 20],
  blocks: [0, 100_000],
  epochs: [0, 10_000],
  seed: [0, 2 ** 32 - 1],
  'upgrade-at': [1, 100_000],
};

export function parseOptions(argv: readonly string[]): Options {
  const nums: Record<string, number> = { validators: 2 ** 20, blocks: 64, epochs: 2, seed: 1, 'upgrade-at': 0 };
  let compare = false;
  let inPlace = false;
  let json = false;
  let help = false;
  let fork: Options['fork'] = 'fulu';
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--compare') compare = true;
    else if (a === '--in-place') inPlace = true;
    else if (a === '--json') json = true;
    else if (a === '--help' || a === '-h') help = true;
    else if (a === '--fork') {
      const f = argv[++i];
      if (f !== 'electra' && f !== 'fulu' && f !== 'gloas') throw new UsageError(`--fork needs electra, fulu or gloas, got ${f ?? 'nothing'}`);
      fork = f;
    }
    else if (a.startsWith('--') && a.slice(2) in LIMITS) {
      const name = a.slice(2);
      const raw = argv[++i];
      const v = Number(raw);
      const [lo, hi] = LIMITS[name] as [number, number];
      if (raw === undefined || !Number.isInteger(v) || v < lo || v > hi) throw new UsageError(`${a} needs an integer from ${lo} to ${hi}, got ${raw ?? 'nothing'}`);
      nums[name] = v;
      given.add(name);
    } else throw new UsageError(`unknown option ${a}`);
  }
  // The default (2 epochs) shrinks with --blocks; an explicit --epochs must fit.
  const epochs = given.has('epochs') ? nums['epochs']! : Math.min(nums['epochs']!, nums['blocks']!);
  const o = { validators: nums['validators']!, blocks: nums['blocks']!, epochs, seed: nums['seed']!, compare, inPlace, json, help, fork, upgradeAt: nums['upgrade-at']! };
  if (o.epochs > o.blocks) throw new UsageError(`--epochs (${o.epochs}) cannot exceed --blocks (${o.blocks})`);
  if (o.upgradeAt > 0) {
    if (o.fork !== 'fulu') throw new UsageError(`--upgrade-at upgrades a fulu state to gloas, not a ${o.fork} one`);
    if (o.upgradeAt > o.blocks) throw new UsageError(`--upgrade-at (${o.upgradeAt}) cannot exceed --blocks (${o.blocks})`);
    if (o.compare) throw new UsageError('--upgrade-at runs without --compare (the peer has no upgrade of its own here)');
  }
  return o;
}
