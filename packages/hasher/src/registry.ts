/**
 * The active backend: every hashing call of this package goes through the one
 * held here. Chosen on first use (`selection.ts`): `SSZTREE_HASHER` if set and
 * available, else the fastest backend that loads and passes the self-check.
 * @module
 */
import type { HasherBackend, HasherName } from './backend.js';
import { createHashtreeBackend } from './backends/hashtree.js';
import { createJsBackend } from './backends/js.js';
import { createNobleBackend } from './backends/noble.js';
import { createWasmBackend } from './backends/wasm.js';
import { HasherError } from './errors.js';
import { loadChecked, selectBackend, type BackendFactory } from './selection.js';

/** Fastest first: the default is the first of these that loads and self-checks. */
const PREFERENCE: readonly HasherName[] = ['hashtree', 'wasm', 'js', 'noble'];

const FACTORIES: Record<HasherName, BackendFactory> = {
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

function requireName(name: string): HasherName {
  if (!(PREFERENCE as readonly string[]).includes(name)) {
    throw new HasherError('UNKNOWN_HASHER', `unknown hasher "${name}"; expected one of ${PREFERENCE.join(', ')}`);
  }
  return name as HasherName;
}

let active: HasherBackend | undefined;
let notice: string | undefined;

/** The backend every call uses; chosen on first use. */
export function activeBackend(): HasherBackend {
  if (active === undefined) {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    const selection = selectBackend(PREFERENCE, load, env?.SSZTREE_HASHER);
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
