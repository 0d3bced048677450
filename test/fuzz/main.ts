/**
 * The fuzz command.
 *
 *   npm run fuzz -- --seconds 60                      every target, one minute
 *   npm run fuzz -- --count 1000000 --seed 42          a fixed number of inputs
 *   npm run fuzz -- --types electra.BeaconState,generic.* --seconds 30
 *   npm run fuzz -- --per-target 200 --seed 1          exactly 200 inputs per target
 *   npm run fuzz -- --replay test/fuzz/failures/<file>.json
 *   npm run fuzz -- --list                             the targets and their aliases
 *   npm run fuzz -- --views exact|verdict|off …         how deserializeToView is held to deserialize (default verdict)
 *
 * Prints the seed first; failures go to test/fuzz/failures/ (or --failures
 * DIR), each with its hex input and a repro command. Exit status 1 when
 * anything failed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fromHex } from '@ssztree/types';
import { CHAINSAFE_LENIENCIES } from './leniencies.js';
import { check, type ViewCheck } from './oracle.js';
import { memoryBound, runFuzz, type FuzzStats } from './runner.js';
import { allTargets, selectTargets } from './targets.js';

const DEFAULT_FAILURES = fileURLToPath(new URL('./failures', import.meta.url));

function parseArgs(argv: string[]): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const [key, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    if (inline !== undefined) args.set(key, inline);
    else if (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('--')) args.set(key, argv[++i] as string);
    else args.set(key, 'true');
  }
  return args;
}

const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;

function summary(s: FuzzStats, final: boolean): string {
  const secs = s.elapsedMs / 1000;
  const lines = [
    `${final ? 'done' : 'progress'}: ${s.inputs} inputs in ${secs.toFixed(1)} s (${(s.inputs / Math.max(secs, 1e-9)).toFixed(0)}/s), ` +
      `${s.accepted} accepted, ${s.rejected} rejected, ${s.failureCount} failures; peak RSS ${mib(s.peakRss)} (bound ${mib(memoryBound(s))})`,
  ];
  if (final) {
    lines.push(`  rejections by code: ${JSON.stringify(s.codes)}`);
    lines.push(`  ChainSafe leniencies seen: ${JSON.stringify(s.leniencies)}`);
    lines.push(
      `  memory: start RSS ${mib(s.startRss)}, peak RSS ${mib(s.peakRss)}, peak arrayBuffers ${mib(s.peakArrayBuffers)}, peak heapUsed ${mib(s.peakHeapUsed)}; largest input ${s.maxInput} bytes`,
    );
    lines.push(`  view store: ${mib(s.viewStoreBytes)} of storage at the last sample`);
    lines.push(`  slowest decode: ${s.slowest.ms.toFixed(1)} ms (${s.slowest.target}, ${s.slowest.size} bytes)`);
    const ts = Object.values(s.targets);
    lines.push(`  targets: ${ts.length}, fewest inputs ${Math.min(...ts.map((t) => t.inputs))}, most ${Math.max(...ts.map((t) => t.inputs))}, targets with an accepted input: ${ts.filter((t) => t.accepted > 0).length}`);
    for (const f of s.failures.slice(0, 20)) lines.push(`  FAIL ${f.target} #${f.n}: ${f.what} [${f.how}]\n       ${f.file ?? f.repro}`);
  }
  return lines.join('\n');
}

function parseViews(v: string | undefined): ViewCheck {
  if (v === undefined) return 'verdict';
  if (v === 'exact' || v === 'verdict' || v === 'off') return v;
  throw new Error(`--views takes exact, verdict or off, not ${v}`);
}

function replay(file: string, views: ViewCheck): number {
  const c = JSON.parse(readFileSync(file, 'utf8')) as { target: string; inputHex: string; what: string };
  const [target] = selectTargets(c.target).filter((t) => t.name === c.target);
  if (!target) throw new Error(`unknown target ${c.target}`);
  const observed = check(target.type, fromHex(c.inputHex), { views });
  console.log(`recorded: ${c.what}`);
  console.log(`now:      ${JSON.stringify(observed.verdict, null, 2)}`);
  return observed.verdict.kind === 'failure' ? 1 : 0;
}

function main(): number {
  const args = parseArgs(process.argv.slice(2));
  if (args.has('help')) {
    console.log('usage: npm run fuzz -- [--seconds S | --count N | --per-target N] [--seed N] [--types a,b*] [--failures DIR] [--views exact|verdict|off] [--list] [--replay FILE]');
    return 0;
  }
  if (args.has('list')) {
    for (const t of selectTargets(args.get('types'))) console.log(`${t.name}${t.aliases.length ? `  (= ${t.aliases.join(', ')})` : ''}`);
    return 0;
  }
  const replayFile = args.get('replay');
  if (replayFile) return replay(replayFile, parseViews(args.get('views')));

  const seed = args.has('seed') ? Number(args.get('seed')) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
  const targets = selectTargets(args.get('types'));
  const seconds = args.has('seconds') ? Number(args.get('seconds')) : undefined;
  const count = args.has('count') ? Number(args.get('count')) : undefined;
  const perTarget = args.has('per-target') ? Number(args.get('per-target')) : undefined;
  const failuresDir = args.get('failures') ?? DEFAULT_FAILURES;
  console.log(`fuzz: seed ${seed}, ${targets.length} targets (${allTargets().length} in all), ` +
    (perTarget !== undefined ? `${perTarget} per target` : count !== undefined ? `${count} inputs` : `${seconds ?? 60} s`) +
    `; failures to ${failuresDir}`);
  console.log(`deserializeToView check: ${parseViews(args.get('views'))}`);
  console.log(`documented ChainSafe leniencies: ${CHAINSAFE_LENIENCIES.map((l) => l.id).join(', ')}`);
  const stats = runFuzz({
    seed,
    targets,
    seconds: perTarget === undefined && count === undefined ? (seconds ?? 60) : seconds,
    count,
    perTarget,
    failuresDir,
    sliceMs: args.has('slice-ms') ? Number(args.get('slice-ms')) : undefined,
    views: parseViews(args.get('views')),
    onProgress: (s) => console.log(summary(s, false)),
    progressMs: 30_000,
  });
  console.log(summary(stats, true));
  return stats.failureCount === 0 ? 0 : 1;
}

process.exitCode = main();
