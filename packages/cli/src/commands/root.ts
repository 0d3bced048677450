/**
 * `ssztree root <Type> <file>`: the hash tree root, as 0x-hex on one line.
 * @module
 */
import { EXIT_OK } from '../errors.js';
import { type Context, hex, positionals, typeArg } from '../context.js';
import { loadValue } from '../input.js';

export async function rootCommand(ctx: Context): Promise<number> {
  const [typeName, file] = positionals(ctx, ['<Type>', '<file>']) as [string, string];
  const type = typeArg(ctx, typeName);
  const { value, progress } = await loadValue(type, file, ctx.io, ctx.input);
  const root = progress.phase('hashing', () => type.type.hashTreeRoot(value));
  progress.clear();
  ctx.io.writeOut(`${hex(root)}\n`);
  return EXIT_OK;
}
