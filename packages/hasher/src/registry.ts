/**
 * The active backend: every hashing call of this package goes through the one
 * held here. Chosen on first use (`selection.ts`): `SSZTREE_HASHER` if set and
 * available, else the first of {@link PREFERENCE} that loads and passes the
 * self-check — normally `auto`, which sends each call to the native kernel
 * measured fastest for its layer size at start-up (`dispatch/`).
 *
 * A browser main thread may refuse to compile large WebAssembly modules
 * synchronously, and then the synchronous first-use choice falls back to
 * `js`; {@link initHasher} (awaited once at start-up) compiles the wasm
 * backend asynchronously and switches to it.
 * @module
 */
import type { HasherBackend, HasherName } from './backend.js';
import type { Calibration, SizeTiming } from './dispatch/calibrate.js';
import type { Threshold } from './dispatch/auto.js';
import { createAvx512Backend } from './backends/avx512.js';
import { createHashtreeBackend } from './backends/hashtree.js';
import { createJsBackend } from './backends/js.js';
import { createNobleBackend } from './backends/noble.js';
import { createShaniBackend } from './backends/shani.js';
import { createWasmBackend, createWasmBackendAsync } from './backends/wasm.js';
import { describeDispatch, type AutoBackend } from './dispatch/auto.js';
import { autoFrom } from './dispatch/here.js';
import { HasherError } from './errors.js';
import { loadChecked, selectBackend, type BackendFactory } from './selection.js';

/**
 * The default is the first of these that loads and self-checks. `auto` is
 * available wherever one of its candidates (shani, avx512, hashtree) is; the
 * rest follow in the order of their speed everywhere we measured.
 */
const PREFERENCE: readonly HasherName[] = ['auto', 'shani', 'avx512', 'hashtree', 'wasm', 'js', 'noble'];

/** Why each of auto's candidates is unavailable, for hasherNotice(); filled when auto loads. */
let autoPassedOver: readonly string[] = [];

const FACTORIES: Record<HasherName, BackendFactory> = {
  auto: () => {
    const made = autoFrom(load);
    autoPassedOver = made.passedOver;
    return made.backend;
  },
  shani: createShaniBackend,
  avx512: createAvx512Backend,
  hashtree: createHashtreeBackend,
  wasm: () => createWasmBackend(),
  js: createJsBackend,
  noble: createNobleBackend,
};

export interface HasherInfo {
  readonly name: HasherName;
  /** Whether the backend loads here and passes the self-check. */
  readonly available: boolean;
  /** Why it is unavailable, when it is. */
  readonly reason?: string;
  /** For `auto`: which backend hashes which layer sizes, and how that was decided. */
  readonly dispatch?: string;
}

/** The reference for the self-check, independent of every other backend. */
const reference = createNobleBackend();
const loaded = new Map<HasherName, HasherBackend | HasherError>();

/** Loads and self-checks a backend once; remembers the outcome. */
function load(name: HasherName): HasherBackend | HasherError {
  let outcome = loaded.get(name);
  if (outcome === undefined) {
    outcome = loadChecked(name, FACTORIES[name], reference);
    loaded.set(name, outcome);
  }
  return outcome;
}

/** Names whose asynchronous load was already tried (so a failure is not retried on every call). */
const triedAsync = new Set<HasherName>();

/**
 * Like {@link load}, but compiles WebAssembly asynchronously, which a browser
 * main thread allows for modules of any size. A synchronous load that failed
 * earlier (compilation refused) is retried this way once.
 */
async function loadAsync(name: HasherName): Promise<HasherBackend | HasherError> {
  const prior = loaded.get(name);
  if (name !== 'wasm' || triedAsync.has(name) || (prior !== undefined && !(prior instanceof HasherError))) return load(name);
  triedAsync.add(name);
  let made: HasherBackend | undefined;
  let failure: unknown;
  try {
    made = await createWasmBackendAsync();
  } catch (cause) {
    failure = cause;
  }
  const outcome = loadChecked(name, () => {
    if (made === undefined) throw failure;
    return made;
  }, reference);
  loaded.set(name, outcome);
  return outcome;
}

function requireName(name: string): HasherName {
  if (!(PREFERENCE as readonly string[]).includes(name)) {
    throw new HasherError('UNKNOWN_HASHER', `unknown hasher "${name}"; expected one of ${PREFERENCE.join(', ')}`);
  }
  return name as HasherName;
}

let active: HasherBackend | undefined;
let notice: string | undefined;

/** The notice for a start-up choice: selectBackend's, or for `auto`, the candidates it runs without. */
function noticeFor(backend: HasherBackend, selected: string | undefined): string | undefined {
  if (selected !== undefined || backend.name !== 'auto' || autoPassedOver.length === 0) return selected;
  return `ssztree hasher: using auto over ${(backend as AutoBackend).candidates.join(', ')}; ${autoPassedOver.join('; ')}`;
}

