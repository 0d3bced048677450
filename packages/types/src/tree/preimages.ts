/**
 * Preimages of the wide byte fields of packed records. A record (a small
 * fixed container stored as one core wide leaf, e.g. a Validator) holds one
 * chunk per field; a field wider than a chunk (a 48-byte pubkey) is there
 * only as its root. This table maps such roots back to their bytes, so a
 * record's value can be read back from the tree alone.
 *
 * Storage: open addressing in typed arrays (32-byte key + value per slot,
 * load ≤ 0.7): about 115 bytes per 48-byte pubkey, against ~200 for a JS
 * Map of strings. Entries are never removed: a root's preimage is a fact,
 * and a beacon node keeps every pubkey it has seen anyway.
 *
 * Invariant: `get(root)` returns bytes whose merkle root is `root`, or null.
 * @module
 */

const MAX_LOAD = 0.7;

export class PreimageTable {
  #cap = 1024;
  #count = 0;
  #keys = new Uint8Array(32 * 1024);
  #vals: Uint8Array;
  #used = new Uint8Array(1024);

  constructor(readonly valueLength: number) {
    this.#vals = new Uint8Array(valueLength * 1024);
  }

  get size(): number {
    return this.#count;
  }

  /** Bytes of typed-array storage held. */
  get byteLength(): number {
    return this.#keys.byteLength + this.#vals.byteLength + this.#used.byteLength;
  }

  #slot(root: Uint8Array, off: number): number {
    const mask = this.#cap - 1;
    // SHA-256 output: the first four bytes are as good a hash as any.
    let i = (root[off]! | (root[off + 1]! << 8) | (root[off + 2]! << 16) | (root[off + 3]! << 24)) & mask;
    const keys = this.#keys;
    for (;;) {
      if (this.#used[i] === 0) return i;
      let same = true;
      const k = 32 * i;
      for (let b = 0; b < 32; b++) {
        if (keys[k + b] !== root[off + b]) {
          same = false;
          break;
        }
      }
      if (same) return i;
      i = (i + 1) & mask;
    }
  }

  /** Records `value[valueOff, +valueLength)` as the preimage of `root[rootOff, +32)`. */
  set(root: Uint8Array, rootOff: number, value: Uint8Array, valueOff: number): void {
    if ((this.#count + 1) / this.#cap > MAX_LOAD) this.#grow();
    const i = this.#slot(root, rootOff);
    if (this.#used[i] === 1) return;
    this.#used[i] = 1;
    this.#count++;
    this.#keys.set(root.subarray(rootOff, rootOff + 32), 32 * i);
    const n = this.valueLength;
    this.#vals.set(value.subarray(valueOff, valueOff + n), n * i);
  }

  /** A copy of the preimage of `root[rootOff, +32)`, or null if unknown. */
  get(root: Uint8Array, rootOff: number): Uint8Array | null {
    const i = this.#slot(root, rootOff);
    if (this.#used[i] === 0) return null;
    const n = this.valueLength;
    return this.#vals.slice(n * i, n * i + n);
  }

  #grow(): void {
    const oldKeys = this.#keys;
    const oldVals = this.#vals;
    const oldUsed = this.#used;
    const oldCap = this.#cap;
    const n = this.valueLength;
    this.#cap = oldCap * 2;
    this.#keys = new Uint8Array(32 * this.#cap);
    this.#vals = new Uint8Array(n * this.#cap);
    this.#used = new Uint8Array(this.#cap);
    for (let j = 0; j < oldCap; j++) {
      if (oldUsed[j] === 0) continue;
      const i = this.#slot(oldKeys, 32 * j);
      this.#used[i] = 1;
      this.#keys.set(oldKeys.subarray(32 * j, 32 * j + 32), 32 * i);
      this.#vals.set(oldVals.subarray(n * j, n * j + n), n * i);
    }
  }
}

const tables = new Map<number, PreimageTable>();

/** The process-wide table for byte fields of `length` bytes. */
export function preimages(length: number): PreimageTable {
  let t = tables.get(length);
  if (t === undefined) {
    t = new PreimageTable(length);
    tables.set(length, t);
  }
  return t;
}

/** Bytes held by every preimage table (for memory reports). */
export function preimageBytes(): number {
  let n = 0;
  for (const t of tables.values()) n += t.byteLength;
  return n;
}
