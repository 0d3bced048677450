/**
 * Mutators: small pure functions from a valid encoding (and its layout) to a
 * new byte string. Each returns null when it does not apply (no offsets, no
 * lists, …) and a label saying what it did, for failure reports.
 *
 * Structural mutators aim at the bug classes SSZ decoders have shipped with:
 * offsets into the fixed part, past the end, decreasing; list lengths at the
 * limit ± 1; bitlists without a delimiter or one bit too long; bitvector
 * padding; booleans above 1; union selectors out of range and None followed
 * by bytes. Byte-level mutators (bit flips, truncation, extension, splices)
 * run after them, on bytes the layout no longer describes.
 */
import { BitvectorType, UnionType, type SszType } from '@ssztree/types';
import { replaceRegion, type Layout, type Region } from './layout.js';
import type { Rng } from './prng.js';

export interface MutationInput {
  readonly bytes: Uint8Array;
  readonly layout: Layout;
}
export interface Mutation {
  readonly bytes: Uint8Array;
  readonly label: string;
}
export type Mutator = (input: MutationInput, rng: Rng) => Mutation | null;

/** Lists are grown to at most this many bytes (a limit ± 1 beyond it is tried with a forged first offset instead). */
export const MAX_GROW = 1 << 20;
const INTERESTING_BYTES = [0x00, 0x01, 0x02, 0x03, 0x7f, 0x80, 0xfe, 0xff];

