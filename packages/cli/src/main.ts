/**
 * `main(argv, io)`: the whole `ssztree` command line, callable in-process.
 *
 * Invariant: `main` never exits the process and never throws; it returns
 * the exit code after writing the output, or one `ssztree: …` error line
 * (plus usage for usage errors; a stack only with `--debug`).
 * @module
 */
import { parseArgs, type OptionSpec } from './args.js';
import { diffCommand } from './commands/diff.js';
import { decodeCommand } from './commands/decode.js';
import { encodeCommand } from './commands/encode.js';
import { proofCommand, verifyProofCommand } from './commands/proof.js';
import { rootCommand } from './commands/root.js';
import { typesCommand } from './commands/types.js';
import { makeContext, type Context } from './context.js';
import { CliError, EXIT_ERROR, EXIT_OK, UsageError, describeError } from './errors.js';
import type { CliIo } from './io.js';
import { cliVersion } from './version.js';

export const USAGE = 'usage: ssztree <root|decode|encode|proof|verify-proof|diff|types> [options] (ssztree --help for details)';

export const HELP = `ssztree: SSZ consensus containers on the command line

  ssztree root <Type> <file>                 hash tree root (0x-hex)
  ssztree decode <Type> <file> [--json|--yaml]
                                             value in the consensus API JSON form
  ssztree encode <Type> <file.json> [-o <out>] [--snappy]
                                             SSZ bytes (framed snappy with --snappy)
  ssztree proof <Type> <file> <path…>        merkle proof JSON, e.g. validators 5 effective_balance
                                             (several paths: separate with commas)
  ssztree verify-proof <proof.json> [--root 0x…]
                                             exit 0 when valid, 1 when not
  ssztree diff <Type> <a> <b> [--limit N]    differing field paths; exit 0 equal, 1 different
  ssztree types [fork]                       known types, e.g. electra.BeaconState

  <Type> is <fork>.<Container> (phase0 … heze), or BeaconState,
  BeaconBlock, SignedBeaconBlock, BeaconBlockHeader, SignedBeaconBlockHeader,
  DataColumnSidecar, ExecutionPayloadBid, SignedExecutionPayloadBid,
  PayloadAttestationMessage, InclusionList or SignedInclusionList without
  the fork: it is picked from the input's slot (or a beacon API envelope's
  version) on --network's schedule.
  <file> is .ssz, .ssz_snappy (framed or raw block snappy), .json or .yaml,
  or - for stdin.

options:
  --preset mainnet|minimal   preset of the types (default mainnet)
  --network mainnet|sepolia|hoodi
                             fork schedule for a <Type> without its fork
                             (default mainnet)
  --format ssz|ssz_snappy|json|yaml
                             input format, instead of detecting it
  --progress / --no-progress force the progress bar on stderr on / off
                             (default: on for inputs over 16 MB on a terminal)
  --debug                    stack traces on errors
  -h, --help                 this text
  -v, --version              the version of ssztree

exit codes: 0 success, 1 diff found differences / proof invalid, 2 error`;

const SPEC: OptionSpec = {
  flags: ['json', 'yaml', 'snappy', 'progress', 'no-progress', 'debug', 'help', 'version'],
  values: ['preset', 'network', 'format', 'output', 'root', 'limit', 'fork'],
  short: { o: 'output', h: 'help', v: 'version' },
};

/** Options each command accepts besides the shared ones. */
const COMMANDS: Record<string, { run: (ctx: Context) => number | Promise<number>; own: readonly string[] }> = {
  root: { run: rootCommand, own: [] },
  decode: { run: decodeCommand, own: ['json', 'yaml'] },
  encode: { run: encodeCommand, own: ['output', 'snappy'] },
  proof: { run: proofCommand, own: [] },
  'verify-proof': { run: verifyProofCommand, own: ['root'] },
  diff: { run: diffCommand, own: ['limit'] },
  types: { run: typesCommand, own: ['fork'] },
};
const OWN_OPTIONS = new Set(Object.values(COMMANDS).flatMap((c) => c.own));

/** Control characters (a newline in a JSON.parse message quoting the input, in a file name) escaped: the error stays one line. */
function oneLine(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, (c) => (c === '\n' ? '\\n' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let debug = argv.includes('--debug');
  try {
    const args = parseArgs(argv, SPEC);
    debug = args.flags.has('debug');
    const [name, ...rest] = args.positionals;
    if (args.flags.has('help') || name === 'help') {
      io.writeOut(`${HELP}\n`);
      return EXIT_OK;
    }
    if (args.flags.has('version')) {
      io.writeOut(`${cliVersion()}\n`);
      return EXIT_OK;
    }
    if (name === undefined) throw new UsageError('missing command');
    const command = COMMANDS[name];
    if (command === undefined) throw new UsageError(`unknown command "${name}"`);
    for (const opt of [...args.flags, ...args.values.keys()]) {
      if (OWN_OPTIONS.has(opt) && !command.own.includes(opt)) throw new UsageError(`${name} takes no --${opt}`);
    }
    return await command.run(makeContext(io, { ...args, positionals: rest }));
  } catch (e) {
    io.writeErr(`ssztree: ${oneLine(describeError(e, debug))}\n`);
    if (e instanceof CliError && e.usage) io.writeErr(`${USAGE}\n`);
    if (debug && e instanceof Error && e.stack !== undefined) io.writeErr(`${e.stack}\n`);
    return EXIT_ERROR;
  }
}
