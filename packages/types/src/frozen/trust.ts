/**
 * When a plain value may be recognised by identity: the trust rule of the
 * frozen-value root cache.
 *
 * A value is trusted when it is "deeply frozen": every array and plain
 * object in it is `Object.isFrozen`. Freezing is permanent, so a value that
 * was deeply frozen once stays exactly as it was for as long as it lives.
 * `Object.freeze` is shallow: a frozen array holding an unfrozen object is
 * not trusted, because that object could still change behind our back.
 *
 * Typed arrays (byte fields, `BigUint64Array` balances) and other class
 * instances (`BitArray`) cannot be frozen by JavaScript, and immer neither
 * drafts nor freezes them either: inside a frozen value they are treated as
 * values that are replaced, never written in place (immer's own contract
 * for non-draftable objects). That is the one assumption the cache makes.
 *
 * Invariant: `isDeepFrozen` never returns true for a value with an
 * unfrozen array or plain object anywhere below it.
 * @module
 */

/** True for plain objects (`{...}`, `Object.create(null)`) and arrays: what immer drafts and freezes. */
export function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** True when every array and plain object in `value` is frozen (see the module header). */
export function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!isPlain(value)) return true; // typed arrays, BitArray: values by contract
  if (!Object.isFrozen(value)) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i] as unknown;
      if (typeof v === 'object' && v !== null && !isDeepFrozen(v)) return false;
    }
    return true;
  }
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === 'object' && v !== null && !isDeepFrozen(v)) return false;
  }
  return true;
}
