/**
 * The text generated container codecs (`containerCodegen.ts`) inline for one
 * field: the valid case of the field's own `_read`/`_write`/`_decode`/
 * `_encode` written out in place (a DataView call, one `set`, a typed-array
 * view), so the hot loop over many values calls nothing per field.
 *
 * Invariant: every snippet covers a subset of the field type's valid inputs
 * and produces exactly the bytes or value the type's method would; for
 * everything else it calls that method itself, which throws the type's own
 * error (code, message, byte offset). So errors are the field type's,
 * unchanged, and only valid input takes the inline path. Field types not
 * listed here get the method call as before.
 *
 * Names the snippets use, bound by the generated function: `T<i>` (the
 * field type), `out`, `dv`, `data`, `buf` (data.buffer), `base`
 * (data.byteOffset), the scratch `W` (a BigUint64Array of one) with `U` (its
 * two uint32 words), `M64` (2^64 - 1), `v` (the value being written), `lo`,
 * `hi`, `b`, `h` (scratch), `IL`, `IH`, `IV` (the intern table's words and
 * bigints). Text holds only numbers and these names.
 * @module
 */
import type { CodegenField } from './containerGeneric.js';
import { BooleanType } from './boolean.js';
import { ByteVectorType } from './byteVector.js';
import { LITTLE_ENDIAN, Uint64NumberType, Uint64Type, UintNumberType } from './uint.js';

/** The field kinds with an inline form. */
type Kind = 'u8' | 'u16' | 'u32' | 'u64' | 'u64n' | 'bool' | 'bytes' | null;

/** The field's kind; exact classes only (a subclass may change what its methods accept). */
function kindOf(f: CodegenField): Kind {
  const proto: unknown = Object.getPrototypeOf(f.type);
  if (proto === Uint64Type.prototype) return 'u64';
  if (proto === Uint64NumberType.prototype) return 'u64n';
  if (proto === BooleanType.prototype) return 'bool';
  if (proto === UintNumberType.prototype) {
    const n = (f.type as UintNumberType<never>).byteLength;
    return n === 1 ? 'u8' : n === 2 ? 'u16' : 'u32';
  }
  if (proto === ByteVectorType.prototype) return 'bytes';
  return null;
}

/**
 * Statements that write field `i`'s value `v` at byte `at` (an expression),
 * or null when the field has no inline form. `slow` is the statement that
 * hands an invalid value to the type's own method (it throws).
 */
export function inlineWrite(f: CodegenField, i: number, at: string): string | null {
  const slow = f.basic ? `T${i}._write(dv, ${at}, v);` : `T${i}._encode(v, out, dv, ${at});`;
  switch (kindOf(f)) {
    case 'u64':
      // The bigint's two words through a typed-array scratch: no DataView BigInt call (little-endian hosts).
      return LITTLE_ENDIAN
        ? `if (typeof v === 'bigint' && v >= 0n && v <= M64) { W[0] = v; dv.setUint32(${at}, U[0], true); dv.setUint32(${at} + 4, U[1], true); } else ${slow}`
        : `if (typeof v === 'bigint' && v >= 0n && v <= M64) dv.setBigUint64(${at}, v, true); else ${slow}`;
    case 'u64n':
      // Integers to 2^53 (Uint64NumberType._write's words); Infinity and every invalid value go to the method.
      return (
        `if (typeof v === 'number' && (v >>> 0) === v) { dv.setUint32(${at}, v, true); dv.setUint32(${at} + 4, 0, true); } ` +
        `else if (typeof v === 'number' && v > 0 && v <= 9007199254740992 && Math.floor(v) === v) { dv.setUint32(${at}, v >>> 0, true); dv.setUint32(${at} + 4, (v / 4294967296) >>> 0, true); } ` +
        `else ${slow}`
      );
    case 'bool':
      return `if (v === true) out[${at}] = 1; else if (v === false) out[${at}] = 0; else ${slow}`;
    case 'u8':
      return `if (typeof v === 'number' && (v & 255) === v) out[${at}] = v; else ${slow}`;
    case 'u16':
      return `if (typeof v === 'number' && (v & 65535) === v) dv.setUint16(${at}, v, true); else ${slow}`;
    case 'u32':
      return `if (typeof v === 'number' && (v >>> 0) === v) dv.setUint32(${at}, v, true); else ${slow}`;
    case 'bytes':
      return `if (v instanceof Uint8Array && v.length === ${f.fixedSize}) out.set(v, ${at}); else ${slow}`;
    default:
      return null;
  }
}

