/**
 * Reading an input (a file, or `-` for stdin) into a value of a schema:
 * raw SSZ, snappy SSZ (framing format when the stream identifier is there,
 * else the raw block format of the spec vectors), JSON or YAML in the
 * consensus API form (`toJson`'s form; a beacon API envelope `{data: …}` is
 * unwrapped).
 *
 * Invariants: every failure is a `CliError` of one line naming the input;
 * decoding failures keep the schema's type path and byte offset, counted in
 * the (decompressed) SSZ bytes. An input is read once; before that only its
 * first 64 KiB (format, text checks) and, for binary input, the few bytes
 * its layout names (`sszInput.ts`), so a wrong input of any size is refused
 * without being read. JSON numbers that a double cannot hold exactly are
 * refused rather than rounded.
 * @module
 */
import { constants as bufferConstants } from 'node:buffer';
import { extname } from 'node:path';
import { SszError, type ByteReader } from '@ssztree/types';
import { YAMLParseError } from 'yaml';
import { CliError, UsageError, describeSszError } from './errors.js';
import type { CliIo } from './io.js';
import type { Progress, ProgressMode } from './progress.js';
import type { NamedType } from './registry.js';
import { isFramed } from './snappy.js';
import { loadSszBytes, offsetNote, sszOf } from './sszInput.js';
import { openSource, type InputSource } from './source.js';
import { readYaml } from './yamlRead.js';

export { offsetNote, presetHint } from './sszInput.js';

export type InputFormat = 'ssz' | 'ssz_snappy' | 'json' | 'yaml';
export const FORMATS: readonly InputFormat[] = ['ssz', 'ssz_snappy', 'json', 'yaml'];

export type { ProgressMode } from './progress.js';

export interface InputOptions {
  readonly format?: string;
  readonly progress: ProgressMode;
}

/**
 * Picks the type of an input from the input itself, for a type named without
 * its fork (`forkPick.ts`): from the first bytes of SSZ input (read at
 * offsets, before the bulk), or from the parsed JSON/YAML.
 */
export interface TypePicker {
  fromSsz(read: ByteReader, size: number, source: string, format: 'ssz' | 'ssz_snappy'): NamedType;
  fromJson(json: unknown, source: string): NamedType;
}

export interface LoadedValue {
  /** The type the input was read as (the one given, or the one a `TypePicker` picked). */
  readonly type: NamedType;
  /** The decoded value; undefined when SSZ input was loaded with `decode: false` (bytes only). */
  readonly value: unknown;
  readonly format: InputFormat;
  /** How the input is named in messages. */
  readonly source: string;
  readonly progress: Progress;
  /** The SSZ bytes, when the input was (snappy) SSZ: trees are built straight from them. */
  readonly bytes: Uint8Array | null;
}

/** Format detection and the text checks look at this many leading bytes, never more. */
const HEAD_BYTES = 64 * 1024;

/** All bytes of `path` (`-`: stdin), read once, and its progress bar. */
export async function readInput(path: string, io: CliIo, mode: ProgressMode): Promise<{ data: Uint8Array; progress: Progress }> {
  const src = await openSource(path, io, mode);
  try {
    return { data: await src.readAll(), progress: src.progress };
  } finally {
    src.close();
  }
}

