/**
 * `ssztree decode <Type> <file> [--json|--yaml]`: the value in the consensus
 * API's JSON form (the library's `toJson`), as JSON (default) or YAML.
 * @module
 */
import { stringify } from 'yaml';
import { EXIT_OK, UsageError } from '../errors.js';
import { type Context, loadTyped, positionals } from '../context.js';

export async function decodeCommand(ctx: Context): Promise<number> {
  const [typeName, file] = positionals(ctx, ['<Type>', '<file>']) as [string, string];
  const { flags } = ctx.args;
  if (flags.has('json') && flags.has('yaml')) throw new UsageError('choose one of --json and --yaml');
  const { type, input } = await loadTyped(ctx, typeName, file);
  const { value, progress } = input;
  const json = type.type.toJson(value);
  const text = flags.has('yaml') ? stringify(json, { lineWidth: 0 }) : `${JSON.stringify(json, null, 2)}\n`;
  progress.clear();
  ctx.io.writeOut(text);
  return EXIT_OK;
}
