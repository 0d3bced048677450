/**
 * `ssztree root <Type> <file>`: the hash tree root, as 0x-hex on one line.
 * @module
 */
import { EXIT_OK } from '../errors.js';
import { type Context, hex, loadTyped, positionals } from '../context.js';

export async function rootCommand(ctx: Context): Promise<number> {
  const [typeName, file] = positionals(ctx, ['<Type>', '<file>']) as [string, string];
  const { type, input } = await loadTyped(ctx, typeName, file);
  const { value, progress } = input;
  const root = progress.phase('hashing', () => type.type.hashTreeRoot(value));
  progress.clear();
  ctx.io.writeOut(`${hex(root)}\n`);
  return EXIT_OK;
}
