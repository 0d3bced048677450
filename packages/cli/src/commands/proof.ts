/**
 * `ssztree proof <Type> <file> <path…>` and `ssztree verify-proof
 * <proof.json> [--root 0x…]`: merkle proofs of values by path, through the
 * library's `createProof` / `verifyProof`.
 *
 * Proof JSON: `{type, preset, root, paths, kind, gindices, leaves,
 * witnesses}`; gindices are decimal strings (they can exceed 2^53),
 * `witnesses` is the single proof's branch (leaf to root) or the
 * multiproof's helper hashes (in `helperIndices` order).
 *
 * Invariant: verify-proof accepts only when the hashes reach the root (the
 * given `--root`, else the file's) and, when the file names its type and
 * paths, the gindices are the ones those paths map to.
 * @module
 */
import { SszError, fromHex, verifyProof, type Path, type PathSegment, type ViewProof } from '@ssztree/types';
import { CliError, EXIT_NO, EXIT_OK, UsageError, describeSszError } from '../errors.js';
import { type Context, hex, loadTyped, positionals, typeArg } from '../context.js';
import { parseJson, readInput } from '../input.js';
import { buildTree } from '../tree.js';
import { resolveType, parsePreset } from '../registry.js';

/**
 * Paths from the words after `<file>`: words join with dots, commas separate
 * paths, `[5]` is `.5`, and all-digit segments are indices:
 * `validators 5 effective_balance`, `validators.5.effective_balance,slot`.
 */
export function parsePaths(words: readonly string[]): Path[] {
  const text = words.join('.').replace(/\[(\d+)\]/g, '.$1');
  return text.split(',').map((p) => {
    const segments = p.split('.').filter((s) => s !== '');
    if (segments.length === 0) throw new UsageError('an empty path (paths look like validators.5.effective_balance)');
    return segments.map((s): PathSegment => (/^\d+$/.test(s) ? Number(s) : s));
  });
}

export async function proofCommand(ctx: Context): Promise<number> {
  const [typeName, file, ...words] = positionals(ctx, ['<Type>', '<file>', '<path>'], true) as [string, string, ...string[]];
  const paths = parsePaths(words);
  // Bad paths fail before the (possibly large) file is read (for a type named without its fork, right after).
  const forked = typeName.includes('.');
  if (forked) for (const p of paths) mapSszError(() => typeArg(ctx, typeName).type.gindexOf(p), '');
  const { type, input } = await loadTyped(ctx, typeName, file, false);
  if (!forked) for (const p of paths) mapSszError(() => type.type.gindexOf(p), '');
  const { source, progress } = input;
  const tree = buildTree(type, input, source);
  try {
    const proof = progress.phase('proving', () => mapSszError(() => type.type.createProof(tree, paths), source));
    progress.clear();
    const single = proof.kind === 'single';
    const out = {
      type: type.name,
      preset: type.preset,
      root: hex(tree.root),
      paths,
      kind: proof.kind,
      gindices: (single ? [proof.gindex] : proof.gindices).map((g) => BigInt(g).toString()),
      leaves: (single ? [proof.leaf] : proof.leaves).map(hex),
      witnesses: (single ? proof.branch : proof.proof).map(hex),
    };
    // One path per line: indented, arrays of segments read badly.
    const text = JSON.stringify({ ...out, paths: paths.map((_, i) => `@path${i}`) }, null, 2).replace(/"@path(\d+)"/g, (_, i: string) => JSON.stringify(paths[Number(i)]));
    ctx.io.writeOut(`${text}\n`);
    return EXIT_OK;
  } finally {
    tree.dispose();
  }
}

function mapSszError<T>(f: () => T, source: string): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof SszError) throw new CliError(describeSszError(e, source));
    throw e;
  }
}

function hexField(v: unknown, what: string, source: string): Uint8Array {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(v)) throw new CliError(`${source}: ${what} is not a 32-byte 0x-hex string`);
  return fromHex(v);
}

function hexList(v: unknown, what: string, source: string): Uint8Array[] {
  if (!Array.isArray(v)) throw new CliError(`${source}: "${what}" is not a list`);
  return v.map((x, i) => hexField(x, `${what}[${i}]`, source));
}

