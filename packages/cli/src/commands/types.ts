/**
 * `ssztree types [fork] [--preset mainnet|minimal]`: the known type names,
 * one per line.
 * @module
 */
import { EXIT_OK, UsageError } from '../errors.js';
import type { Context } from '../context.js';
import { listTypes } from '../registry.js';

export function typesCommand(ctx: Context): number {
  const p = ctx.args.positionals;
  if (p.length > 1) throw new UsageError(`unexpected argument "${p[1]}"`);
  const fork = p[0] ?? ctx.args.values.get('fork');
  ctx.io.writeOut(listTypes(ctx.preset, fork).map((t) => `${t.name}\n`).join(''));
  return EXIT_OK;
}
