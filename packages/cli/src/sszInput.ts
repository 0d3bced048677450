/**
 * The SSZ bytes of a binary input (raw, framed snappy or block snappy),
 * checked against the type before the bulk is read: the size — the file's,
 * or the stream's decompressed size, known from its headers — against the
 * type's least and most encoded size, then the layout (`checkLayout`:
 * offsets and counts, from the few bytes they take), then the size against
 * memory, and only then one read of the whole, decompressed straight into
 * one buffer.
 *
 * Invariants: a wrong input is refused after reading its head and the few
 * bytes its layout names, whatever its size; a correct one is read once and
 * never copied; every failure is one `CliError` line naming the input, with
 * the type path and byte offset of the decoder's errors (counted in the
 * decompressed SSZ for snappy inputs) and the sizes for size errors.
 * @module
 */
import { SszError, type ByteReader } from '@ssztree/types';
import { CliError, describeSszError } from './errors.js';
import { resolveType, type NamedType } from './registry.js';
import { blockLength, checkExpansion, decodeBlock, isFramed } from './snappy.js';
import { FramedStream } from './snappyFrames.js';
import { checkFitsMemory, type InputSource } from './source.js';

export type BinaryFormat = 'ssz' | 'ssz_snappy';

/** What the byte offsets in errors count, for an input of `format`. */
export function offsetNote(format: string): string {
  return format === 'ssz_snappy' ? ' of the decompressed SSZ' : '';
}

/**
 * The SSZ view of a binary input: its size, then (after `prepare`) reads at
 * offsets, and the whole. `prepare` is where a raw snappy block is
 * decompressed: its tags can only be decoded from the start.
 */
export interface SszBytes {
  readonly size: number;
  prepare(): Promise<void>;
  readonly read: ByteReader;
  readAll(): Promise<Uint8Array>;
}

/** A snappy error as this input's one line. */
function inInput<T>(name: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof CliError) throw new CliError(`${name}: ${e.message}`);
    throw e;
  }
}

const ready = async (): Promise<void> => undefined;

export function sszOf(src: InputSource, format: BinaryFormat): SszBytes {
  if (format === 'ssz') return { size: src.size, prepare: ready, read: (s, e) => src.readAt(s, e), readAll: () => src.readAll() };
  const head = src.readAt(0, 16);
  if (isFramed(head)) {
    // One walk of the chunk headers: the decompressed size, before anything is decompressed.
    const stream = inInput(src.name, () => FramedStream.scan((s, e) => src.readAt(s, e), src.size));
    return {
      size: stream.size,
      prepare: ready,
      read: (s, e) => inInput(src.name, () => stream.readRange(s, e)),
      readAll: async () => inInput(src.name, () => stream.decompressAll((done) => src.progress.update(`decompressing ${src.name}`, done, src.size))),
    };
  }
  // The raw block format: its preamble declares the size.
  const { length, tags } = inInput(src.name, () => blockLength(head, 0, head.length));
  inInput(src.name, () => checkExpansion(length, src.size - tags, 0));
  let data: Uint8Array | null = null;
  return {
    size: length,
    async prepare() {
      if (data !== null) return;
      checkFitsMemory(src.name, length, `it decompresses to ${length} bytes`);
      const compressed = await src.readAll();
      data = inInput(src.name, () => src.progress.phase(`decompressing ${src.name}`, () => decodeBlock(compressed)));
    },
    read: (s, e) => (data as Uint8Array).subarray(s, e),
    readAll: async () => data as Uint8Array,
  };
}

/** The bound of `type`'s encoded sizes that `size` breaks, or null (the upper one is the type's byte bound: the spec's explicit bound where it gives one). */
function sizeFault(type: NamedType, size: number): string | null {
  const { fixedSize, minSize, maxSize, byteBound } = type.type;
  const a = `${/^[aeiou]/i.test(type.name) ? 'an' : 'a'} ${type.name}`;
  if (fixedSize !== null) return size === fixedSize ? null : `${a} is always ${fixedSize} bytes`;
  if (size < minSize) return `${a} is at least ${minSize} bytes`;
  if (size > byteBound) return `${a} is at most ${byteBound} bytes${byteBound < maxSize ? " (the spec's byte bound)" : ''}`;
  return null;
}

/**
 * When an input that does not fit `type` fits the same type of the other
 * preset — size bounds and layout, read from the same few bytes — the likely
 * mistake is the preset: say so. Never decodes the input (`read` null: the
 * bytes cannot be read at offsets yet, and only the size is compared).
 */
export function presetHint(type: NamedType, size: number, read: ByteReader | null): string {
  const other = type.preset === 'mainnet' ? 'minimal' : 'mainnet';
  const alt = resolveType(type.name, other);
  if (sizeFault(alt, size) !== null) return '';
  if (read === null) return ` (its size fits ${type.name} with --preset ${other})`;
  try {
    alt.type.checkLayout(size, read);
    return ` (its size and layout fit ${type.name} with --preset ${other})`;
  } catch {
    return '';
  }
}

/**
 * The SSZ bytes of `src` as `type`, after the size and layout checks; one
 * read (and decompression) of the whole. `ssz` is the input's SSZ view when
 * the caller made it already (to read the slot that picks the type).
 */
export async function loadSszBytes(type: NamedType, src: InputSource, format: BinaryFormat, ssz: SszBytes = sszOf(src, format)): Promise<Uint8Array> {
  const what = format === 'ssz' ? `${ssz.size} bytes` : `${ssz.size} bytes once decompressed`;
  const fault = sizeFault(type, ssz.size);
  if (fault !== null) throw new CliError(`${src.name}: ${what}, but ${fault}${presetHint(type, ssz.size, ssz.prepare === ready ? ssz.read : null)}`);
  await ssz.prepare();
  try {
    src.progress.phase(`checking the layout of ${src.name}`, () => type.type.checkLayout(ssz.size, ssz.read));
  } catch (e) {
    if (e instanceof SszError) throw new CliError(describeSszError(e, src.name, offsetNote(format)) + presetHint(type, ssz.size, ssz.read));
    throw e;
  }
  // A layout that fits, of an input too large to hold: said before any attempt to read it.
  checkFitsMemory(src.name, ssz.size, what);
  return ssz.readAll();
}
