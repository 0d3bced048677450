/**
 * A progress bar on stderr for long steps on large inputs: a bar with the
 * percentage while reading or decompressing, and a phase line (with the
 * elapsed time once done) around synchronous steps such as decoding or
 * hashing, which cannot report from inside.
 *
 * Invariant: when disabled (stderr not a TTY, input below the threshold,
 * or `--no-progress`) nothing at all is written; when enabled every line it
 * draws is cleared again, so stdout and final messages stay clean.
 * @module
 */

/** `on`: always draw; `off`: never; `auto`: when stderr is a TTY and the input is large. */
export type ProgressMode = 'auto' | 'on' | 'off';

/** Inputs smaller than this finish quickly enough not to need a bar. */
export const PROGRESS_THRESHOLD = 16 * 1024 * 1024;
const WIDTH = 30;
const INTERVAL_MS = 100;

export class Progress {
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly write: (text: string) => void,
    readonly enabled: boolean,
  ) {}

  /** Draws `label` with `done / total` (throttled; the final update always draws). */
  update(label: string, done: number, total: number): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (done < total && now - this.lastDraw < INTERVAL_MS) return;
    this.lastDraw = now;
    const frac = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(frac * WIDTH);
    const bar = '#'.repeat(filled) + '-'.repeat(WIDTH - filled);
    this.draw(`[${bar}] ${(frac * 100).toFixed(0).padStart(3)}% ${label} ${mb(done)}/${mb(total)} MB`);
  }

  /** Runs a synchronous step under a phase line. */
  phase<T>(label: string, step: () => T): T {
    if (!this.enabled) return step();
    const start = Date.now();
    this.draw(`${label}...`);
    const result = step();
    this.draw(`${label} done in ${((Date.now() - start) / 1000).toFixed(1)} s`);
    return result;
  }

  /** Clears the line drawn last. */
  clear(): void {
    if (!this.drawn) return;
    this.write('\r\x1b[K');
    this.drawn = false;
  }

  private draw(text: string): void {
    this.write(`\r\x1b[K${text}`);
    this.drawn = true;
  }
}

function mb(n: number): string {
  return (n / (1024 * 1024)).toFixed(1);
}
