/**
 * The oracle: what must hold for one input.
 *
 * Our decode either throws an SszError (with sane fields: a known code, a
 * type path starting at the type's name, an offset inside the input) or
 * returns a value that re-serializes to exactly the input. ChainSafe decodes
 * the same bytes in a try: when we accept, it must accept too, re-serialize
 * to the same bytes and compute the same hashTreeRoot; when we reject, it
 * must reject too, unless a documented leniency of theirs explains it.
 * `deserializeToView`, a second decoder that builds the tree straight from
 * the bytes, must reach the same verdict (same error, or same root and bytes).
 * Anything else — another exception type, an SszError that wraps a host
 * error (`RangeError: …`), a disagreement, a slow decode — is a failure.
 */
import type { NodeStore } from '@ssztree/core';
import { SszError, toHex, type SszType } from '@ssztree/types';
import { peerType } from '../differential/bridge.js';
import { explainLeniency } from './leniencies.js';

export type Verdict =
  | { readonly kind: 'accept' }
  | { readonly kind: 'reject'; readonly code: string }
  | { readonly kind: 'leniency'; readonly id: string; readonly code: string }
  | { readonly kind: 'failure'; readonly what: string; readonly ours: string; readonly chainsafe: string };

const CODES = new Set([
  'SHORT_INPUT',
  'TRAILING_BYTES',
  'BAD_SIZE',
  'BAD_OFFSET',
  'BAD_BOOLEAN',
  'BAD_BITS',
  'LIMIT_EXCEEDED',
  'BOUND_EXCEEDED',
  'BAD_SELECTOR',
  'INVALID_VALUE',
]);
/** An SszError made by `withPath` around a host exception: a decoder bug, not a rejection. */
const WRAPPED_HOST_ERROR = /^(RangeError|TypeError|ReferenceError|SyntaxError|Error|InternalError): /;