/** Reads a proof file into the library's proof shape, checking every field. */
export function readProof(json: unknown, source: string): { proof: ViewProof; root: Uint8Array | null; json: Record<string, unknown> } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new CliError(`${source}: a proof is a JSON object`);
  const o = json as Record<string, unknown>;
  if (!Array.isArray(o.gindices) || o.gindices.length === 0) throw new CliError(`${source}: "gindices" is not a non-empty list`);
  const gindices = o.gindices.map((g, i) => {
    if ((typeof g !== 'string' || !/^[1-9]\d*$/.test(g)) && !(typeof g === 'number' && Number.isSafeInteger(g) && g >= 1)) {
      throw new CliError(`${source}: gindices[${i}] is not a positive integer`);
    }
    return BigInt(g);
  });
  const leaves = hexList(o.leaves, 'leaves', source);
  const witnesses = hexList(o.witnesses, 'witnesses', source);
  if (leaves.length !== gindices.length) throw new CliError(`${source}: ${gindices.length} gindices but ${leaves.length} leaves`);
  const root = o.root === undefined ? null : hexField(o.root, '"root"', source);
  const kind = o.kind ?? (gindices.length === 1 ? 'single' : 'multi');
  let proof: ViewProof;
  if (kind === 'single') {
    if (gindices.length !== 1) throw new CliError(`${source}: a single proof has exactly one gindex`);
    proof = { kind: 'single', gindex: gindices[0] as bigint, leaf: leaves[0] as Uint8Array, branch: witnesses };
  } else if (kind === 'multi') proof = { kind: 'multi', gindices, leaves, proof: witnesses };
  else throw new CliError(`${source}: "kind" is neither single nor multi`);
  return { proof, root, json: o };
}

export async function verifyProofCommand(ctx: Context): Promise<number> {
  const [file] = positionals(ctx, ['<proof.json>']) as [string];
  const source = file === '-' ? 'stdin' : file;
  const { data } = await readInput(file, ctx.io, 'off');
  const { proof, root: fileRoot, json } = readProof(parseJson(new TextDecoder().decode(data), source), source);
  const rootArg = ctx.args.values.get('root');
  const root = rootArg === undefined ? fileRoot : hexField(rootArg, '--root', 'command line');
  if (root === null) throw new CliError(`${source}: no "root" in the proof; give one with --root 0x…`);
  const gindices = proof.kind === 'single' ? [BigInt(proof.gindex)] : proof.gindices.map((g) => BigInt(g));
  // When the proof names its type and paths, they must map to its gindices: else the leaves prove something else.
  if (typeof json.type === 'string' && Array.isArray(json.paths)) {
    let type;
    try {
      type = resolveType(json.type, parsePreset(typeof json.preset === 'string' ? json.preset : undefined));
    } catch (e) {
      // The file is at fault here, not the command line: no usage line.
      throw new CliError(`${source}: ${(e as Error).message}`);
    }
    if (json.paths.length !== gindices.length) throw new CliError(`${source}: ${json.paths.length} paths but ${gindices.length} gindices`);
    for (let i = 0; i < gindices.length; i++) {
      const path = json.paths[i] as Path;
      if (!Array.isArray(path) || !path.every((s) => typeof s === 'string' || typeof s === 'number')) throw new CliError(`${source}: paths[${i}] is not a list of names and indices`);
      const expected = mapSszError(() => type.type.gindexOf(path), source);
      if (expected !== gindices[i]) {
        ctx.io.writeOut(`invalid: gindices[${i}] is ${gindices[i]}, but ${type.name} path ${path.join('.')} is gindex ${expected}\n`);
        return EXIT_NO;
      }
    }
  }
  const ok = verifyProof(root, proof);
  const what = `${gindices.length} ${gindices.length === 1 ? 'leaf' : 'leaves'} against root ${hex(root)}`;
  ctx.io.writeOut(ok ? `valid: proof of ${what}\n` : `invalid: the proof does not reach root ${hex(root)}\n`);
  return ok ? EXIT_OK : EXIT_NO;
}
