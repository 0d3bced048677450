/**
 * A growable stack of 32-bit integers in one `Int32Array`: the pending
 * (unhashed) lists, free lists and the nursery. Growth doubles the array, so
 * pushes are amortised O(1) and the list costs 4 bytes per entry, not a JS
 * array's boxed slots.
 * @module
 */
export class IdList {
  items: Int32Array;
  length = 0;

  constructor(capacity = 64) {
    this.items = new Int32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.items.length) this.grow();
    this.items[this.length++] = value;
  }

  pop(): number {
    return this.items[--this.length]!;
  }

  clear(): void {
    this.length = 0;
  }

  /** Drops the backing array when it is much larger than what is in use. */
  shrink(keep = 64): void {
    if (this.items.length > 4 * Math.max(keep, this.length)) {
      const next = new Int32Array(Math.max(keep, this.length));
      next.set(this.items.subarray(0, this.length));
      this.items = next;
    }
  }

  private grow(): void {
    const next = new Int32Array(this.items.length * 2);
    next.set(this.items);
    this.items = next;
  }

  get byteLength(): number {
    return this.items.byteLength;
  }
}