/** Our decode may take this long for an input of `size` bytes before it counts as a failure (generous: shared, niced CPUs). */
export function timeBoundMs(size: number): number {
  return 2000 + size / 1000; // 2 s + 1 µs per byte
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** The first 100 bytes of a (failure-report) serialization as hex, or why there is none. */
function head(bytes: () => Uint8Array): string {
  try {
    const b = bytes();
    return toHex(b.subarray(0, 100)) + (b.length > 100 ? `… (${b.length} bytes)` : '');
  } catch (e) {
    return `(cannot serialize: ${e instanceof Error ? e.message : String(e)})`;
  }
}

function describe(e: unknown): string {
  if (e instanceof SszError) return `SszError ${e.message}`;
  if (e instanceof Error) return `${e.name}: ${e.message}\n${(e.stack ?? '').split('\n').slice(1, 6).join('\n')}`;
  return `non-Error thrown: ${String(e)}`;
}

export interface Observed {
  readonly verdict: Verdict;
  /** Milliseconds our decode took. */
  readonly decodeMs: number;
}

/**
 * How `deserializeToView` is held to `deserialize`'s outcome:
 * - `verdict`: the same acceptance and error code, and when accepted the same root and bytes;
 * - `exact`: also the same type path and offset in every error;
 * - `off`: not run.
 */
export type ViewCheck = 'off' | 'verdict' | 'exact';

export interface CheckOptions {
  /** Default `verdict` (see docs/RELIABILITY.md, open findings, for why not `exact` yet). */
  readonly views?: ViewCheck;
  /** The store views are built in (default: the shared default store). */
  readonly store?: NodeStore;
  /** Sweep the store after disposing the view (default true; a long loop may sweep every so often instead). */
  readonly collect?: boolean;
}

/**
 * `deserializeToView` is a second decoder (it builds the tree from the bytes
 * without a value): it must reject exactly what `deserialize` rejects, with
 * the same code (and, in `exact` mode, path and offset), and otherwise give
 * the same root and bytes.
 * Returns a failure description, or null.
 */
function checkView(
  type: SszType<unknown>,
  bytes: Uint8Array,
  ourError: SszError | null,
  ourRoot: string | null,
  mode: ViewCheck,
  store: NodeStore | undefined,
  collect: boolean,
): [string, string] | null {
  let view: ReturnType<SszType<unknown>['deserializeToView']> | undefined;
  try {
    view = type.deserializeToView(bytes, store);
  } catch (e) {
    if (!(e instanceof SszError)) return ['non-SszError thrown by deserializeToView', describe(e)];
    if (WRAPPED_HOST_ERROR.test(e.detail)) return ['host error wrapped as SszError by deserializeToView (a decoder bug)', describe(e)];
    if (ourError === null) return ['deserializeToView rejects what deserialize accepts', describe(e)];
    if (e.code !== ourError.code || (mode === 'exact' && (e.typePath !== ourError.typePath || e.offset !== ourError.offset))) {
      return ['deserializeToView rejects with another error than deserialize', `view: ${describe(e)}; deserialize: ${describe(ourError)}`];
    }
    return null;
  }
  try {
    if (ourError !== null) return ['deserializeToView accepts what deserialize rejects', `deserialize: ${describe(ourError)}`];
    const root = toHex(view.hashTreeRoot());
    if (root !== ourRoot) return ['deserializeToView gives another root', `view root ${root}, value root ${ourRoot}`];
    if (!sameBytes(view.serialize(), bytes)) return ['deserializeToView re-serializes to other bytes', `view re-serializes to ${head(() => (view as { serialize(): Uint8Array }).serialize())}`];
    return null;
  } catch (e) {
    return ['a view from deserializeToView does not hash or serialize', describe(e)];
  } finally {
    const s = store ?? view.store;
    view.dispose();
    // Floating nodes are swept at safe points only (a macrotask, or collect()); fuzz loops are synchronous.
    if (collect) s.collect();
  }
}

export function check(type: SszType<unknown>, bytes: Uint8Array, options: CheckOptions = {}): Observed {
  const views = options.views ?? 'verdict';
  const t0 = performance.now();
  let value: unknown;
  let ourError: unknown = null;
  try {
    value = type.deserialize(bytes);
  } catch (e) {
    ourError = e;
  }
  const decodeMs = performance.now() - t0;
  const fail = (what: string, ours: string, chainsafe: string): Observed => ({ verdict: { kind: 'failure', what, ours, chainsafe }, decodeMs });

  if (decodeMs > timeBoundMs(bytes.length)) {
    return fail(`slow decode: ${decodeMs.toFixed(0)} ms for ${bytes.length} bytes (bound ${timeBoundMs(bytes.length).toFixed(0)} ms)`, ourError ? describe(ourError) : 'accepted', '');
  }

  const peer = peerType(type);
  let theirs: unknown;
  let theirError: unknown = null;
  try {
    theirs = peer.deserialize(bytes);
  } catch (e) {
    theirError = e;
  }
  const theirText = theirError === null ? 'accepted' : `rejected (${describe(theirError).split('\n')[0]})`;

  if (ourError !== null) {
    if (!(ourError instanceof SszError)) return fail('non-SszError thrown by deserialize', describe(ourError), theirText);
    const e = ourError;
    if (WRAPPED_HOST_ERROR.test(e.detail)) return fail('host error wrapped as SszError (a decoder bug)', describe(e), theirText);
    if (!CODES.has(e.code)) return fail(`unexpected error code ${e.code} from deserialize`, describe(e), theirText);
    if (!e.typePath.startsWith(type.typeName)) return fail(`type path does not start at ${type.typeName}`, describe(e), theirText);
    if (!(e.offset >= 0 && e.offset <= bytes.length)) return fail(`error offset ${e.offset} outside the input of ${bytes.length} bytes`, describe(e), theirText);
    const viewFailure = views !== 'off' ? checkView(type, bytes, e, null, views, options.store, options.collect ?? true) : null;
    if (viewFailure) return fail(viewFailure[0], viewFailure[1], theirText);
    if (theirError === null) {
      const leniency = explainLeniency(e);
      if (leniency) return { verdict: { kind: 'leniency', id: leniency.id, code: e.code }, decodeMs };
      return fail('we reject, ChainSafe accepts', describe(e), `accepted, re-serializes to ${head(() => peer.serialize(theirs))}`);
    }
    return { verdict: { kind: 'reject', code: e.code }, decodeMs };
  }

  // We accepted.
  let again: Uint8Array;
  let root: string;
  try {
    again = type.serialize(value);
    root = toHex(type.hashTreeRoot(value));
  } catch (e) {
    return fail('a decoded value does not serialize or hash', describe(e), theirText);
  }
  if (!sameBytes(again, bytes)) return fail('round trip changes the bytes', `re-serializes to ${head(() => again)}`, theirText);
  if (theirError !== null) return fail('we accept, ChainSafe rejects', 'accepted', theirText);
  let theirBytes: Uint8Array;
  let theirRoot: string;
  try {
    theirBytes = peer.serialize(theirs);
    theirRoot = toHex(peer.hashTreeRoot(theirs));
  } catch (e) {
    return fail('ChainSafe cannot re-serialize or hash its own decoded value', 'accepted', describe(e));
  }
  if (!sameBytes(theirBytes, bytes)) return fail('ChainSafe round trip changes the bytes', 'accepted, round trip exact', `re-serializes to ${head(() => theirBytes)}`);
  if (theirRoot !== root) return fail('hashTreeRoot differs from ChainSafe', `root ${root}`, `root ${theirRoot}`);
  const viewFailure = views !== 'off' ? checkView(type, bytes, null, root, views, options.store, options.collect ?? true) : null;
  if (viewFailure) return fail(viewFailure[0], viewFailure[1], theirText);
  return { verdict: { kind: 'accept' }, decodeMs };
}
