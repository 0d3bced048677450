/**
 * Reading YAML values fast: a reader for the subset that values are written
 * in — what `yamlWrite.ts` writes and what the consensus spec vectors'
 * `value.yaml` files hold — and the `yaml` package for everything else.
 *
 * The subset: block mappings with identifier or quoted keys, block sequences
 * (indented or not under their key, mappings starting on the dash's line),
 * flow sequences and mappings (across lines too), single- and double-quoted
 * one-line strings, plain integers (as bigint, like the `yaml` package with
 * `intAsBigInt`), true/false, null, comments, one leading `---`. The moment
 * the reader meets anything else — an anchor, a tag, a block scalar, a
 * plain string, a float, a duplicate key, odd indentation — it gives up and
 * the whole text goes to the `yaml` package, so no input reads differently
 * from a standard parser: the fast path only ever accepts text whose value
 * it reads exactly as YAML 1.2 does (the tests hold it to the `yaml`
 * package). Errors are the `yaml` package's too (it reports them on its
 * reread).
 * @module
 */
import { parse as parseYamlPackage } from 'yaml';

/** Thrown inside the reader when the text leaves the subset. */
class OutsideSubset extends Error {}
const outside = (): never => {
  throw new OutsideSubset();
};

const SPACE = 0x20;
const NL = 0x0a;
const CR = 0x0d;
const HASH = 0x23;
const DASH = 0x2d;
const COLON = 0x3a;
const COMMA = 0x2c;
const DQ = 0x22;
const SQ = 0x27;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

const INT = /^[-+]?[0-9]+$/;
const CORE_WORDS = /^(?:true|True|TRUE|false|False|FALSE|null|Null|NULL)$/;
const IDENT_START = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const IDENT = (c: number): boolean => IDENT_START(c) || (c >= 0x30 && c <= 0x39);

class Reader {
  private i = 0;
  private readonly n: number;

  constructor(private readonly s: string) {
    this.n = s.length;
  }

  document(): unknown {
    this.skipBlank();
    if (this.s.startsWith('---', this.i) && this.isLineEnd(this.i + 3)) {
      this.i += 3;
      this.endOfLine();
      this.skipBlank();
    }
    const value = this.i >= this.n ? null : this.node(-1);
    this.skipBlank();
    if (this.i < this.n) outside();
    return value;
  }

  /** Skips blank and comment-only lines, stopping at the start of the next content line (or the end). */
  private skipBlank(): void {
    const s = this.s;
    for (;;) {
      let j = this.i;
      while (j < this.n && s.charCodeAt(j) === SPACE) j++;
      const c = s.charCodeAt(j);
      if (j >= this.n) {
        this.i = j;
        return;
      }
      if (c === NL || c === CR || c === HASH) {
        while (j < this.n && s.charCodeAt(j) !== NL) j++;
        this.i = j + 1;
        continue;
      }
      if (c === 0x09) outside(); // a tab in indentation
      return;
    }
  }

  /** The indent of the line starting at `this.i` (a content line). */
  private indent(): number {
    let j = this.i;
    while (j < this.n && this.s.charCodeAt(j) === SPACE) j++;
    return j - this.i;
  }

  private isLineEnd(j: number): boolean {
    const c = this.s.charCodeAt(j);
    return j >= this.n || c === NL || c === CR;
  }

  /** After a value: spaces, an optional comment, the line's end. */
  private endOfLine(): void {
    const s = this.s;
    let sawSpace = false;
    while (this.i < this.n && s.charCodeAt(this.i) === SPACE) {
      this.i++;
      sawSpace = true;
    }
    if (this.i < this.n && s.charCodeAt(this.i) === HASH && sawSpace) while (this.i < this.n && s.charCodeAt(this.i) !== NL) this.i++;
    if (this.i < this.n && s.charCodeAt(this.i) === CR) this.i++;
    if (this.i < this.n && s.charCodeAt(this.i) !== NL) outside();
    this.i++;
  }

  private isSeqLine(at: number): boolean {
    return this.s.charCodeAt(at) === DASH && (this.isLineEnd(at + 1) || this.s.charCodeAt(at + 1) === SPACE);
  }

  /** The block node whose lines are indented more than `parent` (at the start of its first content line). */
  private node(parent: number): unknown {
    const ind = this.indent();
    if (ind <= parent) outside();
    const at = this.i + ind;
    if (this.isSeqLine(at)) return this.sequence(ind);
    this.i = at;
    if (this.looksLikeKey(at) && this.keyFollows()) return this.mapping(ind);
    // A value alone on its line(s).
    const v = this.inline(parent);
    this.endOfLine();
    return v;
  }

  /** Whether a mapping key (`ident:` or a quoted key then `:`) starts at `at`. */
  private looksLikeKey(at: number): boolean {
    const s = this.s;
    let j = at;
    const c = s.charCodeAt(j);
    if (c === DQ || c === SQ) return true; // decided by `key()`
    if (!IDENT_START(c)) return false;
    while (j < this.n && IDENT(s.charCodeAt(j))) j++;
    return s.charCodeAt(j) === COLON;
  }

