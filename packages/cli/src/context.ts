/**
 * What every command gets: the io boundary, its parsed arguments, and the
 * shared options (preset, input format, progress mode) read from them.
 * @module
 */
import type { ParsedArgs } from './args.js';
import { UsageError } from './errors.js';
import { forkPicker } from './forkPick.js';
import { loadValue, type InputOptions, type LoadedValue, type ProgressMode } from './input.js';
import type { CliIo } from './io.js';
import { parsePreset, resolveType, type NamedType, type PresetName } from './registry.js';

export interface Context {
  readonly io: CliIo;
  readonly args: ParsedArgs;
  readonly preset: PresetName;
  readonly input: InputOptions;
  /** `--network`: the fork schedule that picks the fork of a type named without one (default mainnet). */
  readonly network: string;
}

export function makeContext(io: CliIo, args: ParsedArgs): Context {
  const progress: ProgressMode = args.flags.has('no-progress') ? 'off' : args.flags.has('progress') ? 'on' : 'auto';
  const format = args.values.get('format');
  const input = format === undefined ? { progress } : { format, progress };
  return { io, args, preset: parsePreset(args.values.get('preset')), input, network: args.values.get('network') ?? 'mainnet' };
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

/**
 * The type `name` names and the input `file` read as it: `<fork>.<Container>`
 * as given, or a container named without its fork, the fork picked from the
 * input on `--network`'s schedule (`forkPick.ts`).
 */
export async function loadTyped(ctx: Context, name: string, file: string, decode = true): Promise<{ type: NamedType; input: LoadedValue }> {
  const given = name.includes('.') ? typeArg(ctx, name) : forkPicker(name, ctx.network, ctx.preset);
  const input = await loadValue(given, file, ctx.io, ctx.input, decode);
  return { type: input.type, input };
}

export function hex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}
