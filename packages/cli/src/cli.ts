/**
 * The `ssztree` bin: `main` over the process's argv and streams. Sets the
 * exit code instead of calling `process.exit`, so stdout drains first.
 * @module
 */
import { EXIT_ERROR } from './errors.js';
import { main } from './main.js';
import type { CliIo } from './io.js';

async function readStdin(maxBytes: number): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    parts.push(chunk as Buffer);
    total += (chunk as Buffer).length;
    // Past the most an input may be: stop reading (the caller says so); the rest is never held.
    if (total > maxBytes) {
      process.stdin.destroy();
      break;
    }
  }
  const all = Buffer.concat(parts, Math.min(total, maxBytes + 1));
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

const io: CliIo = {
  writeOut: (data) => {
    process.stdout.write(data);
  },
  writeErr: (text) => {
    process.stderr.write(text);
  },
  readStdin,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  cwd: process.cwd(),
};

// A closed pipe (`ssztree decode … | head`) is not an error worth a stack;
// any other write failure (a full disk) is one line and exit 2, like every error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`ssztree: cannot write the output: ${e.message}\n`);
  process.exit(EXIT_ERROR);
});

process.exitCode = await main(process.argv.slice(2), io);