  private key(): string {
    const s = this.s;
    const c = s.charCodeAt(this.i);
    let k: string;
    if (c === DQ) k = this.doubleQuoted();
    else if (c === SQ) k = this.singleQuoted();
    else {
      const start = this.i;
      if (!IDENT_START(c)) outside();
      while (this.i < this.n && IDENT(s.charCodeAt(this.i))) this.i++;
      k = s.slice(start, this.i);
      // A plain key YAML 1.2 resolves to a boolean or null is not the string it spells.
      if (CORE_WORDS.test(k)) outside();
    }
    if (s.charCodeAt(this.i) !== COLON) outside();
    this.i++;
    return k;
  }

  /** A block mapping whose keys sit at column `col`; `this.i` is at its first key (on its line, maybe after a dash). */
  private mapping(col: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      const k = this.key();
      if (Object.prototype.hasOwnProperty.call(out, k)) outside();
      let v: unknown;
      const c = this.s.charCodeAt(this.i);
      if (this.isLineEnd(this.i) || (c === SPACE && this.restIsEmpty())) {
        this.endOfLine();
        this.skipBlank();
        if (this.i >= this.n) v = null;
        else {
          const ind = this.indent();
          if (ind > col) v = this.node(col);
          else if (ind === col && this.isSeqLine(this.i + ind)) v = this.sequence(col);
          else v = null;
        }
      } else {
        if (c !== SPACE) outside();
        this.i++;
        while (this.s.charCodeAt(this.i) === SPACE) this.i++;
        v = this.inline(col);
        this.endOfLine();
      }
      out[k] = v;
      this.skipBlank();
      if (this.i >= this.n) return out;
      const ind = this.indent();
      if (ind < col) return out;
      if (ind > col || this.isSeqLine(this.i + ind)) {
        // A sequence at the keys' column ends the mapping only where it was the value of the key above.
        if (ind === col && this.isSeqLine(this.i + ind)) return out;
        outside();
      }
      this.i += ind;
    }
  }

  /** Whether only spaces and maybe a comment remain on the line. */
  private restIsEmpty(): boolean {
    let j = this.i;
    while (j < this.n && this.s.charCodeAt(j) === SPACE) j++;
    return this.isLineEnd(j) || this.s.charCodeAt(j) === HASH;
  }

  /** A block sequence whose dashes sit at column `col`; `this.i` at the start of its first line. */
  private sequence(col: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      this.i += col + 1; // past the dash
      if (this.isLineEnd(this.i) || this.restIsEmpty()) {
        this.endOfLine();
        this.skipBlank();
        out.push(this.i < this.n && this.indent() > col ? this.node(col) : null);
      } else {
        let spaces = 0;
        while (this.s.charCodeAt(this.i) === SPACE) {
          this.i++;
          spaces++;
        }
        const itemCol = col + 1 + spaces;
        if (this.isSeqLine(this.i)) outside(); // `- - x`: nested compact sequences
        if (this.looksLikeKey(this.i) && this.keyFollows()) out.push(this.mapping(itemCol));
        else {
          out.push(this.inline(col));
          this.endOfLine();
        }
      }
      this.skipBlank();
      if (this.i >= this.n) return out;
      const ind = this.indent();
      if (ind !== col || !this.isSeqLine(this.i + ind)) {
        if (ind < col || (ind === col && !this.isSeqLine(this.i + ind))) return out;
        outside();
      }
    }
  }

  /** Whether the key at `this.i` is a block mapping key (followed by `: ` or `:` at the line's end), not a quoted scalar. */
  private keyFollows(): boolean {
    const save = this.i;
    try {
      this.key();
      return this.isLineEnd(this.i) || this.s.charCodeAt(this.i) === SPACE;
    } catch (e) {
      if (e instanceof OutsideSubset) return false;
      throw e;
    } finally {
      this.i = save;
    }
  }

  /** A value on the current line: flow collection, quoted string, or plain scalar. `parent`: the enclosing block's column. */
  private inline(parent: number): unknown {
    const c = this.s.charCodeAt(this.i);
    if (c === LBRACKET || c === LBRACE) return this.flow(parent);
    if (c === DQ) return this.doubleQuoted();
    if (c === SQ) return this.singleQuoted();
    const start = this.i;
    while (!this.isLineEnd(this.i) && !(this.s.charCodeAt(this.i) === HASH && this.s.charCodeAt(this.i - 1) === SPACE)) this.i++;
    let end = this.i;
    while (end > start && this.s.charCodeAt(end - 1) === SPACE) end--;
    this.i = end;
    return plain(this.s.slice(start, end));
  }

  /** Spaces and line breaks inside a flow collection; continuation lines must be indented past `parent`. */
  private flowSpace(parent: number): void {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === SPACE) this.i++;
      else if (c === NL || c === CR) {
        this.i++;
        const ind = this.indent();
        if (ind <= parent && !this.isLineEnd(this.i + ind)) outside();
        this.i += ind;
      } else if (c === HASH) outside();
      else return;
    }
  }

  private flow(parent: number): unknown {
    const s = this.s;
    const open = s.charCodeAt(this.i++);
    const close = open === LBRACKET ? RBRACKET : RBRACE;
    const list: unknown[] = [];
    const map: Record<string, unknown> = {};
    this.flowSpace(parent);
    if (s.charCodeAt(this.i) === close) {
      this.i++;
      return open === LBRACKET ? list : map;
    }
    for (;;) {
      if (this.i >= this.n) outside();
      if (open === LBRACKET) list.push(this.flowValue(parent));
      else {
        const quoted = s.charCodeAt(this.i) === DQ || s.charCodeAt(this.i) === SQ;
        const k = this.key();
        if (Object.prototype.hasOwnProperty.call(map, k)) outside();
        // After a plain key the colon needs a space (or a break, or an indicator): `on:""` is one plain scalar.
        const next = s.charCodeAt(this.i);
        if (!quoted && next !== SPACE && next !== NL && next !== CR && next !== COMMA && next !== RBRACE && next !== RBRACKET) outside();
        this.flowSpace(parent);
        map[k] = this.flowValue(parent);
      }
      this.flowSpace(parent);
      const c = s.charCodeAt(this.i++);
      if (c === close) return open === LBRACKET ? list : map;
      if (c !== COMMA) outside();
      this.flowSpace(parent);
      // A trailing comma before the close is fine in YAML.
      if (s.charCodeAt(this.i) === close) {
        this.i++;
        return open === LBRACKET ? list : map;
      }
    }
  }

  private flowValue(parent: number): unknown {
    const c = this.s.charCodeAt(this.i);
    if (c === LBRACKET || c === LBRACE) return this.flow(parent);
    if (c === DQ) return this.doubleQuoted();
    if (c === SQ) return this.singleQuoted();
    const start = this.i;
    for (;;) {
      const d = this.s.charCodeAt(this.i);
      if (this.i >= this.n || d === COMMA || d === RBRACKET || d === RBRACE || d === NL || d === CR || d === SPACE) break;
      if (d === COLON || d === LBRACKET || d === LBRACE || d === HASH) outside();
      this.i++;
    }
    return plain(this.s.slice(start, this.i));
  }

  private doubleQuoted(): string {
    const s = this.s;
    const start = this.i;
    this.i++;
    let escaped = false;
    for (;;) {
      if (this.i >= this.n) outside();
      const c = s.charCodeAt(this.i);
      if (c === DQ) break;
      // Multi-line strings fold, raw control characters are errors: the package reads (or rejects) those.
      if (c < SPACE && c !== 0x09) outside();
      if (c === 0x5c) {
        escaped = true;
        const e = s.charCodeAt(this.i + 1);
        // JSON's escapes only (YAML's others, \x, \0, \N, …, go to the package).
        if (e === 0x75) this.i += 6;
        else if ('"\\/bfnrt'.includes(s[this.i + 1] ?? '')) this.i += 2;
        else outside();
        continue;
      }
      this.i++;
    }
    this.i++;
    const body = s.slice(start, this.i);
    if (!escaped) return body.slice(1, -1);
    try {
      return JSON.parse(body) as string;
    } catch {
      return outside();
    }
  }

  private singleQuoted(): string {
    const s = this.s;
    let out = '';
    let from = ++this.i;
    for (;;) {
      if (this.i >= this.n) outside();
      const c = s.charCodeAt(this.i);
      if (c < SPACE && c !== 0x09) outside();
      if (c === SQ) {
        if (s.charCodeAt(this.i + 1) === SQ) {
          out += s.slice(from, this.i + 1);
          this.i += 2;
          from = this.i;
          continue;
        }
        out += s.slice(from, this.i);
        this.i++;
        return out;
      }
      this.i++;
    }
  }
}

/** A plain scalar of the subset: an integer, a boolean, null; anything else is for the package. */
function plain(text: string): unknown {
  if (INT.test(text)) return BigInt(text);
  switch (text) {
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
    case 'null':
    case 'Null':
    case 'NULL':
    case '~':
      return null;
    default:
      return outside();
  }
}

/**
 * The value of a YAML text (integers as bigint): through the fast reader when
 * the text is within its subset, else through the `yaml` package (which
 * also reports any syntax error, as a `YAMLParseError`).
 */
export function readYaml(text: string): unknown {
  try {
    return new Reader(text).document();
  } catch (e) {
    if (!(e instanceof OutsideSubset)) throw e;
  }
  return parseYamlPackage(text, { intAsBigInt: true });
}

/** `readYaml`'s fast path alone: the value, or undefined where the text leaves the subset (for tests and benchmarks). */
export function readYamlSubset(text: string): { value: unknown } | undefined {
  try {
    return { value: new Reader(text).document() };
  } catch (e) {
    if (e instanceof OutsideSubset) return undefined;
    throw e;
  }
}