/** The format named by `override`, else by the file extension, else by the input's first bytes. */
export function detectFormat(path: string, head: Uint8Array, override?: string): InputFormat {
  if (override !== undefined) {
    const f = override === 'snappy' ? 'ssz_snappy' : override === 'yml' ? 'yaml' : override;
    if (!(FORMATS as readonly string[]).includes(f)) throw new UsageError(`unknown input format "${override}" (use ${FORMATS.join(', ')})`);
    return f as InputFormat;
  }
  const ext = path === '-' ? '' : extname(path).toLowerCase();
  if (ext === '.ssz') return 'ssz';
  if (ext === '.ssz_snappy' || ext === '.snappy') return 'ssz_snappy';
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (isFramed(head)) return 'ssz_snappy';
  if (textFault(head) === null && /^[\t\n\r ]*[{[]/.test(new TextDecoder().decode(head.subarray(0, 256)))) return 'json';
  return 'ssz';
}

/**
 * Why `head` (the first bytes of an input) cannot begin a text value: not
 * UTF-8, or a control character JSON and YAML never hold outside strings
 * (NUL, …); null when it can. A multi-byte character cut off at the end of
 * the head is fine.
 */
function textFault(head: Uint8Array): string | null {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return 'not UTF-8 text';
  }
  for (let i = 0; i < head.length; i++) {
    const b = head[i] as number;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return `not text: control byte 0x${b.toString(16).padStart(2, '0')} at byte ${i}`;
  }
  return null;
}

/** Checks a JSON or YAML input before it is read whole: text, small enough to be one string, and (JSON) an object or array. */
function checkText(src: InputSource, format: 'json' | 'yaml'): void {
  // A UTF-8 text of n bytes decodes to at most n UTF-16 units: a string holds at most this many.
  const most = bufferConstants.MAX_STRING_LENGTH;
  if (src.size > most) throw new CliError(`${src.name}: ${src.size} bytes is too large for ${format === 'json' ? 'JSON' : 'YAML'} text here (at most ${most} bytes: Node's longest string)`);
  const head = src.readAt(0, HEAD_BYTES);
  const fault = textFault(head);
  if (fault !== null) throw new CliError(`${src.name}: ${fault} (use --format ssz for binary input)`);
  if (format === 'json') {
    const first = /[^\t\n\r ]/.exec(new TextDecoder().decode(head.subarray(0, 1024)));
    if (first !== null && first[0] !== '{' && first[0] !== '[') {
      throw new CliError(`${src.name}: invalid JSON: a value of a consensus type is an object, but the text starts with ${JSON.stringify(first[0])}`);
    }
  }
}

/** Parses JSON, refusing integers a double rounds (uint64 values belong in strings). */
export function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text, (key, value: unknown) => {
      if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
        throw new CliError(`${source}: the JSON number at "${key}" is above 2^53 and would be rounded; write it as a decimal string`);
      }
      return value;
    });
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${source}: invalid JSON: ${(e as Error).message}`);
  }
}

function decodeText(data: Uint8Array, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new CliError(`${source}: not UTF-8 text (use --format ssz for binary input)`);
  }
}

const ENVELOPE_KEYS = new Set(['version', 'execution_optimistic', 'finalized', 'data', 'dependent_root']);

/** A beacon API response `{version?, …, data}` holds the value in `data`. */
function unwrapEnvelope(json: unknown, type: NamedType): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  const keys = Object.keys(json);
  const fields = (type.type as { fields?: Record<string, unknown> }).fields;
  if (keys.includes('data') && keys.every((k) => ENVELOPE_KEYS.has(k)) && !(fields !== undefined && 'data' in fields)) {
    return (json as { data: unknown }).data;
  }
  return json;
}

/**
 * Reads `path` and decodes it as a value of `type` (or of the type `type`
 * picks from the input). Binary input is checked (size, layout) before it is
 * read whole and decoded without a copy; with `decode` false it is only
 * checked and read (and decompressed): whoever uses the bytes validates the
 * rest (`deserializeToView` does).
 */
export async function loadValue(
  given: NamedType | TypePicker,
  path: string,
  io: CliIo,
  options: InputOptions,
  decode = true,
): Promise<LoadedValue> {
  const src = await openSource(path, io, options.progress);
  const { name: source, progress } = src;
  try {
    const format = detectFormat(path, src.readAt(0, HEAD_BYTES), options.format);
    if (format === 'ssz' || format === 'ssz_snappy') {
      const ssz = sszOf(src, format);
      let type: NamedType;
      if ('type' in given) type = given;
      else {
        // The slot sits in the first bytes: a raw snappy block is decompressed for it, a framed stream only its first chunk.
        await ssz.prepare();
        type = given.fromSsz(ssz.read, ssz.size, source, format);
      }
      const bytes = await loadSszBytes(type, src, format, ssz);
      if (!decode) return { type, value: undefined, format, source, progress, bytes };
      try {
        // The bytes were read for this decode alone: the value may view them (no copy of the input).
        const value = progress.phase(`decoding ${source}`, () => type.type.deserialize(bytes, { copy: false }));
        return { type, value, format, source, progress, bytes };
      } catch (e) {
        if (e instanceof SszError) throw new CliError(describeSszError(e, source, offsetNote(format)));
        throw e;
      }
    }
    checkText(src, format);
    const text = decodeText(await src.readAll(), source);
    let json: unknown;
    if (format === 'json') json = progress.phase(`parsing ${source}`, () => parseJson(text, source));
    else {
      try {
        json = progress.phase(`parsing ${source}`, () => readYaml(text));
      } catch (e) {
        if (e instanceof YAMLParseError) throw new CliError(`${source}: invalid YAML: ${e.message.split('\n')[0]}`);
        throw e;
      }
    }
    const type = 'type' in given ? given : given.fromJson(json, source);
    try {
      return { type, value: type.type.fromJson(unwrapEnvelope(json, type)), format, source, progress, bytes: null };
    } catch (e) {
      if (e instanceof SszError) throw new CliError(describeSszError(e, source));
      throw e;
    }
  } finally {
    src.close();
    progress.clear();
  }
}
