/**
 * What every command gets: the io boundary, its parsed arguments, and the
 * shared options (preset, input format, progress mode) read from them.
 * @module
 */
import type { ParsedArgs } from './args.js';
import { UsageError } from './errors.js';
import type { InputOptions, ProgressMode } from './input.js';
import type { CliIo } from './io.js';
import { parsePreset, resolveType, type NamedType, type PresetName } from './registry.js';

export interface Context {
  readonly io: CliIo;
  readonly args: ParsedArgs;
  readonly preset: PresetName;
  readonly input: InputOptions;
}

export function makeContext(io: CliIo, args: ParsedArgs): Context {
  const progress: ProgressMode = args.flags.has('no-progress') ? 'off' : args.flags.has('progress') ? 'on' : 'auto';
  const format = args.values.get('format');
  return { io, args, preset: parsePreset(args.values.get('preset')), input: format === undefined ? { progress } : { format, progress } };
}

/** Exactly `names.length` positionals (or at least, with `rest`), else a usage error naming the first missing one. */
export function positionals(ctx: Context, names: readonly string[], rest = false): string[] {
  const p = ctx.args.positionals;
  if (p.length < names.length) throw new UsageError(`missing ${names[p.length]}`);
  if (!rest && p.length > names.length) throw new UsageError(`unexpected argument "${p[names.length]}"`);
  return p;
}

export function typeArg(ctx: Context, name: string): NamedType {
  return resolveType(name, ctx.preset);
}

export function hex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}
