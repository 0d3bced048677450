/**
 * A small deterministic PRNG (xoshiro128**, seeded through splitmix32) so a
 * fuzz run is reproducible from its seed. Each target gets its own stream
 * derived from the run seed and the target's name, so one target's inputs do
 * not depend on which other targets run or how long they run.
 */

function splitmix32(state: number): [number, number] {
  const s = (state + 0x9e3779b9) >>> 0;
  let z = s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [s, (z ^ (z >>> 16)) >>> 0];
}

/** FNV-1a over a string, for deriving per-target seeds. */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const out: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [next, z] = splitmix32(s);
      s = next;
      out.push(z);
    }
    [this.a, this.b, this.c, this.d] = out as [number, number, number, number];
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** A uniform uint32. */
  u32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** A uniform integer in [0, n) for n ≤ 2^32. */
  int(n: number): number {
    if (n <= 0) return 0;
    if (n <= 0x100000000) return Math.floor((this.u32() / 0x100000000) * n);
    return Math.floor(((this.u32() * 0x100000000 + this.u32()) / 2 ** 64) * n);
  }

  /** A uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.u32() / 0x100000000 < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      let w = this.u32();
      for (let j = i; j < Math.min(n, i + 4); j++, w >>>= 8) out[j] = w & 0xff;
    }
    return out;
  }

  /** A fresh generator derived from this one (for nested deterministic work). */
  fork(): Rng {
    return new Rng(this.u32());
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
