/**
 * build/zeroPages.ts: which pages of a bulk build's run are hashed — every
 * page but those in stretches of ZERO_STRETCH_MIN or more all-zero pages
 * (or a run all zero), found by probing every few pages. (fromPages.test.ts
 * checks the roots of builds with such pages.)
 */
import { describe, expect, it } from 'vitest';
import { pagesToHash, ZERO_STRETCH_MIN } from '../src/build/zeroPages.js';

const PAGE_WORDS = 64;

/** A run of `len` pages, nonzero but for the zero ones. */
function run(len: number, zero: (p: number) => boolean): Int32Array {
  const words = new Int32Array(len * PAGE_WORDS);
  for (let p = 0; p < len; p++) if (!zero(p)) words[p * PAGE_WORDS + ((p * 13) % PAGE_WORDS)] = p + 1;
  return words;
}

/** The model: pages in zero stretches of at least ZERO_STRETCH_MIN (or all) left out, the rest as maximal stretches. */
function model(len: number, zero: (p: number) => boolean): { out: number[]; skipped: number } {
  const skip = new Array<boolean>(len).fill(false);
  for (let i = 0; i < len; ) {
    if (!zero(i)) {
      i++;
      continue;
    }
    let j = i;
    while (j < len && zero(j)) j++;
    if (j - i >= ZERO_STRETCH_MIN || j - i === len) skip.fill(true, i, j);
    i = j;
  }
  const out: number[] = [];
  for (let i = 0; i < len; ) {
    if (skip[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < len && !skip[j]) j++;
    out.push(i, j);
    i = j;
  }
  return { out, skipped: skip.filter(Boolean).length };
}

describe('zero pages of a bulk build', () => {
  const layouts: [string, number, (p: number) => boolean][] = [
    ['no zero page', 1000, () => false],
    ['all zero', 1000, () => true],
    ['all zero, shorter than a stretch', 5, () => true],
    ['lone zero pages', 1000, (p) => p % 7 === 0],
    ['stretches at the start, the end and between', 1000, (p) => p < 40 || p >= 960 || (p >= 300 && p < 300 + ZERO_STRETCH_MIN)],
    ['stretches one page short, at every offset', 600, (p) => p % 50 < ZERO_STRETCH_MIN - 1],
    ['stretches just long enough, at every offset', 600, (p) => (p + 3) % 41 < ZERO_STRETCH_MIN],
  ];
  for (const [name, len, zero] of layouts) {
    it(name, () => {
      const out: number[] = [];
      const skipped = pagesToHash(run(len, zero), 0, len, PAGE_WORDS, out);
      expect({ out, skipped }).toEqual(model(len, zero));
    });
  }

  it('a page zero but for one word is hashed, inside a long zero stretch too', () => {
    const len = 200;
    const words = new Int32Array(len * PAGE_WORDS);
    words[100 * PAGE_WORDS + PAGE_WORDS - 1] = 1;
    words[150 * PAGE_WORDS] = 1;
    const out: number[] = [];
    expect(pagesToHash(words, 0, len, PAGE_WORDS, out)).toBe(len - 2);
    expect(out).toEqual([100, 101, 150, 151]);
  });
});