const u32 = (b: Uint8Array, pos: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(pos, true);
function withU32(b: Uint8Array, pos: number, value: number): Uint8Array {
  const out = b.slice();
  new DataView(out.buffer).setUint32(pos, value >>> 0, true);
  return out;
}
function regionsOf(layout: Layout, pred: (r: Region) => boolean): number[] {
  const out: number[] = [];
  layout.regions.forEach((r, i) => {
    if (pred(r)) out.push(i);
  });
  return out;
}

// --- byte-level ---

export const flipBits: Mutator = ({ bytes }, rng) => {
  if (bytes.length === 0) return null;
  const out = bytes.slice();
  const n = rng.range(1, 4);
  for (let i = 0; i < n; i++) {
    const at = rng.int(out.length);
    out[at] = (out[at] as number) ^ (1 << rng.int(8));
  }
  return { bytes: out, label: `flipBits×${n}` };
};

export const setByte: Mutator = ({ bytes }, rng) => {
  if (bytes.length === 0) return null;
  const out = bytes.slice();
  const at = rng.int(out.length);
  out[at] = rng.chance(0.7) ? rng.pick(INTERESTING_BYTES) : rng.int(256);
  return { bytes: out, label: `setByte@${at}=${out[at]}` };
};

export const truncate: Mutator = ({ bytes }, rng) => {
  if (bytes.length === 0) return null;
  const cut = rng.chance(0.3) ? bytes.length - rng.range(1, Math.min(4, bytes.length)) : rng.int(bytes.length);
  return { bytes: bytes.slice(0, cut), label: `truncate→${cut}` };
};

export const extend: Mutator = ({ bytes }, rng) => {
  const n = rng.chance(0.5) ? rng.range(1, 4) : rng.range(1, 64);
  const tail = rng.chance(0.5) ? new Uint8Array(n) : rng.bytes(n);
  const out = new Uint8Array(bytes.length + n);
  out.set(bytes);
  out.set(tail, bytes.length);
  return { bytes: out, label: `extend+${n}` };
};

export const insertBytes: Mutator = ({ bytes }, rng) => {
  const at = rng.int(bytes.length + 1);
  const ins = rng.bytes(rng.range(1, 8));
  const out = new Uint8Array(bytes.length + ins.length);
  out.set(bytes.subarray(0, at));
  out.set(ins, at);
  out.set(bytes.subarray(at), at + ins.length);
  return { bytes: out, label: `insert${ins.length}@${at}` };
};

export const deleteBytes: Mutator = ({ bytes }, rng) => {
  if (bytes.length === 0) return null;
  const at = rng.int(bytes.length);
  const n = Math.min(bytes.length - at, rng.range(1, 8));
  const out = new Uint8Array(bytes.length - n);
  out.set(bytes.subarray(0, at));
  out.set(bytes.subarray(at + n), at);
  return { bytes: out, label: `delete${n}@${at}` };
};

// --- offsets ---

/** Rewrites one offset to a boundary value: 0, fixed-part end − 1 / + 1, end, end + 1, below the previous, huge. */
export const rewriteOffset: Mutator = ({ bytes, layout }, rng) => {
  if (layout.slots.length === 0) return null;
  const s = rng.pick(layout.slots);
  const cur = u32(bytes, s.pos);
  const prev = layout.slots.find((o) => o.table === s.table && o.index === s.index - 1);
  const next = layout.slots.find((o) => o.table === s.table && o.index === s.index + 1);
  const fixedEnd = s.fixedEnd - s.base;
  const end = s.end - s.base;
  const choices: [string, number][] = [
    ['0', 0],
    ['fixedEnd-1', fixedEnd - 1],
    ['fixedEnd', fixedEnd],
    ['fixedEnd+1', fixedEnd + 1],
    ['fixedEnd+4', fixedEnd + 4],
    ['end', end],
    ['end+1', end + 1],
    ['pastEnd', end + rng.range(2, 1 << 16)],
    ['cur-1', cur - 1],
    ['cur+1', cur + 1],
    ['0xffffffff', 0xffffffff],
    ['0xfffffffc', 0xfffffffc],
    ['2^31', 0x80000000],
    ['random', rng.u32()],
  ];
  const owner = layout.regions[(layout.regions[s.region] as Region).parent];
  if (s.index === 0 && owner && owner.kind === 'list') {
    // A forged element count: the first offset of a list of variable-size elements is 4 × its length.
    const limit = owner.limit;
    choices.push(['4·(limit-1)', 4 * (limit - 1)], ['4·limit', 4 * limit], ['4·(limit+1)', 4 * (limit + 1)], ['4·2^30', 2 ** 32 - 4]);
  }
  if (prev) choices.push(['prev-1', u32(bytes, prev.pos) - 1], ['prev', u32(bytes, prev.pos)]);
  if (next) choices.push(['next+1', u32(bytes, next.pos) + 1], ['next', u32(bytes, next.pos)]);
  const [name, value] = rng.pick(choices);
  if (value < 0 || value > 0xffffffff) return null;
  return { bytes: withU32(bytes, s.pos, value), label: `offset@${s.pos}:${cur}→${name}(${value >>> 0})` };
};

// --- lengths ---

/** Resizes a list of fixed-size elements to limit − 1, limit, limit + 1, 0, ±1 element, or a non-whole size. */
export const resizeList: Mutator = ({ bytes, layout }, rng) => {
  const lists = regionsOf(layout, (r) => r.kind === 'list' && r.elemSize > 0);
  if (lists.length === 0) return null;
  const index = rng.pick(lists);
  const r = layout.regions[index] as Region;
  const es = r.elemSize;
  const cur = (r.end - r.start) / es;
  const counts: [string, number][] = [
    ['limit-1', r.limit - 1],
    ['limit', r.limit],
    ['limit+1', r.limit + 1],
    ['0', 0],
    ['cur-1', cur - 1],
    ['cur+1', cur + 1],
    ['cur+k', cur + rng.range(2, 64)],
  ];
  const [name, count] = rng.pick(counts);
  if (count < 0 || count * es > MAX_GROW) return null;
  let size = count * es;
  let how = name;
  if (es > 1 && rng.chance(0.15)) {
    size += rng.chance(0.5) ? 1 : es - 1; // not a whole number of elements
    how += '+partial';
  }
  const body = new Uint8Array(size);
  body.set(bytes.subarray(r.start, r.start + Math.min(size, r.end - r.start)));
  const fill = rng.int(3); // 0: zeros, 1: copies of an existing element, 2: random bytes
  if (size > r.end - r.start) {
    if (fill === 1 && cur > 0) {
      const from = r.start + es * rng.int(cur);
      for (let p = r.end - r.start; p < size; p++) body[p] = bytes[from + ((p - (r.end - r.start)) % es)] as number;
    } else if (fill === 2) body.set(rng.bytes(size - (r.end - r.start)), r.end - r.start);
  }
  return { bytes: replaceRegion(bytes, layout, index, body), label: `list@${r.start}:${cur}→${how}(${count})×${es}B fill${fill}` };
};

/** Rewrites a bitlist to limit − 1, limit, limit + 1 bits, to no delimiter, or with a zero byte after the delimiter. */
export const mutateBitlist: Mutator = ({ bytes, layout }, rng) => {
  const lists = regionsOf(layout, (r) => r.kind === 'bitlist');
  if (lists.length === 0) return null;
  const index = rng.pick(lists);
  const r = layout.regions[index] as Region;
  const old = bytes.subarray(r.start, r.end);
  const choice = rng.int(6);
  let body: Uint8Array;
  let how: string;
  if (choice <= 2 || choice === 5) {
    const bitLen = choice === 5 ? 0 : r.limit - 1 + choice;
    if (bitLen < 0 || bitLen / 8 > MAX_GROW) return null;
    body = rng.bytes((bitLen >> 3) + 1);
    const last = body.length - 1;
    body[last] = ((body[last] as number) & ((1 << (bitLen & 7)) - 1)) | (1 << (bitLen & 7));
    how = `${['limit-1', 'limit', 'limit+1'][choice] ?? '0'} bits (${bitLen})`;
  } else if (choice === 3) {
    body = old.slice();
    if (body.length > 0) body[body.length - 1] = 0;
    how = 'no delimiter';
  } else {
    body = new Uint8Array(old.length + 1);
    body.set(old);
    how = 'zero byte after the delimiter';
  }
  return { bytes: replaceRegion(bytes, layout, index, body), label: `bitlist@${r.start}:${how}` };
};

// --- constrained values ---

export const badBoolean: Mutator = ({ bytes, layout }, rng) => {
  const bools = regionsOf(layout, (r) => r.kind === 'boolean');
  if (bools.length === 0) return null;
  const r = layout.regions[rng.pick(bools)] as Region;
  const out = bytes.slice();
  out[r.start] = rng.chance(0.5) ? 2 : rng.range(2, 255);
  return { bytes: out, label: `boolean@${r.start}=${out[r.start]}` };
};

export const bitvectorPadding: Mutator = ({ bytes, layout }, rng) => {
  const vecs = regionsOf(layout, (r) => r.kind === 'bitvector' && (r.type as unknown as BitvectorType).length % 8 !== 0);
  if (vecs.length === 0) return null;
  const r = layout.regions[rng.pick(vecs)] as Region;
  const len = (r.type as unknown as BitvectorType).length;
  const bit = rng.range(len % 8, 7);
  const out = bytes.slice();
  out[r.end - 1] = (out[r.end - 1] as number) | (1 << bit);
  return { bytes: out, label: `bitvector@${r.start}: padding bit ${bit}` };
};

/** A selector out of range, another option's selector, or None (selector 0) with the old bytes left behind it. */
export const unionSelector: Mutator = ({ bytes, layout }, rng) => {
  const unions = regionsOf(layout, (r) => r.kind === 'union');
  if (unions.length === 0) return null;
  const index = rng.pick(unions);
  const r = layout.regions[index] as Region;
  const options = (r.type as unknown as UnionType<readonly (SszType<unknown> | null)[]>).options;
  const choice = rng.int(4);
  if (choice === 0 && options[0] === null && r.end - r.start > 1) {
    const out = bytes.slice();
    out[r.start] = 0;
    return { bytes: out, label: `union@${r.start}: None with ${r.end - r.start - 1} bytes behind it` };
  }
  if (choice === 1 && options[0] === null) {
    const body = new Uint8Array(1 + rng.range(1, 4));
    return { bytes: replaceRegion(bytes, layout, index, body), label: `union@${r.start}: None followed by ${body.length - 1} zero bytes` };
  }
  const out = bytes.slice();
  out[r.start] = choice === 2 ? rng.range(options.length, 255) : rng.int(options.length);
  return { bytes: out, label: `union@${r.start}: selector ${out[r.start]}` };
};

/** Random bytes over one list, bitlist or bitvector, keeping its size. */
export const scrambleRegion: Mutator = ({ bytes, layout }, rng) => {
  const leaves = regionsOf(layout, (r) => (r.kind === 'list' || r.kind === 'bitlist' || r.kind === 'bitvector') && r.end > r.start);
  if (leaves.length === 0) return null;
  const r = layout.regions[rng.pick(leaves)] as Region;
  const out = bytes.slice();
  out.set(rng.bytes(r.end - r.start), r.start);
  return { bytes: out, label: `scramble@${r.start}+${r.end - r.start}` };
};

export const STRUCTURAL: readonly Mutator[] = [rewriteOffset, rewriteOffset, resizeList, resizeList, mutateBitlist, badBoolean, bitvectorPadding, unionSelector, scrambleRegion];
export const BYTE_LEVEL: readonly Mutator[] = [flipBits, flipBits, setByte, truncate, extend, insertBytes, deleteBytes];

/**
 * One mutated input: usually one structural mutation (when the layout offers
 * one), sometimes followed by byte-level mutations; sometimes byte-level only.
 */
export function mutate(input: MutationInput, rng: Rng): Mutation {
  const labels: string[] = [];
  let bytes = input.bytes;
  if (rng.chance(0.7)) {
    for (let tries = 0; tries < 4; tries++) {
      const m = rng.pick(STRUCTURAL)(input, rng);
      if (m) {
        bytes = m.bytes;
        labels.push(m.label);
        break;
      }
    }
  }
  const extra = labels.length === 0 ? rng.range(1, 3) : rng.chance(0.3) ? rng.range(1, 2) : 0;
  for (let i = 0; i < extra; i++) {
    const m = rng.pick(BYTE_LEVEL)({ bytes, layout: input.layout }, rng);
    if (m) {
      bytes = m.bytes;
      labels.push(m.label);
    }
  }
  if (labels.length === 0) {
    const m = extend({ bytes, layout: input.layout }, rng) as Mutation;
    return m;
  }
  return { bytes, label: labels.join(' + ') };
}
