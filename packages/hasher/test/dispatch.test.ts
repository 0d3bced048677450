/**
 * The size dispatch (`auto`): the calibration's choices and its bounded
 * cost, with counting fakes and a scripted clock; then the real candidates
 * behind scripted thresholds (every class byte-identical to the reference,
 * across each threshold, in place, at offsets); then the real start-up
 * calibration and its environment switches in fresh processes.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { HasherBackend, HasherName } from '../src/backend.js';
import { createJsBackend } from '../src/backends/js.js';
import { AUTO_CANDIDATES, createAutoBackend, describeDispatch, SECOND_PASS_AFTER_MESSAGES, type AutoBackend } from '../src/dispatch/auto.js';
import { calibrate, calibrationBudget, calibrationCalls, CALIBRATION_ROUNDS, CALIBRATION_SIZES, SWITCH_MARGIN } from '../src/dispatch/calibrate.js';
import { getBackend, hasherReport, listHashers } from '../src/index.js';
import { pseudoRandom, referenceLayer, toHex } from './reference.js';

/**
 * The limit this library states for one calibration pass (docs/HASHER.md): at
 * most 70,000 messages in at most 2,500 calls for the three candidates — about
 * 2 ms of one core at 30 ns a message; at most two passes per process (and
 * per worker), the second only after 4 Mi messages were hashed.
 */
const STATED_MESSAGE_LIMIT = 70_000;
const STATED_CALL_LIMIT = 2_500;

/**
 * Fakes on a shared scripted clock: a backend costs `cost(messages, call)`
 * clock units per message, counts what it hashed, and really hashes (with
 * `real`, so its output can be checked).
 */
function rig() {
  let clock = 0;
  const tally = { messages: 0, calls: 0 };
  const fake = (name: HasherName, cost: (messages: number, call: number) => number, real: HasherBackend = createJsBackend()): HasherBackend => {
    let call = 0;
    return {
      name,
      hashInto: (input, output) => {
        const n = output.length / 32;
        clock += cost(n, call++) * n;
        tally.messages += n;
        tally.calls++;
        real.hashInto(input, output);
      },
    };
  };
  return { fake, tally, now: () => clock / 1e6 };
}

