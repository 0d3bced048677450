/**
 * The CLI's YAML writer and reader against the `yaml` package as oracle:
 * written YAML reads back to the same value (random JSON-shaped values with
 * any strings and keys; random consensus values in
 * test/differential/yamlValues.test.ts); the
 * fast reader accepts everything the writer writes and the spec vectors'
 * value.yaml, reads it exactly as the package does, and hands anything
 * outside its subset to the package — on mutated texts too, where whatever
 * it accepts must read as the package reads it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { readYaml, readYamlSubset } from '../src/yamlRead.js';
import { writeYaml } from '../src/yamlWrite.js';
import { specTestsDir } from './helpers.js';

const yamlOf = (value: unknown): string => {
  let text = '';
  writeYaml(value, (piece) => (text += piece));
  return text;
};
const oracle = (text: string): unknown => parse(text, { intAsBigInt: true });

/** JSON-shaped values: any strings (lone surrogates, controls, U+2028 …) as values and keys, integers, nesting. */
const anyString = fc.string({ unit: 'binary', maxLength: 12 });
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    anyString,
    fc.constantFrom('', 'true', 'null', 'no', 'on', '0x01', '12', '1e3', '- a', '# c', ': x', "'", '"', '\\', ' lead', 'trail '),
    fc.boolean(),
    fc.constant(null),
    fc.maxSafeInteger(),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(anyString, fc.constantFrom('on', 'y', 'null', 'a b', 'k:', '-', '0')), tie('value'), { maxKeys: 4 })
    .filter((o) => !('__proto__' in o))
    .map((o) => ({ ...o })),
})).value;

/** Integers read back as bigint (`intAsBigInt`, as the CLI reads YAML). */
const asBig = (v: unknown): unknown =>
  typeof v === 'number' ? BigInt(v) : Array.isArray(v) ? v.map(asBig) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asBig(x)])) : v;

describe('writeYaml', () => {
  it('writes YAML the yaml package reads back to the same value; the fast reader accepts it and agrees', () => {
    fc.assert(
      fc.property(jsonish, (value) => {
        const text = yamlOf(value);
        expect(parse(text)).toStrictEqual(value);
        const fast = readYamlSubset(text);
        expect(fast, text).toBeDefined();
        expect(fast!.value).toStrictEqual(asBig(value));
        expect(fast!.value).toStrictEqual(oracle(text));
      }),
      { numRuns: 1500 },
    );
  });

  it('hands its output on in pieces, whose concatenation is the document', () => {
    const big = { xs: Array.from({ length: 60_000 }, (_, i) => ({ i: String(i), h: `0x${'ab'.repeat(16)}` })) };
    const pieces: string[] = [];
    writeYaml(big, (p) => pieces.push(p));
    expect(pieces.length).toBeGreaterThan(1);
    expect(parse(pieces.join(''))).toStrictEqual(big);
  });
});

describe('readYaml', () => {
  let dir = '';
  beforeAll(() => {
    dir = join(specTestsDir(), 'tests/minimal/phase0/ssz_static');
  }, 600_000);

  it('reads every phase0 spec vector value.yaml on the fast path, as the yaml package does', () => {
    let files = 0;
    for (const type of readdirSync(dir)) {
      for (const kind of ['ssz_random', 'ssz_one', 'ssz_zero', 'ssz_max', 'ssz_nil', 'ssz_random_chaos', 'ssz_lengthy']) {
        let cases: string[] = [];
        try {
          cases = readdirSync(join(dir, type, kind)).slice(0, 2);
        } catch {
          continue;
        }
        for (const c of cases) {
          const text = readFileSync(join(dir, type, kind, c, 'value.yaml'), 'utf8');
          const fast = readYamlSubset(text);
          expect(fast, `${type}/${kind}/${c}`).toBeDefined();
          expect(fast!.value).toStrictEqual(oracle(text));
          files++;
        }
      }
    }
    expect(files).toBeGreaterThan(50);
  });

  it.each([
    ['an anchor and alias', 'a: &x "1"\nb: *x\n'],
    ['a tag', 'a: !!str 12\n'],
    ['a block scalar', 'a: |\n  line one\n  line two\n'],
    ['a plain string', 'a: hello world\n'],
    ['a plain hex integer', 'a: 0x1f\n'],
    ['a float', 'a: 1.5\n'],
    ['a folded double-quoted string', 'a: "one\n  two"\n'],
    ['an explicit key', '? a\n: 1\n'],
    ['YAML escapes', 'a: "\\x41\\N"\n'],
    ['a sequence of sequences, compact', '- - 1\n  - 2\n'],
    ['a key YAML reads as null', 'null: 1\n'],
  ])('%s: outside the subset, read by the yaml package', (_, text) => {
    expect(readYamlSubset(text)).toBeUndefined();
    expect(readYaml(text)).toStrictEqual(oracle(text));
  });

  it.each([
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['an unclosed flow sequence', 'a: [1, 2\n'],
    ['bad indentation', 'a:\n    b: 1\n  c: 2\n'],
    ['two documents', 'a: 1\n---\nb: 2\n'],
  ])('%s: the yaml package reports the error', (_, text) => {
    expect(readYamlSubset(text)).toBeUndefined();
    expect(() => readYaml(text)).toThrow();
  });

  it('on mutated texts, whatever the fast reader accepts reads exactly as the yaml package reads it', () => {
    const alphabet = [' ', '\n', '-', ':', '#', ',', '[', ']', '{', '}', '"', "'", 'a', '1', '\t', '&', '!', '|', '\\', '?'];
    fc.assert(
      fc.property(
        // Our output, and the package's flow style (multi-line flow collections, as in the spec vectors).
        fc.oneof(jsonish.map(yamlOf), jsonish.map((v) => stringify(v, { collectionStyle: 'flow', lineWidth: 20 }))),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...alphabet), fc.constantFrom('insert', 'replace', 'delete')), { minLength: 1, maxLength: 3 }),
        (text, edits) => {
          let t = text;
          for (const [at, ch, op] of edits) {
            const i = at % (t.length + 1);
            t = op === 'insert' ? t.slice(0, i) + ch + t.slice(i) : op === 'replace' ? t.slice(0, i) + ch + t.slice(i + 1) : t.slice(0, i) + t.slice(i + 1);
          }
          const fast = readYamlSubset(t);
          if (fast === undefined) return;
          let expected: unknown;
          try {
            expected = oracle(t);
          } catch (e) {
            throw new Error(`the fast reader accepted what the yaml package rejects (${(e as Error).message.split('\n')[0]}): ${JSON.stringify(t)}`);
          }
          expect(fast.value, JSON.stringify(t)).toStrictEqual(expected);
        },
      ),
      { numRuns: 4000 },
    );
  });
});
