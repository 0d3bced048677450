/**
 * The consensus API's JSON form: every uint as a decimal string (the beacon
 * API's convention, which covers the "uint64 and larger" rule and keeps
 * smaller uints uniform), bytes and bitfields as lowercase 0x-hex, field
 * names as declared. Parsers accept what the spec-test YAML holds too:
 * numbers and bigints for uints.
 *
 * Every parse failure is an `SszError` with code `INVALID_JSON`.
 * @module
 */
import { SszError } from './errors.js';

/** A JSON value, as produced by `toJson` and accepted by `fromJson`. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const HEX = /* @__PURE__ */ Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The two ASCII hex digits of each byte value, high then low. */
const HEX_HIGH = /* @__PURE__ */ Uint8Array.from(HEX, (h) => h.charCodeAt(0));
const HEX_LOW = /* @__PURE__ */ Uint8Array.from(HEX, (h) => h.charCodeAt(1));
/** ASCII digits decoded to a string in one call (any ASCII-compatible label does; latin1 is in every engine). */
const ASCII = /* @__PURE__ */ new TextDecoder('latin1');
let hexScratch = new Uint8Array(256);

/**
 * Bytes as lower-case 0x-prefixed hex (the consensus API's form for byte
 * fields and roots). The digits are written as bytes and decoded in one
 * call: appending two-character strings per byte built a rope per value,
 * and `toJson` of a mainnet electra state of 2^18 validators took 8.5 s
 * with it, 1.0–1.4 s with this (three runs, node 20, the 2-core benchmark
 * machine; `bench/yaml.ts`'s decode rows include it).
 */
export function toHex(bytes: Uint8Array): string {
  const n = 2 * bytes.length + 2;
  if (hexScratch.length < n) hexScratch = new Uint8Array(Math.max(n, 2 * hexScratch.length));
  const out = hexScratch;
  out[0] = 0x30; // '0'
  out[1] = 0x78; // 'x'
  for (let i = 0, o = 2; i < bytes.length; i++, o += 2) {
    const b = bytes[i] as number;
    out[o] = HEX_HIGH[b] as number;
    out[o + 1] = HEX_LOW[b] as number;
  }
  return ASCII.decode(out.subarray(0, n));
}

function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** Parses 0x-hex (the prefix is required) into bytes. */
export function fromHex(json: unknown): Uint8Array {
  if (typeof json !== 'string' || !json.startsWith('0x') || json.length % 2 !== 0) {
    throw new SszError('INVALID_JSON', `expected an even-length 0x-hex string, got ${describe(json)}`);
  }
  const out = new Uint8Array((json.length - 2) / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(json.charCodeAt(2 + 2 * i));
    const lo = nibble(json.charCodeAt(3 + 2 * i));
    if (hi < 0 || lo < 0) throw new SszError('INVALID_JSON', `invalid hex digit in ${describe(json)}`);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** Parses a non-negative integer from a decimal string, a safe-integer number, or a bigint. */
export function parseUint(json: unknown, max: bigint): bigint {
  let value: bigint;
  if (typeof json === 'bigint') value = json;
  else if (typeof json === 'number' && Number.isSafeInteger(json)) value = BigInt(json);
  else if (typeof json === 'string' && DECIMAL.test(json)) value = BigInt(json);
  else throw new SszError('INVALID_JSON', `expected a decimal integer, got ${describe(json)}`);
  if (value < 0n || value > max) throw new SszError('INVALID_JSON', `${value} is outside 0..${max}`);
  return value;
}

export function expectArray(json: unknown): readonly unknown[] {
  if (!Array.isArray(json)) throw new SszError('INVALID_JSON', `expected an array, got ${describe(json)}`);
  return json;
}

export function expectObject(json: unknown): Readonly<Record<string, unknown>> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new SszError('INVALID_JSON', `expected an object, got ${describe(json)}`);
  }
  return json as Record<string, unknown>;
}

export function describe(json: unknown): string {
  if (typeof json === 'string') return json.length > 40 ? `"${json.slice(0, 37)}..."` : `"${json}"`;
  if (typeof json === 'bigint') return `${json}n`;
  if (Array.isArray(json)) return `an array of ${json.length}`;
  return json === null ? 'null' : typeof json === 'object' ? 'an object' : String(json);
}
