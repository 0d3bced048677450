/**
 * Writes one benchmark's report into its own `## Title` section of
 * docs/BENCHMARKS.md, leaving every other section as it is.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FILE = fileURLToPath(new URL('../../docs/BENCHMARKS.md', import.meta.url));

export function writeSection(title: string, body: string): void {
  const text = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '# Benchmarks\n';
  const heading = `## ${title}`;
  const section = `${heading}\n\n${body.trim()}\n`;
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) {
    writeFileSync(FILE, `${text.trimEnd()}\n\n${section}`);
    return;
  }
  const next = text.indexOf('\n## ', start + heading.length);
  const end = next < 0 ? text.length : next + 1;
  writeFileSync(FILE, `${text.slice(0, start)}${section}${next < 0 ? '' : '\n'}${text.slice(end)}`);
}
