/**
 * Paged struct-of-arrays storage for the nodes of one kind.
 *
 * A node is a slot number; its fields live at the same offset in parallel
 * typed-array pages: a 32-byte hash (one `Uint8Array` page the hasher reads
 * and writes directly, with an `Int32Array` view for word copies), a
 * reference count, a flag byte, and — per kind — two child links and a dirty
 * height (branches) or a block of chunks (wide leaves). Pages are allocated
 * as the pool grows and never copied, so growth costs one page, not a copy of
 * the store.
 *
 * Bytes per node: branch 32 + 4 + 4 + 4 + 1 + 1 = 46; leaf and opaque
 * 32 + 4 + 1 = 37; wide leaf of c chunks 32c + 32 + 4 + 1.
 *
 * Invariant: a slot is on the free list only when its FREE flag is set and
 * neither PENDING (listed for hashing) nor NURSERY (listed as floating) is,
 * so no list can ever hold an id whose slot has been handed out again.
 * @module
 */
import { CoreError } from './errors.js';
import { IdList } from './idList.js';
import { MAX_SLOTS } from './ids.js';

/** The slot holds no live node (it waits on a list or on the free list). */
export const FLAG_FREE = 1;
/** The slot is listed in the nursery (created floating, not yet swept). */
export const FLAG_NURSERY = 2;
/** The slot is listed for hashing (an unhashed branch or wide leaf). */
export const FLAG_PENDING = 4;

export interface PoolOptions {
  readonly kind: number;
  /** log2 of the slots per page. */
  readonly pageShift: number;
  /** Branches: child links and a dirty height. */
  readonly links?: boolean;
  /** Wide leaves: chunks per node. */
  readonly chunks?: number;
}

export class Pool {
  readonly kind: number;
  readonly shift: number;
  readonly mask: number;
  readonly pageSize: number;
  readonly links: boolean;
  readonly chunks: number;

  readonly h8: Uint8Array[] = [];
  readonly h32: Int32Array[] = [];
  readonly rc: Int32Array[] = [];
  readonly flags: Uint8Array[] = [];
  readonly left: Int32Array[] = [];
  readonly right: Int32Array[] = [];
  /** Dirty height: 0 once hashed, else 1 + the children's maximum. */
  readonly dh: Uint8Array[] = [];
  readonly d8: Uint8Array[] = [];
  readonly d32: Int32Array[] = [];

  /** Slots [0, top) have been handed out at least once. */
  top = 0;
  /** Slots currently holding a live node. */
  live = 0;
  readonly free = new IdList();

  constructor(options: PoolOptions) {
    this.kind = options.kind;
    this.shift = options.pageShift;
    this.pageSize = 1 << options.pageShift;
    this.mask = this.pageSize - 1;
    this.links = options.links ?? false;
    this.chunks = options.chunks ?? 0;
  }

  /** A slot for a new node: a recycled one if any, else the next fresh one. */
  alloc(): number {
    this.live++;
    if (this.free.length > 0) return this.free.pop();
    const slot = this.top;
    this.reserve(slot + 1);
    this.top = slot + 1;
    return slot;
  }

  /**
   * `count` fresh contiguous slots starting at an even slot, so that
   * siblings allocated pairwise never straddle a page boundary (pages hold
   * an even number of slots). A skipped odd slot goes to the free list.
   */
  allocRange(count: number): number {
    let start = this.top;
    if ((start & 1) === 1) {
      this.reserve(start + 1);
      this.flags[start >>> this.shift]![start & this.mask] = FLAG_FREE;
      this.free.push(start);
      start++;
    }
    this.reserve(start + count);
    this.top = start + count;
    this.live += count;
    return start;
  }

  /** Makes sure pages exist for slots [0, end). */
  reserve(end: number): void {
    if (end > MAX_SLOTS) throw new CoreError('STORE_FULL', `pool ${this.kind}: more than ${MAX_SLOTS} nodes`);
    while (this.h8.length << this.shift < end) this.addPage();
  }

  private addPage(): void {
    const n = this.pageSize;
    const hashes = new Uint8Array(32 * n);
    this.h8.push(hashes);
    this.h32.push(new Int32Array(hashes.buffer));
    this.rc.push(new Int32Array(n));
    this.flags.push(new Uint8Array(n));
    if (this.links) {
      this.left.push(new Int32Array(n));
      this.right.push(new Int32Array(n));
      this.dh.push(new Uint8Array(n));
    }
    if (this.chunks > 0) {
      const data = new Uint8Array(32 * this.chunks * n);
      this.d8.push(data);
      this.d32.push(new Int32Array(data.buffer));
    }
  }

  /** Bytes held by this pool's pages and free list. */
  byteLength(): number {
    const perSlot = 32 + 4 + 1 + (this.links ? 9 : 0) + 32 * this.chunks;
    return this.h8.length * this.pageSize * perSlot + this.free.byteLength;
  }
}
