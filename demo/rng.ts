/**
 * A small seeded generator (xorshift32) for the demo's synthetic data: the
 * same seed gives the same state and the same blocks, so a run can be
 * repeated and both libraries in `--compare` see identical writes.
 * Not cryptographic; it only has to be fast and deterministic.
 */
export class Rng {
  private s: number;

  constructor(seed: number) {
    // Spread small seeds over the state space; xorshift must never hold 0.
    this.s = Math.imul(seed >>> 0, 2654435761) >>> 0 || 1;
  }

  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    let s = this.s;
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    this.s = s >>> 0;
    return this.s;
  }

  /** A uniform integer in [0, n) for n ≤ 2^32. */
  int(n: number): number {
    return Math.floor((this.u32() / 2 ** 32) * n);
  }

  /** Fills `out` with random bytes and returns it. */
  fill(out: Uint8Array): Uint8Array {
    let i = 0;
    for (; i + 4 <= out.length; i += 4) {
      const w = this.u32();
      out[i] = w;
      out[i + 1] = w >>> 8;
      out[i + 2] = w >>> 16;
      out[i + 3] = w >>> 24;
    }
    for (; i < out.length; i++) out[i] = this.u32();
    return out;
  }

  /** `n` fresh random bytes. */
  bytes(n: number): Uint8Array {
    return this.fill(new Uint8Array(n));
  }
}
