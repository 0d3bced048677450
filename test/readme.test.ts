/**
 * Every TypeScript or JavaScript code block of README.md, of each package's
 * README.md and of docs/*.md runs as written: each block is written out as a
 * module of its own and run in a child process (tsx, the packages' `source`
 * condition, as the repository's tests run), and must exit 0 with nothing on
 * stderr. A line `console.log(…);  // value` promises what it prints: the
 * block's output lines must be those values, in order. None is curated here,
 * so an example cannot drift from the code.
 *
 * The one exception is a block a page marks as an excerpt, ```` ```ts fragment ````
 * (it uses names the surrounding text defines, such as a state's bytes): it
 * is not run, and only docs/ may have such blocks — every README block runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Inside the repository, so the blocks' bare imports resolve to the workspace packages. */
const OUT = join(ROOT, 'node_modules', '.cache', 'readme-blocks');
const LANGS = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);

interface Block {
  readonly file: string;
  readonly line: number;
  readonly lang: string;
  readonly code: string;
  /** Marked ```` ```ts fragment ````: an excerpt, not run. */
  readonly fragment: boolean;
}

/** README.md, packages/<name>/README.md and docs/*.md (not the generated docs/api/), whichever exist. */
function readmes(): string[] {
  const packages = join(ROOT, 'packages');
  const docs = join(ROOT, 'docs');
  const files = [
    join(ROOT, 'README.md'),
    ...readdirSync(packages).map((p) => join(packages, p, 'README.md')),
    ...(existsSync(docs) ? readdirSync(docs).filter((f) => f.endsWith('.md')).map((f) => join(docs, f)) : []),
  ];
  return files.filter((f) => existsSync(f));
}

/** The fenced code blocks of a markdown file in the languages above. */
function blocksOf(file: string): Block[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```+|~~~+)\s*([\w-]*)(.*)$/.exec(lines[i]!);
    if (open === null) continue;
    const fence = open[2]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(fence); i++) body.push(lines[i]!);
    const lang = open[3]!.toLowerCase();
    const fragment = /(^|\s)fragment(\s|$)/.test(open[4]!);
    if (LANGS.has(lang)) blocks.push({ file: relative(ROOT, file), line: start + 1, lang, code: body.join('\n'), fragment });
  }
  return blocks;
}

/** What the block promises to print: the trailing comment of each `console.log(…);  // value` line. */
function promises(code: string): string[] {
  return code
    .split('\n')
    .map((l) => /^\s*console\.log\(.*\);?\s*\/\/\s*(.*?)\s*$/.exec(l)?.[1])
    .filter((v): v is string => v !== undefined);
}

const found = readmes().flatMap(blocksOf);
const all = found.filter((b) => !b.fragment);
const fragments = found.filter((b) => b.fragment);

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('README code blocks run as written', () => {
  it('finds the blocks (README.md has some, docs/ has some that run)', () => {
    expect(all.filter((b) => b.file === 'README.md').length).toBeGreaterThan(0);
    expect(all.filter((b) => b.file.startsWith('docs/')).length).toBeGreaterThanOrEqual(5);
  });

  it('only docs/ marks blocks as fragments (every README block runs)', () => {
    expect(fragments.filter((b) => !b.file.startsWith('docs/')).map((b) => `${b.file}:${b.line}`)).toEqual([]);
  });

  it.each(all.map((b) => [`${b.file}:${b.line}`, b] as const))('%s', (_, block) => {
    mkdirSync(OUT, { recursive: true });
    // .mts / .mjs: ES modules wherever they sit (a folder under node_modules has no package type of its own).
    const ext = block.lang === 'ts' || block.lang === 'typescript' ? 'mts' : 'mjs';
    const path = join(OUT, `${block.file.replace(/[^\w]+/g, '_')}_${block.line}.${ext}`);
    // `export {}` makes every block a module (top-level await, its own scope).
    writeFileSync(path, `${block.code}\nexport {};\n`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=source', path], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const printed = r.stdout.split('\n').filter((l) => l !== '');
    expect(printed).toEqual(promises(block.code));
  });
});
