/**
 * Reading an input (a file, or `-` for stdin) into a value of a schema:
 * raw SSZ, snappy SSZ (framing format when the stream identifier is there,
 * else the raw block format of the spec vectors), JSON or YAML in the
 * consensus API form (`toJson`'s form; a beacon API envelope `{data: …}` is
 * unwrapped).
 *
 * Invariant: every failure is a `CliError` of one line naming the input;
 * decoding failures keep the schema's type path and byte offset, counted in
 * the (decompressed) SSZ bytes. JSON numbers that a double cannot hold
 * exactly are refused rather than rounded.
 * @module
 */
import { open, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { SszError } from '@ssztree/types';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { CliError, UsageError, describeSszError } from './errors.js';
import type { CliIo } from './io.js';
import { PROGRESS_THRESHOLD, Progress } from './progress.js';
import { resolveType, type NamedType } from './registry.js';
import { decodeBlock, decodeFramed, isFramed } from './snappy.js';

export type InputFormat = 'ssz' | 'ssz_snappy' | 'json' | 'yaml';
export const FORMATS: readonly InputFormat[] = ['ssz', 'ssz_snappy', 'json', 'yaml'];

/** `on`: always draw; `off`: never; `auto`: when stderr is a TTY and the input is large. */
export type ProgressMode = 'auto' | 'on' | 'off';

export interface InputOptions {
  readonly format?: string;
  readonly progress: ProgressMode;
}

export interface LoadedValue {
  /** The decoded value; undefined when SSZ input was loaded with `decode: false` (bytes only). */
  readonly value: unknown;
  readonly format: InputFormat;
  /** How the input is named in messages. */
  readonly source: string;
  readonly progress: Progress;
  /** The SSZ bytes, when the input was (snappy) SSZ: trees are built straight from them. */
  readonly bytes: Uint8Array | null;
}

const READ_CHUNK = 4 * 1024 * 1024;

function progressFor(io: CliIo, mode: ProgressMode, size: number): Progress {
  const on = mode === 'on' || (mode === 'auto' && io.stderrIsTTY && size >= PROGRESS_THRESHOLD);
  return new Progress((t) => io.writeErr(t), on);
}

/** All bytes of `path` (`-`: stdin), with a progress bar for large files. */
export async function readInput(path: string, io: CliIo, mode: ProgressMode): Promise<{ data: Uint8Array; progress: Progress }> {
  if (path === '-') {
    const data = await io.readStdin();
    return { data, progress: progressFor(io, mode, data.length) };
  }
  const full = resolve(io.cwd, path);
  try {
    const info = await stat(full);
    if (info.isDirectory()) throw new CliError(`cannot read ${path}: it is a directory`);
    const progress = progressFor(io, mode, info.size);
    const handle = await open(full, 'r');
    try {
      const data = new Uint8Array(info.size);
      let done = 0;
      while (done < data.length) {
        const { bytesRead } = await handle.read(data, done, Math.min(READ_CHUNK, data.length - done), done);
        if (bytesRead === 0) break;
        done += bytesRead;
        progress.update(`reading ${path}`, done, data.length);
      }
      return { data: done === data.length ? data : data.subarray(0, done), progress };
    } finally {
      await handle.close();
    }
  } catch (e) {
    if (e instanceof CliError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new CliError(`cannot read ${path}: ${why}`);
  }
}

/** The format named by `override`, else by the file extension, else by the content. */
export function detectFormat(path: string, data: Uint8Array, override?: string): InputFormat {
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
  if (isFramed(data)) return 'ssz_snappy';
  if (looksLikeJson(data)) return 'json';
  return 'ssz';
}

/** Text starting with `{` or `[` (after whitespace) that parses as JSON. */
function looksLikeJson(data: Uint8Array): boolean {
  let i = 0;
  while (i < data.length && (data[i] === 0x20 || data[i] === 0x0a || data[i] === 0x0d || data[i] === 0x09)) i++;
  if (data[i] !== 0x7b && data[i] !== 0x5b) return false;
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
    return true;
  } catch {
    return false;
  }
}

/** The SSZ bytes of a (possibly snappy) binary input. */
export function sszBytes(data: Uint8Array, format: 'ssz' | 'ssz_snappy', source: string, progress: Progress): Uint8Array {
  if (format === 'ssz') return data;
  try {
    if (isFramed(data)) return decodeFramed(data, (done) => progress.update(`decompressing ${source}`, done, data.length));
    return progress.phase(`decompressing ${source}`, () => decodeBlock(data));
  } catch (e) {
    if (e instanceof CliError) throw new CliError(`${source}: ${e.message}`);
    throw e;
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
 * When bytes that fail to decode as `type` do decode as the same type of the
 * other preset, the likely mistake is the preset: say so. Only runs after a
 * failure, so a correct input never pays for it.
 */
export function presetHint(type: NamedType, bytes: Uint8Array): string {
  const other = type.preset === 'mainnet' ? 'minimal' : 'mainnet';
  try {
    resolveType(type.name, other).type.deserialize(bytes);
    return ` (it decodes as ${type.name} with --preset ${other})`;
  } catch {
    return '';
  }
}

/** What the byte offsets in errors count, for an input of `format`. */
export function offsetNote(format: InputFormat): string {
  return format === 'ssz_snappy' ? ' of the decompressed SSZ' : '';
}

/**
 * Reads `path` and decodes it as a value of `type`. With `decode` false,
 * SSZ input is only read (and decompressed): whoever uses the bytes
 * validates them (`deserializeToView` does). `preread` is the input when it
 * was read already (to pick the fork from it; stdin reads once).
 */
export async function loadValue(
  type: NamedType,
  path: string,
  io: CliIo,
  options: InputOptions,
  decode = true,
  preread?: { data: Uint8Array; progress: Progress },
): Promise<LoadedValue> {
  const source = path === '-' ? 'stdin' : path;
  const { data, progress } = preread ?? (await readInput(path, io, options.progress));
  const format = detectFormat(path, data, options.format);
  try {
    let value: unknown;
    let bytes: Uint8Array | null = null;
    if (format === 'ssz' || format === 'ssz_snappy') {
      const ssz = sszBytes(data, format, source, progress);
      bytes = ssz;
      const note = offsetNote(format);
      try {
        if (!decode) return { value: undefined, format, source, progress, bytes };
        value = progress.phase(`decoding ${source}`, () => type.type.deserialize(ssz));
      } catch (e) {
        if (e instanceof SszError) throw new CliError(describeSszError(e, source, note) + presetHint(type, ssz));
        throw e;
      }
    } else {
      const text = decodeText(data, source);
      let json: unknown;
      if (format === 'json') json = progress.phase(`parsing ${source}`, () => parseJson(text, source));
      else {
        try {
          json = parseYaml(text, { intAsBigInt: true });
        } catch (e) {
          if (e instanceof YAMLParseError) throw new CliError(`${source}: invalid YAML: ${e.message.split('\n')[0]}`);
          throw e;
        }
      }
      try {
        value = type.type.fromJson(unwrapEnvelope(json, type));
      } catch (e) {
        if (e instanceof SszError) throw new CliError(describeSszError(e, source));
        throw e;
      }
    }
    return { value, format, source, progress, bytes };
  } finally {
    progress.clear();
  }
}
