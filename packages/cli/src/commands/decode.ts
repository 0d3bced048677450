/**
 * `ssztree decode <Type> <file> [--json|--yaml]`: the value in the consensus
 * API's JSON form (the library's `toJson`), as JSON (default) or YAML
 * (`yamlWrite.ts`).
 * @module
 */
import { EXIT_OK, UsageError } from '../errors.js';
import { type Context, loadTyped, positionals } from '../context.js';
import { writeYaml } from '../yamlWrite.js';

export async function decodeCommand(ctx: Context): Promise<number> {
  const [typeName, file] = positionals(ctx, ['<Type>', '<file>']) as [string, string];
  const { flags } = ctx.args;
  if (flags.has('json') && flags.has('yaml')) throw new UsageError('choose one of --json and --yaml');
  const { type, input } = await loadTyped(ctx, typeName, file);
  const { value, progress } = input;
  const json = type.type.toJson(value);
  if (flags.has('yaml')) {
    progress.clear();
    // Written in pieces as it is built: never the whole text at once.
    writeYaml(json, (piece) => ctx.io.writeOut(piece));
    return EXIT_OK;
  }
  const text = `${JSON.stringify(json, null, 2)}\n`;
  progress.clear();
  ctx.io.writeOut(text);
  return EXIT_OK;
}
