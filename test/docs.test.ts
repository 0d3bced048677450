/**
 * The user docs describe the library as it is now, and what they point at
 * exists.
 *
 * - No development history in README.md, CONTRIBUTING.md, docs/**\/*.md, the
 *   package READMEs and the source folders' READMEs: no numbered work
 *   sessions or rounds, no issue numbers (`issue #5`, a bare `#5`), no
 *   "(history)" sections, no commit hashes or branches as the date of a
 *   figure. History belongs in the changelogs (packages/*\/CHANGELOG.md,
 *   .changeset/), which are never scanned. Every offending line is listed
 *   with its file and line number.
 * - Every repository path README.md, CONTRIBUTING.md, docs/*.md and the
 *   package READMEs name exists: root-relative paths (`packages/…`, `test/…`,
 *   `bench/…`, `scripts/…`, `demo/…`, `docs/…`, `.ci/…`; globs must match
 *   something), every source file named by a shorter path (`view/packed.ts`
 *   must be the end of some file's path), every local markdown link and its
 *   anchor, every link into this repository on GitHub, and every
 *   cross-reference of the form FILE.md "Section" (or FILE.md, "Section").
 * - Every section of docs/BENCHMARKS.md that holds a table of figures, and
 *   the README's benchmark table, names the command that measured them,
 *   the machine and the date.
 *
 * The patterns are checked against lines they must and must not catch, so
 * neither half of this test passes by matching nothing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', '.cache']);

function walk(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIP_DIRS.has(name) ? [] : walk(path, keep);
    return keep(path) ? [path] : [];
  });
}

const isMarkdown = (p: string): boolean => p.endsWith('.md');
const isChangelog = (p: string): boolean => /(^|\/)CHANGELOG\.md$/.test(p) || relative(ROOT, p).startsWith('.changeset/');
const packages = readdirSync(join(ROOT, 'packages')).filter((p) => statSync(join(ROOT, 'packages', p)).isDirectory());

/** The user docs: README.md, CONTRIBUTING.md, docs/*.md and each package's README. */
const userDocs = [
  join(ROOT, 'README.md'),
  join(ROOT, 'CONTRIBUTING.md'),
  ...walk(join(ROOT, 'docs'), isMarkdown).filter((p) => !relative(ROOT, p).startsWith('docs/api/')),
  ...packages.map((p) => join(ROOT, 'packages', p, 'README.md')),
].filter((p) => existsSync(p));

/** Scanned for history: the user docs, the generated API reference and the source folders' READMEs; never a changelog. */
const historyDocs = [
  ...userDocs,
  ...walk(join(ROOT, 'docs', 'api'), isMarkdown),
  ...packages.flatMap((p) => walk(join(ROOT, 'packages', p, 'src'), (f) => f.endsWith('/README.md'))),
].filter((p) => !isChangelog(p));

// ---------------------------------------------------------------- history

interface Pattern {
  readonly name: string;
  readonly re: RegExp;
  /** Applied to the line with code (fenced blocks, `spans`) blanked out: a `#` in code is not an issue number. */
  readonly proseOnly?: boolean;
}

/** A short hex token with a digit and a letter: a commit hash, not a number. */
const HASH = String.raw`(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}`;