/** The backend every call uses; chosen on first use. */
export function activeBackend(): HasherBackend {
  if (active === undefined) {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    const override = env?.SSZTREE_HASHER;
    const selection = selectBackend(PREFERENCE, load, override);
    active = selection.backend;
    notice = noticeFor(active, selection.notice);
  }
  return active;
}

/** Switches every subsequent hashing call to `name`; throws `HasherError` if it is unavailable. */
export function setHasher(name: HasherName): void {
  const outcome = load(requireName(name));
  if (outcome instanceof HasherError) throw outcome;
  active = outcome;
  notice = undefined;
}

/**
 * Chooses the backend as first use would, but may await the loading:
 * WebAssembly is compiled asynchronously, so on a browser main thread this
 * selects `wasm` where the synchronous choice could only have `js`. With
 * `name`, switches to that backend (throws `HasherError` if unavailable).
 * Hashing works before and during the await (with the synchronous choice);
 * resolves to the backend now active.
 */
export async function initHasher(name?: HasherName): Promise<HasherName> {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (name !== undefined) {
    const outcome = await loadAsync(requireName(name));
    if (outcome instanceof HasherError) throw outcome;
    active = outcome;
    notice = undefined;
    return outcome.name;
  }
  const override = env?.SSZTREE_HASHER;
  if (override !== undefined && (PREFERENCE as readonly string[]).includes(override)) await loadAsync(override as HasherName);
  // Load in preference order up to the first that works; selectBackend then reads the outcomes.
  for (const candidate of PREFERENCE) {
    if (!((await loadAsync(candidate)) instanceof HasherError)) break;
  }
  const selection = selectBackend(PREFERENCE, load, override);
  active = selection.backend;
  notice = noticeFor(active, selection.notice);
  return active.name;
}

/** The name of the active backend. */
export function getHasher(): HasherName {
  return activeBackend().name;
}

/**
 * One line saying which backend the start-up choice fell back to and why
 * (e.g. the native module did not load), or undefined when the preferred one
 * is in use. Never printed by the library itself.
 */
export function hasherNotice(): string | undefined {
  activeBackend();
  return notice;
}

/** Every backend, in preference order, with whether it is available here (and for `auto`, what it dispatches to). */
export function listHashers(): HasherInfo[] {
  return PREFERENCE.map((name) => {
    const outcome = load(name);
    if (outcome instanceof HasherError) return { name, available: false, reason: outcome.message };
    return name === 'auto' ? { name, available: true, dispatch: describeDispatch(outcome as AutoBackend) } : { name, available: true };
  });
}

/** `auto`'s dispatch as measured here: the candidates' ns per message at each calibrated size and the choice. */
export interface DispatchReport {
  readonly candidates: readonly HasherName[];
  /** False when nothing was measured (one candidate, or SSZTREE_HASHER_CALIBRATE=0); `reason` says which. */
  readonly calibrated: boolean;
  readonly reason?: string;
  readonly thresholds: readonly Threshold[];
  readonly sizes: readonly SizeTiming[];
  /** Calibration passes merged so far: 1 from start-up, 2 once a second pass ran (after 4 Mi messages). */
  readonly passes: number;
  /** What the calibration cost: messages hashed, hashInto calls, milliseconds. */
  readonly cost: Calibration['cost'];
}

export interface HasherReport {
  /** The backend every call uses now. */
  readonly active: HasherName;
  /** `auto`'s measured dispatch, when `auto` is available here (whether or not it is active). */
  readonly dispatch?: DispatchReport;
}

/** What the hasher chose and why: the active backend and `auto`'s measurements per layer size. */
export function hasherReport(): HasherReport {
  const name = activeBackend().name;
  const auto = load('auto');
  if (auto instanceof HasherError) return { active: name };
  const a = auto as AutoBackend;
  const dispatch: DispatchReport = {
    candidates: a.candidates,
    calibrated: a.calibration !== undefined,
    ...(a.uncalibrated === undefined ? {} : { reason: a.uncalibrated }),
    thresholds: a.thresholds,
    sizes: a.calibration?.sizes ?? [],
    passes: a.calibration?.passes ?? 0,
    cost: a.calibration?.cost ?? { messages: 0, calls: 0, ms: 0 },
  };
  return { active: name, dispatch };
}

/** A specific backend, bypassing the active one (for tests and benchmarks). */
export function getBackend(name: HasherName): HasherBackend {
  const outcome = load(requireName(name));
  if (outcome instanceof HasherError) throw outcome;
  return outcome;
}
