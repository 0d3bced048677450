/**
 * `ssztree encode <Type> <file.json> [-o out] [--snappy]`: SSZ bytes of a
 * JSON/YAML (or SSZ) value, to a file or stdout; `--snappy` writes the
 * snappy framing format.
 *
 * Invariant: binary output never goes to a terminal.
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError, EXIT_OK } from '../errors.js';
import { type Context, loadTyped, positionals } from '../context.js';
import { encodeFramed } from '../snappy.js';

export async function encodeCommand(ctx: Context): Promise<number> {
  const [typeName, file] = positionals(ctx, ['<Type>', '<file>']) as [string, string];
  const out = ctx.args.values.get('output');
  if ((out === undefined || out === '-') && ctx.io.stdoutIsTTY) {
    throw new CliError('refusing to write binary SSZ to a terminal: use -o <file> or redirect stdout');
  }
  const { type, input } = await loadTyped(ctx, typeName, file);
  const { value, progress } = input;
  let bytes = progress.phase('encoding', () => type.type.serialize(value));
  if (ctx.args.flags.has('snappy')) bytes = progress.phase('compressing', () => encodeFramed(bytes));
  progress.clear();
  if (out === undefined || out === '-') ctx.io.writeOut(bytes);
  else {
    try {
      await writeFile(resolve(ctx.io.cwd, out), bytes);
    } catch (e) {
      throw new CliError(`cannot write ${out}: ${(e as Error).message}`);
    }
  }
  return EXIT_OK;
}
