/**
 * The process boundary `main` talks through, so commands run the same
 * in-process (tests capture everything) and from the `ssztree` bin.
 * @module
 */

export interface CliIo {
  /** Standard output: text, or the bytes `encode` writes. */
  writeOut(data: string | Uint8Array): void;
  /** Standard error: messages and the progress bar. */
  writeErr(text: string): void;
  /**
   * All of standard input — or, when it holds more than `maxBytes`, at least
   * `maxBytes + 1` bytes of it (reading may stop there: the caller refuses
   * the input as too large).
   */
  readStdin(maxBytes: number): Promise<Uint8Array>;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Relative file names resolve against this. */
  readonly cwd: string;
}
