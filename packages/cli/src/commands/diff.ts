/**
 * `ssztree diff <Type> <a> <b> [--limit N]`: the field paths where two
 * values differ, one per line (`path: a -> b`); exit 0 when equal, 1 when
 * different, 2 on error, like diff(1).
 * @module
 */
import { CliError, EXIT_NO, EXIT_OK, UsageError } from '../errors.js';
import { type Context, loadTyped, positionals } from '../context.js';
import { TreeDiff } from '../diff.js';
import { buildTree } from '../tree.js';

export async function diffCommand(ctx: Context): Promise<number> {
  const [typeName, fileA, fileB] = positionals(ctx, ['<Type>', '<a>', '<b>']) as [string, string, string];
  if (fileA === '-' && fileB === '-') throw new UsageError('only one of <a> and <b> can be stdin');
  const limitArg = ctx.args.values.get('limit') ?? '20';
  if (!/^\d+$/.test(limitArg)) throw new UsageError(`--limit takes a count, got "${limitArg}"`);
  // SSZ inputs are not decoded to values: the trees are built from the bytes (validating them) and diffed alone.
  const { type, input: a } = await loadTyped(ctx, typeName, fileA, false);
  const { type: typeB, input: b } = await loadTyped(ctx, typeName, fileB, false);
  if (typeB.name !== type.name) throw new CliError(`${a.source} is ${type.name} and ${b.source} is ${typeB.name}: diff compares values of one type`);
  const treeA = buildTree(type, a, a.source);
  const treeB = buildTree(type, b, b.source);
  try {
    const lines = b.progress.phase('comparing', () => new TreeDiff(type.type, treeA, treeB, Number(limitArg)).run());
    a.progress.clear();
    b.progress.clear();
    if (lines.length > 0) ctx.io.writeOut(lines.map((l) => `${l}\n`).join(''));
    return lines.length > 0 ? EXIT_NO : EXIT_OK;
  } finally {
    treeA.dispose();
    treeB.dispose();
  }
}
