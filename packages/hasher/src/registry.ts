/**
 * The active backend: every hashing call of this package goes through the one
 * held here. Chosen on first use (`selection.ts`): `SSZTREE_HASHER` if set and
 * available, else the fastest backend that loads and passes the self-check.
 *
 * A browser main thread may refuse to compile large WebAssembly modules
 * synchronously, and then the synchronous first-use choice falls back to
 * `js`; {@link initHasher} (awaited once at start-up) compiles the wasm
 * backend asynchronously and switches to it.
 * @module
 */
import type { HasherBackend, HasherName } from './backend.js';
import { createAvx512Backend } from './backends/avx512.js';
import { createHashtreeBackend } from './backends/hashtree.js';
import { createJsBackend } from './backends/js.js';
import { createNobleBackend } from './backends/noble.js';
import { createWasmBackend, createWasmBackendAsync } from './backends/wasm.js';
import { HasherError } from './errors.js';
import { loadChecked, measuredFaster, selectBackend, type BackendFactory } from './selection.js';

/**
 * Fastest first: the default is the first of these that loads and self-checks,
 * except that `avx512` goes behind `hashtree` where it did not measure faster
 * ({@link preferenceHere}).
 */
const PREFERENCE: readonly HasherName[] = ['avx512', 'hashtree', 'wasm', 'js', 'noble'];

const FACTORIES: Record<HasherName, BackendFactory> = {
  // Layers too small for a 16-lane group go to hashtree when it is installed.
  avx512: () => {
    const small = load('hashtree');
    return createAvx512Backend(small instanceof HasherError ? undefined : small);
  },
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
let measuredPreference: readonly HasherName[] | undefined;

/**
 * {@link PREFERENCE} as measured on this machine. Sixteen AVX-512 lanes beat
 * hashtree's SHA-NI on the Xeons we measured (38 against 65 ns a message), but
 * where AVX-512 is slow (CPUs that split 512-bit operations, or lower clocks
 * under AVX-512) hashtree may win; so when both load, `avx512` stays first
 * only if it hashes a layer at least 10% faster here. Measured once, about a
 * millisecond; an override (`SSZTREE_HASHER`, `setHasher`) skips it.
 */
function preferenceHere(): readonly HasherName[] {
  if (measuredPreference === undefined) {
    const avx512 = load('avx512');
    const hashtree = load('hashtree');
    const now = () => performance.now();
    const keep = avx512 instanceof HasherError || hashtree instanceof HasherError || measuredFaster(avx512, hashtree, now);
    measuredPreference = keep ? PREFERENCE : ['hashtree', 'avx512', ...PREFERENCE.filter((n) => n !== 'hashtree' && n !== 'avx512')];
  }
  return measuredPreference;
}

/** The backend every call uses; chosen on first use. */
export function activeBackend(): HasherBackend {
  if (active === undefined) {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    const override = env?.SSZTREE_HASHER;
    const selection = selectBackend(override ? PREFERENCE : preferenceHere(), load, override);
    active = selection.backend;
    notice = selection.notice;
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
  const selection = selectBackend(override ? PREFERENCE : preferenceHere(), load, override);
  active = selection.backend;
  notice = selection.notice;
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

/** Every backend, fastest first, with whether it is available here. */
export function listHashers(): HasherInfo[] {
  return PREFERENCE.map((name) => {
    const outcome = load(name);
    return outcome instanceof HasherError ? { name, available: false, reason: outcome.message } : { name, available: true };
  });
}

/** A specific backend, bypassing the active one (for tests and benchmarks). */
export function getBackend(name: HasherName): HasherBackend {
  const outcome = load(requireName(name));
  if (outcome instanceof HasherError) throw outcome;
  return outcome;
}