describe('calibrate', () => {
  it('picks the cheapest candidate per size and reports every candidate at every size', () => {
    const { fake, now } = rig();
    // a wins small layers, b from 16 messages on, c never.
    const a = fake('shani', (n) => 10 + (n >= 16 ? 10 : 0));
    const b = fake('avx512', (n) => (n >= 16 ? 8 : 40));
    const c = fake('hashtree', () => 50);
    const cal = calibrate([a, b, c], now);
    expect(cal.sizes.map((s) => s.messages)).toEqual(CALIBRATION_SIZES);
    expect(cal.sizes.map((s) => s.chosen)).toEqual(CALIBRATION_SIZES.map((n) => (n >= 16 ? 'avx512' : 'shani')));
    const rounded = (t: Partial<Record<HasherName, number>>) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v! * 1e6) / 1e6]));
    expect(rounded(cal.sizes[0]!.nsPerMessage)).toEqual({ shani: 10, avx512: 40, hashtree: 50 });
  });

  it('keeps the preferred candidate on a near tie, switches beyond the margin', () => {
    const { fake, now } = rig();
    const nearTie = calibrate([fake('shani', () => 100), fake('avx512', () => 100 * (1 - SWITCH_MARGIN / 2))], now);
    expect(new Set(nearTie.sizes.map((s) => s.chosen))).toEqual(new Set(['shani']));
    const clear = calibrate([fake('shani', () => 100), fake('avx512', () => 100 * (1 - 2 * SWITCH_MARGIN))], now);
    expect(new Set(clear.sizes.map((s) => s.chosen))).toEqual(new Set(['avx512']));
  });

  it('decides each size on its own: a win at one size does not carry over to the next', () => {
    const { fake, now } = rig();
    // avx512 is far ahead at 16 messages only, and a near tie everywhere else.
    const cal = calibrate([fake('shani', () => 100), fake('avx512', (n) => (n === 16 ? 50 : 99))], now);
    expect(cal.sizes.map((s) => s.chosen)).toEqual(CALIBRATION_SIZES.map((n) => (n === 16 ? 'avx512' : 'shani')));
  });

  it('takes each candidate’s best round, so one preempted sample does not decide', () => {
    const { fake, now } = rig();
    // The favourite's whole first timed round is 100x slow (call 0 is the untimed warm-up).
    const perRound = (calibrationCalls(1) - 1) / CALIBRATION_ROUNDS;
    const favourite = fake('shani', (_n, call) => (call >= 1 && call <= perRound ? 1000 : 10));
    const cal = calibrate([favourite, fake('avx512', () => 20)], now);
    expect(cal.sizes.every((s) => s.chosen === 'shani')).toBe(true);
    expect(cal.sizes.every((s) => Math.abs(s.nsPerMessage.shani! - 10) < 1e-6)).toBe(true);
  });

  it('is bounded: hashes exactly its stated budget of messages and calls, whatever the clock says', () => {
    for (const count of [2, 3]) {
      const { fake, tally, now } = rig();
      const names: HasherName[] = ['shani', 'avx512', 'hashtree'];
      const cal = calibrate(names.slice(0, count).map((n, i) => fake(n, () => 1e9 * (i + 1))), now);
      expect(tally.messages).toBe(calibrationBudget(count));
      expect(tally.calls).toBe(calibrationCalls(count));
      expect(cal.cost.messages).toBe(tally.messages);
      expect(cal.cost.calls).toBe(tally.calls);
    }
    expect(calibrationBudget(AUTO_CANDIDATES.length)).toBeLessThanOrEqual(STATED_MESSAGE_LIMIT);
    expect(calibrationCalls(AUTO_CANDIDATES.length)).toBeLessThanOrEqual(STATED_CALL_LIMIT);
    expect(CALIBRATION_ROUNDS).toBeGreaterThanOrEqual(3);
  });

  it('merges a later pass by each candidate’s best time, and counts both', () => {
    const { fake, tally, now } = rig();
    let busy = true; // the first pass runs while shani is slowed down (a busy machine)
    const shani = fake('shani', () => (busy ? 60 : 20));
    const avx512 = fake('avx512', () => 40);
    const first = calibrate([shani, avx512], now);
    expect(new Set(first.sizes.map((s) => s.chosen))).toEqual(new Set(['avx512']));
    busy = false;
    const merged = calibrate([shani, avx512], now, first);
    expect(new Set(merged.sizes.map((s) => s.chosen))).toEqual(new Set(['shani']));
    expect(merged.passes).toBe(2);
    expect(merged.cost.messages).toBe(2 * calibrationBudget(2));
    expect(tally.messages).toBe(2 * calibrationBudget(2));
  });

  it('measures nothing with one candidate', () => {
    const { fake, tally, now } = rig();
    const cal = calibrate([fake('hashtree', () => 1)], now);
    expect(cal.sizes).toEqual([]);
    expect(tally.messages).toBe(0);
  });
});

/** Which candidate each size goes to in the scripted dispatch below: shani < 16, avx512 16..1023, hashtree from 1024. */
const scripted = (n: number): HasherName => (n < 16 ? 'shani' : n < 1024 ? 'avx512' : 'hashtree');

/**
 * `auto` over `real` candidates (each wrapped to advance the scripted clock
 * so the calibration lands on {@link scripted}), recording which candidate
 * each call reached.
 */
function scriptedAuto(real: Record<string, HasherBackend>): { auto: AutoBackend; reached: HasherName[] } {
  const { fake, now } = rig();
  const reached: HasherName[] = [];
  const names: HasherName[] = ['shani', 'avx512', 'hashtree'];
  const candidates = names.map((name) => {
    const inner = fake(name, (n) => (scripted(n) === name ? 10 : 30), real[name] ?? createJsBackend());
    return { name, hashInto: (i: Uint8Array, o: Uint8Array) => (reached.push(name), inner.hashInto(i, o)) } satisfies HasherBackend;
  });
  const auto = createAutoBackend(candidates, { now });
  reached.length = 0;
  return { auto, reached };
}

