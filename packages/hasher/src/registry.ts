/**
 * Backend selection. Holds the one active backend that every hashing call of
 * this package goes through.
 *
 * Invariant: the active backend has passed `selfCheck` (its output equals the
 * reference on a small layer, including an in-place fold), so a backend that
 * loads but computes wrong digests is never used.
 * @module
 */
import type { HasherBackend, HasherName } from './backend.js';
import { createHashtreeBackend } from './backends/hashtree.js';
import { createJsBackend } from './backends/js.js';
import { createNobleBackend } from './backends/noble.js';
import { createWasmBackend } from './backends/wasm.js';
import { HasherError } from './errors.js';

/** Fastest first: the default is the first of these that loads and self-checks. */
const PREFERENCE: readonly HasherName[] = ['hashtree', 'wasm', 'js', 'noble'];

const FACTORIES: Record<HasherName, () => HasherBackend> = {
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

const loaded = new Map<HasherName, HasherBackend | HasherError>();

/** The reference for the self-check, independent of every backend. */
const referenceBackend = createNobleBackend();

function selfCheck(backend: HasherBackend): boolean {
  // Seven messages (covers 4-lane groups with a remainder), a patterned input.
  const count = 7;
  const input = new Uint8Array(64 * count);
  for (let i = 0; i < input.length; i++) input[i] = (i * 131 + 7) & 0xff;
  const expected = new Uint8Array(32 * count);
  referenceBackend.hashInto(input, expected);
  const actual = new Uint8Array(32 * count);
  backend.hashInto(input, actual);
  if (!equalBytes(actual, expected)) return false;
  // In-place: fold the input onto the front of its own buffer.
  const inPlace = input.slice();
  backend.hashInto(inPlace.subarray(0, 64 * 6), inPlace.subarray(0, 32 * 6));
  return equalBytes(inPlace.subarray(0, 32 * 6), expected.subarray(0, 32 * 6));
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isHasherName(name: string): name is HasherName {
  return (PREFERENCE as readonly string[]).includes(name);
}

/** Loads and self-checks a backend once; remembers the outcome. */
function load(name: HasherName): HasherBackend | HasherError {
  let outcome = loaded.get(name);
  if (outcome !== undefined) return outcome;
  try {
    const backend = FACTORIES[name]();
    outcome = selfCheck(backend) ? backend : new HasherError('HASHER_UNAVAILABLE', `${name}: failed its self-check`);
  } catch (cause) {
    outcome =
      cause instanceof HasherError
        ? cause
        : new HasherError('HASHER_UNAVAILABLE', `${name}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  loaded.set(name, outcome);
  return outcome;
}

function requireName(name: string): HasherName {
  if (!isHasherName(name)) {
    throw new HasherError('UNKNOWN_HASHER', `unknown hasher "${name}"; expected one of ${PREFERENCE.join(', ')}`);
  }
  return name;
}

function chooseDefault(): HasherBackend {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.SSZTREE_HASHER;
  if (env !== undefined && env !== '') {
    const outcome = load(requireName(env));
    if (outcome instanceof HasherError) throw outcome;
    return outcome;
  }
  for (const name of PREFERENCE) {
    const outcome = load(name);
    if (!(outcome instanceof HasherError)) return outcome;
  }
  // Unreachable in practice: `noble` is a dependency and always loads.
  throw new HasherError('HASHER_UNAVAILABLE', 'no hasher backend is available');
}

let active: HasherBackend | undefined;

/** The backend every call uses; chosen on first use. */
export function activeBackend(): HasherBackend {
  return (active ??= chooseDefault());
}

/** Switches every subsequent hashing call to `name`; throws `HasherError` if it is unavailable. */
export function setHasher(name: HasherName): void {
  const outcome = load(requireName(name));
  if (outcome instanceof HasherError) throw outcome;
  active = outcome;
}

/** The name of the active backend. */
export function getHasher(): HasherName {
  return activeBackend().name;
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