const HISTORY: readonly Pattern[] = [
  { name: 'a numbered work session', re: /\bsessions?\s+\d+/i },
  { name: 'a work session', re: /\b(?:this|that|the same|an earlier|a later|the last|last|the previous|previous|the next|next|today's) session\b/i },
  { name: 'an issue number', re: /\b(?:issues?|pull requests?|PRs?)\s*#?\d+/i },
  // `#5`, `(#12)`, `#3–#7` in prose; not `](#anchor)`, `&#8212;`, `x#1` or anything in code.
  { name: 'an issue reference', re: /(?:^|[\s([,;])#\d+\b/, proseOnly: true },
  { name: 'a numbered round of work', re: /\b(?:work|development|optimi[sz]ation|review|fix(?:ing)?|implementation|design)\s+rounds?\s+\d+|\brounds?\s+\d+\s+of\s+(?:the\s+|this\s+|our\s+)?(?:work|development|optimi[sz]ation|review|fixes|project|issue)\b/i },
  { name: 'a heading about a round', re: /^#{1,6}\s.*\bround\s+\d+/i },
  { name: 'a history section', re: /\(history\)/i },
  { name: 'a commit as the time of a figure', re: new RegExp(String.raw`\b(?:commit|commits|at|against|before|after|since|until|from|base)\s+\`?${HASH}\b`) },
  { name: 'a work branch', re: /\bbranch [`'"][\w./-]+[`'"]/i },
];

/** The line with fenced code and inline code spans blanked out (same length, so columns stay). */
function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const open = /^\s*(```+|~~~+)/.exec(line);
    if (fence !== null) {
      if (open !== null && open[1]!.startsWith(fence)) fence = null;
      return '';
    }
    if (open !== null) {
      fence = open[1]!;
      return '';
    }
    return line.replace(/(`+)[^`]*?\1/g, (m) => ' '.repeat(m.length));
  });
}

interface Finding {
  readonly where: string;
  readonly what: string;
  readonly text: string;
}

function historyIn(file: string, text: string): Finding[] {
  const lines = text.split('\n');
  const prose = proseLines(text);
  const found: Finding[] = [];
  lines.forEach((line, i) => {
    const what = HISTORY.filter((p) => p.re.test(p.proseOnly === true ? prose[i]! : line)).map((p) => p.name);
    if (what.length > 0) found.push({ where: `${file}:${i + 1}`, what: what.join(', '), text: line.trim() });
  });
  return found;
}

const show = (f: readonly Finding[]): string => f.map((x) => `${x.where}: ${x.what}: ${x.text}`).join('\n');

describe('the docs narrate no development history', () => {
  it('scans the README, every docs/ page and every package README, and no changelog', () => {
    const names = historyDocs.map((p) => relative(ROOT, p));
    expect(names).toContain('README.md');
    expect(names).toContain('docs/VIEWS.md');
    for (const p of packages) expect(names).toContain(`packages/${p}/README.md`);
    expect(names.filter((n) => /CHANGELOG\.md$|^\.changeset\//.test(n))).toEqual([]);
  });

  it('the patterns catch history', () => {
    const caught = [
      '### Where issue #5 stands now (2026-11-30, session 8)',
      'Tried in session 7: a lookahead load.',
      'Two changes this session.',
      'the pool (issue #7, one worker) adds 1.08×',
      'as planned in #12, the pool is off',
      'Targets (issues 3 and 4), from this run',
      'the second round 2 of the work moved it',
      'In optimisation round 3 the flush got faster.',
      '## Round 4: record pairs',
      '### Where issue five stood after the first pass (history)',
      'Paired A/B against ba1ae3e (before)',
      'measured at commit e4161f3',
      'fixed on branch `build`',
    ];
    for (const line of caught) expect(historyIn('x.md', line), line).not.toEqual([]);
  });

  it('the patterns leave the library\'s own words alone', () => {
    const fine = [
      '7 rounds after 2 warm-up rounds, rows interleaved with a rotating order',
      'keep `store.stats()` equal between round 7 and round 20',
      'the first measured round read 2.58–4.51 ms',
      'see [Consensus types](#consensus-types) and BENCHMARKS.md#immer',
      'the 64 rounds of the padding block; SHA256RNDS2 does two rounds',
      '`#1` in code and `a#2` are not issue numbers',
      '```sh\nnpm run demo   # 2^20 validators, #1 run\n```',
      'SPEC_VERSION.commit; // \'a08d8a6e2b45f0b8c0d379abc15583427c643689\'',
      'a CPU profile session of the inspector is opened with --cpu-prof',
      'a branch node links two children; the branch at depth 3 is hashed',
      '32 MiB of leaf chunks, 32 MiB of branch hashes and 24 MiB of rows',
      'from 1048576 validators at 2026-12-01, load 2.9',
    ];
    for (const text of fine) expect(historyIn('x.md', text), text).toEqual([]);
  });

  it('README.md, docs/ and the package READMEs (every offending line listed)', () => {
    const found = historyDocs.flatMap((p) => historyIn(relative(ROOT, p), readFileSync(p, 'utf8')));
    expect(found, `development history in the docs (it belongs in the changelogs):\n${show(found)}`).toEqual([]);
  });
});

// ---------------------------------------------------------------- paths, links, sections

/** Top-level folders of the repository whose paths the docs name root-relative. */
const ROOT_PREFIXES = ['packages/', 'test/', 'bench/', 'scripts/', 'demo/', 'docs/', '.ci/', '.changeset/'];
/**
 * Generated or local paths: built output, the native module's build, the
 * fuzz harness's git-ignored failures, and what only exists after an install.
 */
const GENERATED = [/(^|\/)dist(\/|$)/, /^packages\/hasher\/native\/build(\/|$)/, /^test\/fuzz\/failures\//, /(^|\/)node_modules\//];
const SOURCE_EXT = /\.(?:ts|mts|cts|mjs|cjs|c|wat)$/;

const allFiles = walk(ROOT, () => true).map((p) => relative(ROOT, p));
const allDirs = new Set(allFiles.flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));

/** A path with `*`, `**` or `{a,b}` as a regular expression over repository paths. */
function globRe(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      re += `(?:${glob.slice(i + 1, end).split(',').map((s) => s.replace(/[.+?^$()|[\]\\]/g, '\\$&')).join('|')})`;
      i = end;
    } else re += c.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}/?$`);
}

function exists(path: string): boolean {
  const p = path.replace(/\/$/, '');
  if (/[*{]/.test(p)) {
    const re = globRe(p);
    return allFiles.some((f) => re.test(f)) || [...allDirs].some((d) => re.test(d));
  }
  return allFiles.includes(p) || allDirs.has(p);
}

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function headingsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const prose = proseLines(text);
  return text.split('\n').flatMap((line, i) => (prose[i] !== '' && /^#{1,6}\s/.test(line) ? [line.replace(/^#{1,6}\s+/, '').trim()] : []));
}

const headingCache = new Map<string, string[]>();
const headings = (file: string): string[] => {
  let h = headingCache.get(file);
  if (h === undefined) headingCache.set(file, (h = headingsOf(file)));
  return h;
};

/** Does `file` have a section called `name` (a heading equal to it, or starting with it)? */
function hasSection(file: string, name: string): boolean {
  const want = name.toLowerCase().replace(/`/g, '').trim();
  return headings(file).some((h) => {
    const have = h.toLowerCase().replace(/`/g, '');
    return have === want || have.startsWith(want);
  });
}

/** How many references of each kind were checked, so this test cannot pass by matching nothing. */
const checked = { paths: 0, sourceFiles: 0, links: 0, sections: 0 };

function refsIn(file: string): Finding[] {
  const rel = relative(ROOT, file);
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const found: Finding[] = [];
  const bad = (i: number, what: string): void => void found.push({ where: `${rel}:${i + 1}`, what, text: lines[i]!.trim() });
  const docsDir = join(ROOT, 'docs');
  const pkgDir = /^packages\/[^/]+\/README\.md$/.test(rel) ? dirname(rel) : null;
  lines.forEach((line, i) => {
    // Root-relative repository paths, anywhere (prose, code, links).
    for (const m of line.matchAll(/(?<![\w./@-])((?:packages|test|bench|scripts|demo|docs|\.ci|\.changeset)\/[\w.*{},@/-]*[\w*}])/g)) {
      const path = m[1]!.replace(/[.,]$/, '');
      if (!ROOT_PREFIXES.some((p) => path.startsWith(p)) || GENERATED.some((g) => g.test(path))) continue;
      // A package's README names its own files from the package's folder (`scripts/build-native.mjs`).
      checked.paths++;
      if (!exists(path) && !(pkgDir !== null && exists(`${pkgDir}/${path}`))) bad(i, `no such path ${path}`);
    }
    // Shorter source paths in code spans (`view/packed.ts`, `../type.ts`, `src/frozen/trust.ts`): the end of some file's path.
    for (const m of line.matchAll(/`([^`\s]+)`/g)) {
      const token = m[1]!.replace(/^(?:\.\.?\/)+/, '');
      if (!SOURCE_EXT.test(token) || token.startsWith('.') || ROOT_PREFIXES.some((p) => token.startsWith(p)) || GENERATED.some((g) => g.test(token))) continue;
      if (!/^[\w./-]+$/.test(token)) continue;
      checked.sourceFiles++;
      if (!allFiles.some((f) => f === token || f.endsWith(`/${token}`))) bad(i, `no source file ${token}`);
    }
    // Local markdown links and their anchors; links into this repository on GitHub.
    for (const m of line.matchAll(/\]\(([^)\s]+)\)|<(https:\/\/github\.com\/ssztree\/ssztree\/[^>\s]+)>/g)) {
      let target = m[1] ?? m[2]!;
      const gh = /^https:\/\/github\.com\/ssztree\/ssztree\/(?:tree|blob)\/main\/(.+)$/.exec(target);
      if (/^[a-z]+:/.test(target) && gh === null) continue;
      let base = dirname(file);
      if (gh !== null) {
        target = gh[1]!;
        base = ROOT;
      }
      const [path, anchor] = target.split('#') as [string, string | undefined];
      checked.links++;
      const abs = path === '' ? file : resolve(base, decodeURI(path));
      if (!existsSync(abs)) {
        bad(i, `broken link ${target}`);
        continue;
      }
      if (anchor !== undefined && abs.endsWith('.md') && !headings(abs).some((h) => slug(h) === anchor)) bad(i, `no section #${anchor} in ${relative(ROOT, abs)}`);
    }
    // FILE.md "Section" / FILE.md, "Section" / FILE.md `## Section`: the section exists.
    for (const m of line.matchAll(/\b((?:docs\/)?[A-Z][A-Z_]*\.md)(?:,|:)? (?:"([^"]+)"|“([^”]+)”|`## ([^`]+)`)/g)) {
      const name = m[2] ?? m[3] ?? m[4]!;
      const target = m[1]!.startsWith('docs/') ? join(ROOT, m[1]!) : join(docsDir, m[1]!);
      const abs = existsSync(target) ? target : join(ROOT, m[1]!);
      checked.sections++;
      if (!existsSync(abs)) bad(i, `no such file ${m[1]}`);
      else if (!hasSection(abs, name)) bad(i, `no section "${name}" in ${relative(ROOT, abs)}`);
    }
    // [text](FILE.md) "Section": the same, for a linked file.
    for (const m of line.matchAll(/\]\(([^)#\s]+\.md)\)[,:]? (?:"([^"]+)"|“([^”]+)”)/g)) {
      const abs = resolve(dirname(file), m[1]!);
      checked.sections++;
      if (existsSync(abs) && !hasSection(abs, m[2] ?? m[3]!)) bad(i, `no section "${m[2] ?? m[3]}" in ${relative(ROOT, abs)}`);
    }
  });
  return found;
}

describe('what the docs point at exists', () => {
  it('the path patterns see what they should', () => {
    expect(exists('packages/core/src/write/batchWrite.ts')).toBe(true);
    expect(exists('packages/*/README.md')).toBe(true);
    expect(exists('packages/hasher/test/{api,selection}.test.ts')).toBe(true);
    expect(exists('packages/core/src/write/nope.ts')).toBe(false);
    expect(exists('packages/core/src/nope/*.ts')).toBe(false);
    expect(slug('`ssztree root <Type> <file>`')).toBe('ssztree-root-type-file');
    expect(slug('Fork upgrade (electra → fulu)')).toBe('fork-upgrade-electra--fulu');
    expect(hasSection(join(ROOT, 'docs', 'CORE.md'), 'Reclamation')).toBe(true);
    expect(hasSection(join(ROOT, 'docs', 'CORE.md'), 'No such section anywhere')).toBe(false);
  });

  it.each(userDocs.map((p) => [relative(ROOT, p), p] as const))('%s', (_, file) => {
    const found = refsIn(file);
    expect(found, `dangling references:\n${show(found)}`).toEqual([]);
  });

  it('checks references of every kind', () => {
    Object.assign(checked, { paths: 0, sourceFiles: 0, links: 0, sections: 0 });
    for (const file of userDocs) refsIn(file);
    expect(checked.paths).toBeGreaterThan(100);
    expect(checked.sourceFiles).toBeGreaterThan(50);
    expect(checked.links).toBeGreaterThan(30);
    expect(checked.sections).toBeGreaterThan(20);
  });
});

// ---------------------------------------------------------------- figures

/** The `## ` sections of a markdown file: title and body. */
function sectionsOf(text: string): { title: string; body: string }[] {
  return text
    .split(/^## /m)
    .slice(1)
    .map((part) => ({ title: part.slice(0, part.indexOf('\n')).trim(), body: part }));
}

/** What a section of measured figures must say: how to reproduce them, where and when they were measured. */
function missingProvenance(body: string): string[] {
  const missing: string[] = [];
  if (!/`(?:npm run|npx|node) [^`]+`/.test(body)) missing.push('the command');
  if (!/\b(?:AMD EPYC|Intel|Xeon|ARM|Apple M\d)/.test(body)) missing.push('the machine');
  if (!/\b20\d\d-\d\d-\d\d\b/.test(body)) missing.push('the date');
  return missing;
}

describe('measured figures say how, where and when', () => {
  it('the check sees a section without them', () => {
    expect(missingProvenance('| row | ms |\n| --- | --- |\n| a | 1 |')).toEqual(['the command', 'the machine', 'the date']);
    expect(missingProvenance('`npm run bench:x -- --rounds 3` on 2 × AMD EPYC, 2026-12-02\n| a | 1 |')).toEqual([]);
  });

  it('every section of docs/BENCHMARKS.md with a table names its command, machine and date', () => {
    const sections = sectionsOf(readFileSync(join(ROOT, 'docs', 'BENCHMARKS.md'), 'utf8')).filter((s) => /^\|/m.test(s.body));
    expect(sections.length).toBeGreaterThan(5);
    const bad = sections.flatMap((s) => {
      const missing = missingProvenance(s.body);
      return missing.length === 0 ? [] : [`"${s.title}": no ${missing.join(', no ')}`];
    });
    expect(bad, 'benchmark sections without provenance').toEqual([]);
  });

  it("the README's benchmark table names its commands, machine and date", () => {
    const bench = sectionsOf(readFileSync(join(ROOT, 'README.md'), 'utf8')).find((s) => s.title === 'Benchmarks');
    expect(bench, 'README.md has a "Benchmarks" section').toBeDefined();
    expect(missingProvenance(bench!.body)).toEqual([]);
  });
});