function realCandidates(): Record<string, HasherBackend> {
  const out: Record<string, HasherBackend> = {};
  for (const name of AUTO_CANDIDATES) if (listHashers().find((h) => h.name === name)!.available) out[name] = getBackend(name);
  return out;
}

describe('auto: the second calibration pass', () => {
  it('runs once, after SECOND_PASS_AFTER_MESSAGES have been hashed, and then uses the merged choice', () => {
    const { fake, tally, now } = rig();
    const noHash: HasherBackend = { name: 'js', hashInto: () => {} };
    let busy = true;
    const auto = createAutoBackend([fake('shani', () => (busy ? 60 : 20), noHash), fake('avx512', () => 40, noHash)], { now });
    expect(auto.calibration!.passes).toBe(1);
    expect(auto.thresholds).toEqual([{ fromMessages: 1, backend: 'avx512' }]);
    busy = false;
    const layer = 2 ** 16;
    const input = new Uint8Array(64 * layer);
    const output = new Uint8Array(32 * layer);
    for (let hashed = layer; hashed < SECOND_PASS_AFTER_MESSAGES; hashed += layer) auto.hashInto(input, output);
    expect(auto.calibration!.passes).toBe(1);
    auto.hashInto(input, output); // crosses the mark: the second pass runs after this call's own work
    expect(auto.calibration!.passes).toBe(2);
    expect(auto.thresholds).toEqual([{ fromMessages: 1, backend: 'shani' }]);
    for (let i = 0; i < 80; i++) auto.hashInto(input, output); // never a third
    expect(auto.calibration!.passes).toBe(2);
    expect(auto.calibration!.cost.messages).toBe(2 * calibrationBudget(2));
    expect(tally.messages).toBe(2 * calibrationBudget(2) + (SECOND_PASS_AFTER_MESSAGES / layer + 80) * layer);
  });
});

describe('auto over scripted thresholds', () => {
  it('derives thresholds and one-line description from the calibration', () => {
    const { auto } = scriptedAuto({});
    expect(auto.thresholds).toEqual([
      { fromMessages: 1, backend: 'shani' },
      { fromMessages: 16, backend: 'avx512' },
      { fromMessages: 1024, backend: 'hashtree' },
    ]);
    expect(describeDispatch(auto)).toMatch(/^shani for 1–15 messages, avx512 for 16–1023 messages, hashtree from 1024; measured here/);
    // Sizes between and beyond the timed ones follow the largest timed size below them.
    expect([1, 15, 16, 17, 1023, 1024, 2047, 4096, 2 ** 20, 2 ** 27].map((n) => auto.backendFor(n).name)).toEqual([
      'shani', 'shani', 'avx512', 'avx512', 'avx512', 'hashtree', 'hashtree', 'hashtree', 'hashtree', 'hashtree',
    ]);
  });

  // The real kernels (where they load here; js stands in for the others) behind the scripted thresholds.
  const { auto, reached } = scriptedAuto(realCandidates());

  it('sends each call to its size class and matches the reference across every threshold', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 63, 64, 65, 1023, 1024, 1025, 4099]) {
      const input = pseudoRandom(64 * n, n + 1);
      const out = new Uint8Array(32 * n);
      reached.length = 0;
      auto.hashInto(input, out);
      expect(reached, `${n} messages`).toEqual([scripted(Math.max(n, 1))]);
      expect(toHex(out), `${n} messages`).toBe(toHex(referenceLayer(input)));
    }
  });

  it('folds in place through every class down to one root, at odd offsets into a larger buffer', () => {
    for (const offset of [0, 1, 31, 33]) {
      const leaves = 4096;
      const buf = pseudoRandom(offset + 32 * leaves + 9, offset + 5);
      let expected: Uint8Array = buf.slice(offset, offset + 32 * leaves);
      let layer = buf.subarray(offset, offset + 32 * leaves);
      const classes = new Set<HasherName>();
      while (layer.length > 32) {
        reached.length = 0;
        auto.hashInto(layer, layer.subarray(0, layer.length / 2));
        reached.forEach((r) => classes.add(r));
        expected = referenceLayer(expected);
        layer = layer.subarray(0, layer.length / 2);
        expect(toHex(layer)).toBe(toHex(expected));
      }
      expect(classes).toEqual(new Set(['shani', 'avx512', 'hashtree']));
    }
  });
});

