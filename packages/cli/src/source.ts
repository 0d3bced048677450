/**
 * An input as the loaders see it: its size, reads of a few bytes at any
 * offset (for format detection and layout checks, before the bulk is read),
 * and one read of the whole. A file is opened once and read at offsets;
 * stdin is read whole first (a pipe cannot be read at offsets).
 *
 * Invariants: nothing larger than `memoryLimit()` is ever allocated for an
 * input — a larger one is a `CliError` naming both sizes before any read;
 * every failure is one `CliError` line naming the input; `readAll` reads the
 * file once, into one buffer that no copy follows.
 * @module
 */
import { constants as bufferConstants } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { totalmem } from 'node:os';
import { resolve } from 'node:path';
import { CliError } from './errors.js';
import type { CliIo } from './io.js';
import { PROGRESS_THRESHOLD, Progress, type ProgressMode } from './progress.js';

/** Bytes per read of a whole file: large enough to stream at disk speed, small enough for a smooth progress bar. */
const READ_CHUNK = 4 * 1024 * 1024;

/**
 * The most bytes one input may occupy in memory: Node's largest buffer
 * (4 GiB on 64-bit Node 20) or the machine's memory, whichever is smaller.
 */
export function memoryLimit(): { bytes: number; why: string } {
  const buffer = bufferConstants.MAX_LENGTH;
  const ram = totalmem();
  return buffer <= ram ? { bytes: buffer, why: `Node's largest buffer is ${buffer} bytes` } : { bytes: ram, why: `this machine has ${ram} bytes of memory` };
}

/** Fails unless `size` bytes fit in memory; `what` says what they are ("1073741824 bytes", "decompresses to …"). */
export function checkFitsMemory(name: string, size: number, what = `${size} bytes`): void {
  const limit = memoryLimit();
  if (size > limit.bytes) throw new CliError(`${name}: ${what}: more than fits in memory at once (${limit.why})`);
}

export interface InputSource {
  /** How the input is named in messages: the path as given, or `stdin`. */
  readonly name: string;
  readonly size: number;
  readonly progress: Progress;
  /** Bytes `[start, end)` (clamped to the input); a file is read at that offset. */
  readAt(start: number, end: number): Uint8Array;
  /** The whole input, read once. */
  readAll(): Promise<Uint8Array>;
  close(): void;
}

function progressFor(io: CliIo, mode: ProgressMode, size: number): Progress {
  const on = mode === 'on' || (mode === 'auto' && io.stderrIsTTY && size >= PROGRESS_THRESHOLD);
  return new Progress((t) => io.writeErr(t), on);
}

function cannotRead(path: string, e: unknown): CliError {
  if (e instanceof CliError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message;
  return new CliError(`cannot read ${path}: ${why}`);
}

/** Opens `path` (`-`: stdin, read whole, at most `memoryLimit()` bytes). */
export async function openSource(path: string, io: CliIo, mode: ProgressMode): Promise<InputSource> {
  if (path === '-') {
    const limit = memoryLimit();
    const data = await io.readStdin(limit.bytes);
    if (data.length > limit.bytes) throw new CliError(`stdin: more than ${limit.bytes} bytes: more than fits in memory at once (${limit.why})`);
    return memorySource('stdin', data, progressFor(io, mode, data.length));
  }
  const full = resolve(io.cwd, path);
  let fd: number;
  let size: number;
  try {
    fd = openSync(full, 'r');
    const info = fstatSync(fd);
    if (info.isDirectory()) {
      closeSync(fd);
      throw new CliError(`cannot read ${path}: it is a directory`);
    }
    size = info.size;
  } catch (e) {
    throw cannotRead(path, e);
  }
  return fileSource(path, fd, size, progressFor(io, mode, size));
}

/** Bytes already in memory (stdin, or a decompressed stream) as a source. */
export function memorySource(name: string, data: Uint8Array, progress: Progress): InputSource {
  return {
    name,
    size: data.length,
    progress,
    readAt: (start, end) => data.subarray(start, end),
    readAll: async () => data,
    close: () => undefined,
  };
}

function fileSource(name: string, fd: number, size: number, progress: Progress): InputSource {
  let isOpen = true;
  /** Reads `out.length` bytes from `position` into `out` (fewer at the end of the file); `onChunk` after each read. */
  const readInto = (out: Uint8Array, position: number, onChunk?: (done: number) => void): Uint8Array => {
    let done = 0;
    try {
      while (done < out.length) {
        const n = readSync(fd, out, done, Math.min(READ_CHUNK, out.length - done), position + done);
        if (n === 0) break;
        done += n;
        onChunk?.(done);
      }
    } catch (e) {
      throw cannotRead(name, e);
    }
    return done === out.length ? out : out.subarray(0, done);
  };
  return {
    name,
    size,
    progress,
    readAt(start, end) {
      const from = Math.min(Math.max(start, 0), size);
      return readInto(new Uint8Array(Math.min(Math.max(end, from), size) - from), from);
    },
    async readAll() {
      checkFitsMemory(name, size);
      // Not zero-filled first: every byte is read into it.
      const buffer = Buffer.allocUnsafeSlow(size);
      return readInto(new Uint8Array(buffer.buffer, buffer.byteOffset, size), 0, (done) => progress.update(`reading ${name}`, done, size));
    },
    close() {
      if (isOpen) closeSync(fd);
      isOpen = false;
    },
  };
}
