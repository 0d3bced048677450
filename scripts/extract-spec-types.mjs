#!/usr/bin/env node
/**
 * Writes the SSZ class definitions of every fork's markdown (phase0 … heze) at the
 * pinned consensus-specs commit to
 * packages/types/test/fixtures/consensus-specs/types/<fork>.json, so tests
 * can check our containers against the spec's own text without reaching
 * GitHub: per class its base (`Container`, `ProgressiveContainer`,
 * `ProgressiveList[Attestation]`, `Vector[PTC, (2 + MIN_SEED_LOOKAHEAD) *
 * SLOTS_PER_EPOCH]`, …), the active-fields expression of a progressive
 * container, its fields in order with their type expressions, and the file
 * it comes from. Dataclasses (`@dataclass`) are not SSZ types and are left
 * out.
 *
 *   node scripts/extract-spec-types.mjs [path/to/consensus-specs.git]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const COMMIT = 'a08d8a6e2b45f0b8c0d379abc15583427c643689';
const specs = process.argv[2] ?? '/work/.mirror/ethereum+consensus-specs/repo';
const git = (...args) => execFileSync('git', ['-C', specs, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

function classesOf(text, file) {
  const out = [];
  const blocks = text.split(/^```python\n/m).slice(1).map((b) => b.split(/^```/m)[0]);
  for (const block of blocks) {
    const lines = block.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].startsWith('class ') || (i > 0 && lines[i - 1].startsWith('@dataclass'))) continue;
      // The header may span lines (`class X(\n    List[…]\n):`).
      let header = lines[i];
      while (!/\):\s*$/.test(header)) header += ` ${lines[++i].trim()}`;
      const m = /^class (\w+)\((.*)\):\s*$/.exec(header.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')'));
      if (m === null) throw new Error(`${file}: cannot read ${header}`);
      const [, name, rawBase] = m;
      let base = rawBase;
      let activeFields = null;
      const pc = /^ProgressiveContainer\(active_fields=(.*)\)$/.exec(rawBase);
      if (pc !== null) {
        base = 'ProgressiveContainer';
        activeFields = pc[1];
      }
      const fields = [];
      let j = i + 1;
      for (; j < lines.length && (lines[j].startsWith('    ') || lines[j] === ''); j++) {
        const f = /^ {4}(\w+): (.+?)\s*(#.*)?$/.exec(lines[j]);
        if (f !== null) fields.push([f[1], f[2]]);
      }
      i = j - 1;
      out.push({ name, base, activeFields, fields, file });
    }
  }
  return out;
}

for (const fork of ['phase0', 'altair', 'bellatrix', 'capella', 'deneb', 'electra', 'fulu', 'gloas', 'heze']) {
  const files = git('ls-tree', '-r', '--name-only', COMMIT, `specs/${fork}`).split('\n').filter((f) => f.endsWith('.md'));
  const classes = files.flatMap((f) => classesOf(git('show', `${COMMIT}:${f}`), f));
  const out = join(REPO, 'packages/types/test/fixtures/consensus-specs/types', `${fork}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ commit: COMMIT, fork, classes }, null, 1)}\n`);
  console.log(`${out}: ${classes.length} classes from ${files.length} files`);
}