/**
 * log2 of the intern table's slots. Measured with bench/serialize.ts's
 * 2^18 Validators (`process.cpuUsage`, 3 processes × 9 decodes, medians
 * of the medians): 10 bits 205 ms, 12 bits 216 ms, 16 bits 270 ms (the
 * table no longer fits the first-level caches), no table 232 ms.
 */
const INTERN_BITS = 10;

/**
 * The uint64 intern table the generated decoders share: slot `h` holds the
 * bigint whose low and high words are `lo[h]` and `hi[h]` (every slot
 * starts as 0n with both words 0, so it is consistent from the start). A
 * decoded uint64 whose words match its slot gets that slot's bigint instead
 * of a new one: the values a state repeats across its validators
 * (FAR_FUTURE_EPOCH, 0, 32·10^9 and the other effective balances, the
 * epochs of one activation batch) become one bigint each, so the decoder
 * allocates, and the young-generation collector copies, fewer objects.
 * Bigints are immutable primitives: no caller can tell a shared one from a
 * fresh one. A miss overwrites the slot; the table holds at most
 * 2^INTERN_BITS bigints alive. Only ever written by the generated code,
 * each lookup and update in one synchronous step.
 */
export const internTable = {
  lo: new Int32Array(1 << INTERN_BITS),
  hi: new Int32Array(1 << INTERN_BITS),
  v: new Array<bigint>(1 << INTERN_BITS).fill(0n),
};

/**
 * Statements that leave field `i`'s value, read at byte `at`, in the
 * variable `target`, or null when the field has no inline form. uint64
 * bigints come from the intern table (`internTable`). With `memo`, each
 * uint64 field also remembers its last value by its two words in the locals
 * `m<i>`, `ml<i>`, `mh<i>` (declared by `memoDeclarations`): a run of equal
 * values (FAR_FUTURE_EPOCH exits, one effective balance) skips even the
 * table lookup.
 */
export function inlineRead(f: CodegenField, i: number, at: string, target: string, memo: boolean): string | null {
  switch (kindOf(f)) {
    case 'u64': {
      // The interned bigint for the words (lo, hi) into `t`: the slot's, or a new one that takes the slot.
      const intern = (t: string) =>
        `h = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> ${32 - INTERN_BITS}; ` +
        `if (IL[h] === lo && IH[h] === hi) ${t} = IV[h]; else { ${t} = dv.getBigUint64(${at}, true); IL[h] = lo; IH[h] = hi; IV[h] = ${t}; }`;
      const words = `lo = dv.getInt32(${at}, true); hi = dv.getInt32(${at} + 4, true); `;
      if (!memo) return words + intern(target);
      return words + `if (lo !== ml${i} || hi !== mh${i}) { ml${i} = lo; mh${i} = hi; ${intern(`m${i}`)} } ${target} = m${i};`;
    }
    case 'u64n':
      return (
        `lo = dv.getUint32(${at}, true); hi = dv.getUint32(${at} + 4, true); ` +
        `${target} = hi <= 2097151 || (hi === 2097152 && lo === 0) ? hi * 4294967296 + lo : T${i}._read(dv, ${at});`
      );
    case 'bool':
      return `b = data[${at}]; if (b > 1) T${i}._read(dv, ${at}); ${target} = b === 1;`;
    case 'u8':
      return `${target} = data[${at}];`;
    case 'u16':
      return `${target} = dv.getUint16(${at}, true);`;
    case 'u32':
      return `${target} = dv.getUint32(${at}, true);`;
    case 'bytes':
      // What ByteVectorType._decode returns: a view of the decoder's private copy.
      return `${target} = new Uint8Array(buf, base + ${at}, ${f.fixedSize});`;
    default:
      return null;
  }
}

/** The memo locals `inlineRead` uses for the uint64 fields among `fields` (0n: both words zero). */
export function memoDeclarations(fields: readonly CodegenField[]): string {
  const names = fields.flatMap((f, i) => (kindOf(f) === 'u64' ? [`m${i} = 0n, ml${i} = 0, mh${i} = 0`] : []));
  return names.length === 0 ? '' : `let ${names.join(', ')};`;
}