describe('auto as calibrated at start-up here', () => {
  const info = listHashers().find((h) => h.name === 'auto')!;

  it.runIf(info.available)('reports a complete, consistent table within its budget', () => {
    const report = hasherReport();
    const d = report.dispatch!;
    expect(d.candidates.length).toBeGreaterThan(0);
    expect(d.candidates.every((c) => AUTO_CANDIDATES.includes(c))).toBe(true);
    expect(info.dispatch).toContain(d.thresholds[0]!.backend);
    if (d.candidates.length === 1 || !d.calibrated) {
      expect(d.thresholds).toHaveLength(1);
      return;
    }
    expect(d.sizes.map((s) => s.messages)).toEqual(CALIBRATION_SIZES);
    for (const s of d.sizes) {
      expect(Object.keys(s.nsPerMessage).sort()).toEqual([...d.candidates].sort());
      expect(Object.values(s.nsPerMessage).every((t) => t! > 0 && Number.isFinite(t))).toBe(true);
    }
    expect([1, 2]).toContain(d.passes);
    expect(d.cost.messages).toBe(d.passes * calibrationBudget(d.candidates.length));
    expect(d.cost.messages).toBeLessThanOrEqual(d.passes * STATED_MESSAGE_LIMIT);
    expect(d.cost.calls).toBeLessThanOrEqual(d.passes * STATED_CALL_LIMIT);
    // The thresholds are the per-size choices, merged.
    const auto = getBackend('auto') as AutoBackend;
    for (const s of d.sizes) expect(auto.backendFor(s.messages).name).toBe(s.chosen);
  });

  const root = fileURLToPath(new URL('../../..', import.meta.url));
  function child(env: Record<string, string>): { name: string; report: ReturnType<typeof hasherReport>; runs: number } {
    const script = [
      "const h = await import('@ssztree/hasher');",
      "const c = await import('./packages/hasher/src/dispatch/calibrate.ts');",
      'const name = h.getHasher(); const runs = c.calibrationsRun();',
      'console.log(JSON.stringify({ name, runs, report: h.hasherReport() }));',
    ].join(' ');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--conditions=source', '--input-type=module', '-e', script], {
      cwd: root,
      env: { ...process.env, SSZTREE_HASHER: '', SSZTREE_HASHER_CALIBRATE: '', ...env },
      encoding: 'utf8',
    });
    return JSON.parse(out.trim().split('\n').at(-1)!);
  }

  it.runIf(info.available)('calibrates once at first use by default', () => {
    const r = child({});
    expect(r.name).toBe('auto');
    expect(r.runs).toBe(r.report.dispatch!.candidates.length > 1 ? 1 : 0);
  });

  it.runIf(info.available)('SSZTREE_HASHER_CALIBRATE=0 skips the measurements: the first candidate hashes every size', () => {
    const r = child({ SSZTREE_HASHER_CALIBRATE: '0' });
    expect(r.name).toBe('auto');
    expect(r.runs).toBe(0);
    const d = r.report.dispatch!;
    expect(d.calibrated).toBe(false);
    expect(d.reason).toBe('SSZTREE_HASHER_CALIBRATE=0');
    expect(d.thresholds).toEqual([{ fromMessages: 1, backend: d.candidates[0] }]);
    expect(d.cost).toEqual({ messages: 0, calls: 0, ms: 0 });
    expect(d.passes).toBe(0);
  });

  it.runIf(info.available)('SSZTREE_HASHER forces one backend and then nothing is calibrated at start-up', () => {
    const forced = listHashers().find((h) => h.available && h.name !== 'auto')!.name;
    const r = child({ SSZTREE_HASHER: forced });
    expect(r.name).toBe(forced);
    expect(r.runs).toBe(0);
    expect(r.report.active).toBe(forced);
  });
});
