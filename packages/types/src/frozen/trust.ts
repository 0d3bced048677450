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
 * The common case — a record of primitives and byte arrays — allocates
 * nothing.
 */
export function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !isPlain(value)) return true; // typed arrays, BitArray: values by contract
  if (!Object.isFrozen(value)) return false;
  let stack: object[] | null = null;
  let seen: Set<object> | null = null;
  let v: object | undefined = value;
  while (v !== undefined) {
    const children: readonly unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (let i = 0; i < children.length; i++) {
      const c = children[i];
      if (typeof c !== 'object' || c === null || !isPlain(c)) continue;
      if (!Object.isFrozen(c)) return false;
      seen ??= new Set([value]);
      if (seen.has(c)) continue;
      seen.add(c);
      (stack ??= []).push(c);
    }
    v = stack?.pop();
  }
  return true;
}
