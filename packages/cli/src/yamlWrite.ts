/**
 * YAML out of the JSON form of a value (`toJson`'s objects, arrays,
 * strings, numbers, booleans, null), written in pieces as it is built: the
 * `yaml` package's document model costs seconds and gigabytes on a large
 * state (docs/BENCHMARKS.md `## YAML`), and these values need none of it.
 *
 * The YAML: block mappings and block sequences for objects and arrays that
 * hold objects or arrays, a flow sequence on one line for arrays of
 * scalars, `[]` and `{}` when empty. Every string is double-quoted with
 * JSON's escapes plus `\uXXXX` for what YAML does not print raw (C1 controls,
 * DEL, U+2028/U+2029, BOM, noncharacters), so no string reads back as a
 * number, a boolean or null under YAML 1.1 or 1.2, and none spans lines.
 * Keys are plain only when they are identifiers no YAML reads as anything
 * else (`on`, `no`, `null`, … are quoted).
 *
 * Invariant: a standard YAML parser reads the output back to the input value
 * (the tests hold it to the `yaml` package on random values).
 * @module
 */

/** Output is handed on in pieces of about this many characters. */
const PIECE = 1 << 20;

/** Identifiers some YAML version reads as a boolean or null (YAML 1.1's yes/no/on/off/y/n, 1.2's true/false/null). */
const RESERVED = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL)$/;
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Characters YAML does not allow raw in a double-quoted scalar, or reads as line breaks (YAML 1.1). */
const UNPRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const UNPRINTABLE_ALL = new RegExp(UNPRINTABLE.source, 'g');

function quote(s: string): string {
  const json = JSON.stringify(s);
  return UNPRINTABLE.test(json) ? json.replace(UNPRINTABLE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

function key(k: string): string {
  return PLAIN_KEY.test(k) && !RESERVED.test(k) ? k : quote(k);
}

function isComposite(v: unknown): v is object {
  return typeof v === 'object' && v !== null && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
}

function scalar(v: unknown): string {
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeError(`YAML output: ${v} is not a JSON number`);
    return String(v);
  }
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[${v.map(scalar).join(', ')}]`;
  if (typeof v === 'object') return '{}';
  throw new TypeError(`YAML output: a ${typeof v} is not a JSON value`);
}

/** Whether an array is written as one flow sequence: it holds no non-empty object or array. */
function isFlat(a: readonly unknown[]): boolean {
  for (const x of a) if (isComposite(x)) return false;
  return true;
}

/** Writes `value` as a YAML document, handing the text to `write` in pieces. */
export function writeYaml(value: unknown, write: (piece: string) => void): void {
  let out = '';
  const emit = (s: string): void => {
    out += s;
    if (out.length >= PIECE) {
      write(out);
      out = '';
    }
  };
  const inline = (v: unknown): boolean => !isComposite(v) || (Array.isArray(v) && isFlat(v));

  /** A mapping's entries at `pad`; the first one's key already placed when `first` is false. */
  const mapping = (o: Record<string, unknown>, pad: string, firstPlaced: boolean): void => {
    let first = true;
    for (const k of Object.keys(o)) {
      if (!(first && firstPlaced)) emit(pad);
      first = false;
      const v = o[k];
      if (inline(v)) emit(`${key(k)}: ${scalar(v)}\n`);
      else {
        emit(`${key(k)}:\n`);
        block(v as object, `${pad}  `);
      }
    }
  };
  /** A non-empty object, or an array holding composites, as a block at `pad`. */
  const block = (v: object, pad: string): void => {
    if (!Array.isArray(v)) return mapping(v as Record<string, unknown>, pad, false);
    for (const item of v) {
      if (inline(item)) emit(`${pad}- ${scalar(item)}\n`);
      else if (Array.isArray(item)) {
        emit(`${pad}-\n`);
        block(item, `${pad}  `);
      } else {
        // A mapping in a sequence: its first key on the dash's line, the rest under it.
        emit(`${pad}- `);
        mapping(item as Record<string, unknown>, `${pad}  `, true);
      }
    }
  };

  if (inline(value)) emit(`${scalar(value)}\n`);
  else block(value as object, '');
  if (out.length > 0) write(out);
}
