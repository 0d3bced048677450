/**
 * Choosing a backend, as pure functions over factories so tests can force
 * every failure: a factory that throws (a missing native module, WebAssembly
 * refused), a backend that loads but hashes wrong (fails the self-check), an
 * override naming something unavailable.
 *
 * Invariant: a backend is only ever returned after it has matched the
 * reference on a 39-message layer (two 16-lane groups, 4-lane groups and a
 * remainder, so every backend's wide path runs, not only a small-layer
 * fallback) and a 38-message in-place fold.
 * @module
 */
import type { HasherBackend, HasherName } from './backend.js';
import { HasherError } from './errors.js';

export type BackendFactory = () => HasherBackend;

/** Loads one backend and checks it against `reference`; a failure becomes a `HasherError`. */
export function loadChecked(name: HasherName, factory: BackendFactory, reference: HasherBackend): HasherBackend | HasherError {
  let backend: HasherBackend;
  try {
    backend = factory();
  } catch (cause) {
    if (cause instanceof HasherError) return cause;
    return new HasherError('HASHER_UNAVAILABLE', `${name}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  try {
    if (!selfCheck(backend, reference)) return new HasherError('HASHER_UNAVAILABLE', `${name}: failed its self-check`);
  } catch (cause) {
    return new HasherError('HASHER_UNAVAILABLE', `${name}: failed its self-check (${cause instanceof Error ? cause.message : String(cause)})`);
  }
  return backend;
}

const CHECK_COUNT = 39;
const checkInput = new Uint8Array(64 * CHECK_COUNT);
for (let i = 0; i < checkInput.length; i++) checkInput[i] = (i * 131 + 7) & 0xff;
/** The reference's digests of the check layer, computed once per reference (it is slow before the JIT warms up). */
const expectedBy = new WeakMap<HasherBackend, Uint8Array>();

function selfCheck(backend: HasherBackend, reference: HasherBackend): boolean {
  const count = CHECK_COUNT;
  const input = checkInput.slice();
  let expected = expectedBy.get(reference);
  if (expected === undefined) {
    expected = new Uint8Array(32 * count);
    reference.hashInto(input, expected);
    expectedBy.set(reference, expected);
  }
  const actual = new Uint8Array(32 * count);
  backend.hashInto(input, actual);
  if (!equalBytes(actual, expected)) return false;
  const inPlace = input.slice();
  const folded = count - 1;
  backend.hashInto(inPlace.subarray(0, 64 * folded), inPlace.subarray(0, 32 * folded));
  return equalBytes(inPlace.subarray(0, 32 * folded), expected.subarray(0, 32 * folded));
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface Selection {
  readonly backend: HasherBackend;
  /** One line saying why the preferred backend was not used; undefined when it was. */
  readonly notice: string | undefined;
}

/**
 * The backend to use: the one named by `override` if it loads, otherwise the
 * first of `preference` that loads. Never throws while any backend loads;
 * what was passed over is summed up in `notice`.
 */
export function selectBackend(
  preference: readonly HasherName[],
  load: (name: HasherName) => HasherBackend | HasherError,
  override: string | undefined,
): Selection {
  const skipped: string[] = [];
  if (override !== undefined && override !== '') {
    if ((preference as readonly string[]).includes(override)) {
      const outcome = load(override as HasherName);
      if (!(outcome instanceof HasherError)) return { backend: outcome, notice: undefined };
      skipped.push(`SSZTREE_HASHER=${override} is unavailable (${outcome.message})`);
    } else {
      skipped.push(`SSZTREE_HASHER=${override} is not a hasher (expected ${preference.join(', ')})`);
    }
  }
  for (const name of preference) {
    const outcome = load(name);
    if (outcome instanceof HasherError) {
      if (override === undefined || override === '') skipped.push(outcome.message);
      continue;
    }
    const notice = skipped.length === 0 ? undefined : `ssztree hasher: using ${name}; ${skipped.join('; ')}`;
    return { backend: outcome, notice };
  }
  throw new HasherError('HASHER_UNAVAILABLE', `no hasher backend is available: ${skipped.join('; ')}`);
}
