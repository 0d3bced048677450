/**
 * Roots of container values, in batches (container.ts): each value gets a
 * row of 2^depth chunks; basic and one-chunk fields are written straight
 * into the rows by the container's codec, wider composite fields are hashed
 * column by column through their type's batched `_rootsInto`, then all rows
 * fold together, one `hashInto` per level. The same rows feed packed
 * records (`containerRecords.ts`, through `eachBatch`).
 *
 * Errors: the batched pass keeps no path bookkeeping, so a failing value is
 * found again one by one and its field re-derived, and the error carries
 * the element index and field path.
 * @module
 */
import { withPath } from '../errors.js';
import { batchSize, foldSubtrees, growScratch, scatterRoots } from '../merkle.js';
import type { generateCodec } from './containerCodegen.js';
import type { FieldInfo } from './containerRecords.js';

export class ContainerRoots {
  /** Fields whose roots need hashing (composites wider than one chunk). */
  private readonly hashedFields: readonly { readonly info: FieldInfo; readonly index: number }[];
  /** Batch scratch, reused across calls (a container never contains itself, so no re-entry). */
  private scratch: Uint8Array | null = null;

  constructor(
    private readonly infos: readonly FieldInfo[],
    private readonly depth: number,
    private readonly codec: ReturnType<typeof generateCodec>,
  ) {
    this.hashedFields = infos.map((info, index) => ({ info, index })).filter(({ info }) => !info.basic && !info.rootIsChunk);
  }

  /** The root of one value into `out[offset, offset + 32)`. */
  rootInto(value: unknown, out: Uint8Array, offset: number): void {
    try {
      this.batchRoots([value], out, offset, 32);
    } catch (e) {
      this.explainRootError(value);
      throw e;
    }
  }

  /** The roots of `values`, root i at `out[offset + stride·i]`. */
  rootsInto(values: readonly unknown[], out: Uint8Array, offset: number, stride: number): void {
    try {
      this.batchRoots(values, out, offset, stride);
    } catch (e) {
      // The batched pass keeps no path bookkeeping; find the failing value again, one by one.
      const scratch = new Uint8Array(32);
      for (let i = 0; i < values.length; i++) {
        try {
          this.rootInto(values[i], scratch, 0);
        } catch (inner) {
          throw withPath(inner, `[${i}]`);
        }
      }
      throw e;
    }
  }

  /** Re-derives a root error field by field so it carries the field's path. */
  explainRootError(value: unknown): void {
    if (typeof value !== 'object' || value === null) return;
    const scratch = new Uint8Array(32);
    for (const f of this.infos) {
      try {
        f.type._rootInto((value as Record<string, unknown>)[f.name], scratch, 0);
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
  }

  private batchRoots(values: readonly unknown[], out: Uint8Array, offset: number, outStride: number): void {
    this.eachBatch(values, (buf, first, count) => {
      foldSubtrees(buf, count, this.depth);
      scatterRoots(buf, 0, out, offset + outStride * first, count, outStride);
    });
  }

  /**
   * Fills rows of 2^depth field-root chunks for `values` batch by batch and
   * hands each batch to `use(buf, first, count)`.
   */
  eachBatch(values: readonly unknown[], use: (buf: Uint8Array, first: number, count: number) => void): void {
    const depth = this.depth;
    const stride = 32 << depth;
    const batch = batchSize(depth);
    const cap = Math.min(batch, values.length);
    const buf = (this.scratch = growScratch(this.scratch, stride * cap));
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const hashed = this.hashedFields;
    const column = hashed.length > 0 ? new Array<unknown>(cap) : null;
    for (let first = 0; first < values.length; first += batch) {
      const count = Math.min(batch, values.length - first);
      buf.fill(0, 0, stride * count);
      this.codec.fill(values, first, count, buf, dv, stride);
      for (const { info, index } of hashed) {
        const col = column as unknown[];
        col.length = count;
        for (let i = 0; i < count; i++) col[i] = (values[first + i] as Record<string, unknown>)[info.name];
        // Field roots land directly in their chunk of every row.
        info.type._rootsInto(col, buf, 32 * index, stride);
      }
      use(buf, first, count);
    }
  }
}
