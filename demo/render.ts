/**
 * Terminal output: a progress bar for the build phases and the live table
 * of block and epoch timings. On a TTY the bar and the table redraw in
 * place (ANSI cursor moves); otherwise (CI, pipes, the test) every update is
 * a plain line, so logs stay readable and parseable. Nothing here measures.
 */
import { fmt, type Samples } from './stats.js';

const out = process.stdout;

export class Screen {
  readonly tty: boolean;
  private drawn = 0; // lines of the live table currently on screen (TTY only)

  constructor(tty = out.isTTY === true) {
    this.tty = tty;
  }

  line(text = ''): void {
    this.drawn = 0;
    out.write(`${text}\n`);
  }

  /** A progress bar for one phase; on a non-TTY only the finished phase is printed. */
  progress(label: string, done: number, total: number, unit: string): void {
    if (!this.tty) return;
    const width = 30;
    const filled = Math.round((done / Math.max(1, total)) * width);
    out.write(`\r  ${label.padEnd(30)} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total} ${unit}\x1b[K`);
  }

  /** Ends a phase: its result line (replacing the bar on a TTY). */
  phase(label: string, ms: number, detail = ''): void {
    if (this.tty) out.write('\r\x1b[K');
    this.line(`  ${label.padEnd(30)} ${fmt(ms / 1000, 2).padStart(7)} s   ${detail}`);
  }

  /** Redraws the live table in place (TTY); on a non-TTY, callers print `row` lines instead. */
  table(lines: string[]): void {
    if (!this.tty) return;
    if (this.drawn > 0) out.write(`\x1b[${this.drawn}A`);
    for (const l of lines) out.write(`\r${l}\x1b[K\n`);
    this.drawn = lines.length;
  }
}

export interface TimingRow {
  readonly name: string;
  readonly samples: Samples;
}

/** The timing table: last, p50, p95 and count per row, in ms. */
export function timingTable(rows: readonly TimingRow[], status: string): string[] {
  const head = `  ${'ms'.padEnd(38)} ${'last'.padStart(8)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'n'.padStart(5)}`;
  const lines = [head, `  ${'-'.repeat(head.length - 2)}`];
  for (const r of rows) {
    const s = r.samples;
    lines.push(`  ${r.name.padEnd(38)} ${fmt(s.last, 2).padStart(8)} ${fmt(s.percentile(50), 2).padStart(8)} ${fmt(s.percentile(95), 2).padStart(8)} ${String(s.count).padStart(5)}`);
  }
  lines.push(`  ${status}`);
  return lines;
}
