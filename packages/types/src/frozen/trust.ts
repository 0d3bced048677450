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

/**
 * True when every array and plain object in `value` is frozen (see the
 * module header). Iterative, with a visited set, so deep or cyclic values
 * (not SSZ values, but a caller may pass one) cannot overflow the stack.
 */
export function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  const seen = new Set<object>();
  const stack: object[] = [value];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    if (!isPlain(v) || seen.has(v)) continue; // typed arrays, BitArray: values by contract
    if (!Object.isFrozen(v)) return false;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const c = v[i] as unknown;
        if (typeof c === 'object' && c !== null) stack.push(c);
      }
    } else {
      for (const key in v) {
        const c = (v as Record<string, unknown>)[key];
        if (typeof c === 'object' && c !== null) stack.push(c);
      }
    }
  }
  return true;
}
