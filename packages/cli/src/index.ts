/**
 * `@ssztree/cli`: the `ssztree` command line as a function, `main(argv, io)`
 * (the bin, `cli.ts`, calls it with the process's streams).
 * @module
 */
export { main, USAGE } from './main.js';
export type { CliIo } from './io.js';
export { EXIT_ERROR, EXIT_NO, EXIT_OK } from './errors.js';
export { decodeBlock, encodeBlock, encodeFramed, isFramed } from './snappy.js';
export { decodeFramed } from './snappyFrames.js';
export { crc32c, maskedCrc32c } from './crc32c.js';
