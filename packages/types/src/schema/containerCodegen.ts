/**
 * Specialised codecs for one container, generated once per container type.
 *
 * Why generate code: a generic loop over fields reads and writes properties
 * by computed keys and calls every field type from the same call site, which
 * V8 can neither specialise nor inline (megamorphic). A function generated
 * per container has one call site per field, so each site sees exactly one
 * field type and inlines it, and it builds each value with one object
 * literal of fixed shape. Measured on 2^18 Validators this is several times
 * faster than the generic loop. Uint, boolean and byte-vector fields are
 * written out in place (containerInline.ts). Fixed-size containers also get
 * `decodeRun`/`encodeRun`, the loop over values back to back inside the
 * generated function, which lists and vectors use (sequence.ts); the run
 * decoder shares a bigint between consecutive equal uint64s, which took
 * about 14 % off the CPU time of decoding 2^18 Validators (bench:serialize's
 * values; `process.cpuUsage`, 14 rounds, p25 162 vs 189 ms), and every
 * decoder takes repeated uint64s from one shared intern table
 * (containerInline.ts), which took about another 10 % off.
 *
 * Safety: the generated text contains only numbers computed here, field
 * names embedded through JSON.stringify and the constant snippets of
 * containerInline.ts; field types are passed in as closure values, never as
 * text. Behaviour matches the generic codec byte for byte, errors included
 * (the spec tests run through these functions; test/differential/
 * containerRuns.test.ts holds the runs to the closure codecs).
 *
 * Where code generation is refused (a Content-Security-Policy without
 * `'unsafe-eval'`, which makes `new Function` throw), or switched off with
 * the environment variable `SSZTREE_NO_CODEGEN=1`, every container gets the
 * closure-based codec of `containerGeneric.ts` instead: same behaviour and
 * errors, slower. The probe runs once, on the first container defined.
 * @module
 */
import { codecHelpers as helpers, genericCodec, type CodegenField, type DecodeFn, type DecodeRunFn, type EncodeFn, type EncodeRunFn, type FillFn } from './containerGeneric.js';
import { inlineRead, inlineWrite, internTable, memoDeclarations } from './containerInline.js';

const key = (name: string) => `[${JSON.stringify(name)}]`;

let codegenAllowed: boolean | undefined;

/** Whether containers get generated codecs here: probed once (see the module comment). */
export function codegenAvailable(): boolean {
  if (codegenAllowed === undefined) {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    if (env?.SSZTREE_NO_CODEGEN === '1') codegenAllowed = false;
    else {
      try {
        // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a constant probe
        codegenAllowed = (new Function('return 1') as () => number)() === 1;
      } catch {
        codegenAllowed = false;
      }
    }
  }
  return codegenAllowed;
}

export interface ContainerCodec {
  readonly decode: DecodeFn;
  readonly encode: EncodeFn;
  readonly fill: FillFn;
  /** Runs of values back to back (fixed-size containers only; null otherwise). */
  readonly decodeRun: DecodeRunFn | null;
  readonly encodeRun: EncodeRunFn | null;
  /** True for generated code, false for the closure-based fallback. */
  readonly generated: boolean;
}

/** The codec for one container: generated where allowed, closure-based otherwise. */
export function generateCodec(fields: readonly CodegenField[], fixedPartSize: number, fixedSize: number | null): ContainerCodec {
  if (!codegenAvailable()) return { ...genericCodec(fields, fixedPartSize, fixedSize), generated: false };
  return { ...generatedCodec(fields, fixedPartSize, fixedSize), generated: true };
}

/** The generated codec (throws where `new Function` is refused). */
export function generatedCodec(fields: readonly CodegenField[], fixedPartSize: number, fixedSize: number | null) {
  const types = fields.map((f) => f.type);
  const segments = fields.map((f) => f.segment);
  const vars = fields.map((f, i) => ({ f, i })).filter(({ f }) => f.fixedSize === null);
  /** Reads fixed field i at `a` into f<i>: inline where the field kind has an inline form. */
  const readFixed = (f: CodegenField, i: number, memo: boolean) =>
    inlineRead(f, i, 'a', `f${i}`, memo) ?? (f.basic ? `f${i} = T${i}._read(dv, a);` : `f${i} = T${i}._decode(data, dv, a, a + ${f.fixedSize});`);
  /** Writes fixed field i's value `v` at `a`. */
  const writeFixed = (f: CodegenField, i: number) => inlineWrite(f, i, 'a') ?? (f.basic ? `T${i}._write(dv, a, v);` : `T${i}._encode(v, out, dv, a);`);
  const fieldVars = `let ${fields.map((_, i) => `f${i}`).join(', ')};`;
  const literal = `{ ${fields.map((f, i) => `${JSON.stringify(f.name)}: f${i}`).join(', ')} }`;

  // --- decode ---
  const d: string[] = [];
  d.push(fixedSize !== null ? `if (end - start !== ${fixedSize}) H.wrongSize(start, end, ${fixedSize});` : `if (end - start < ${fixedPartSize}) H.shortFixedPart(start, end, ${fixedPartSize});`);
  if (vars.length > 0) {
    d.push('const size = end - start;');
    vars.forEach(({ f }, v) => {
      d.push(`const o${v} = dv.getUint32(start + ${f.fixedPos}, true);`);
      const bad = v === 0 ? `o0 !== ${fixedPartSize}` : `o${v} < o${v - 1} || o${v} > size`;
      const prev = v === 0 ? String(fixedPartSize) : `o${v - 1}`;
      d.push(`if (${bad}) H.badOffset(S[${fields.indexOf(f)}], start + ${f.fixedPos}, o${v}, ${prev}, ${v === 0}, size);`);
    });
  }
  d.push('const buf = data.buffer, base = data.byteOffset;');
  d.push('let k = 0, a = start, lo = 0, hi = 0, b = 0, h = 0;');
  d.push(fieldVars);
  d.push('try {');
  let v = 0;
  fields.forEach((f, i) => {
    d.push(`k = ${i};`);
    if (f.fixedSize !== null) d.push(`a = start + ${f.fixedPos};`, readFixed(f, i, false));
    else {
      const to = v + 1 < vars.length ? `start + o${v + 1}` : 'end';
      d.push(`a = start + o${v};`, `f${i} = T${i}._decode(data, dv, a, ${to});`);
      v++;
    }
  });
  d.push('} catch (e) { throw H.withPath(e, S[k], a); }');
  d.push(`return ${literal};`);

  // --- encode ---
  const e: string[] = [];
  e.push(`if (typeof value !== 'object' || value === null) H.notObject(value, offset);`);
  e.push(`let k = 0, a = offset, p = offset + ${fixedPartSize}, v;`);
  e.push('try {');
  fields.forEach((f, i) => {
    e.push(`k = ${i}; a = offset + ${f.fixedPos}; v = value${key(f.name)};`);
    if (f.fixedSize === null) e.push(`dv.setUint32(a, p - offset, true); p = T${i}._encode(v, out, dv, p);`);
    else e.push(writeFixed(f, i));
  });
  e.push('} catch (e) { throw H.withPath(e, S[k], a); }');
  e.push('return p;');

  // --- runs of fixed-size values back to back: the loop inside, so every field site stays monomorphic ---
  // Errors as the element loop of sequence.ts over decode/encode raises them: the field's segment, then `[i]`.
  let decodeRun: string[] | null = null;
  let encodeRun: string[] | null = null;
  if (fixedSize !== null) {
    decodeRun = [
      'const buf = data.buffer, base = data.byteOffset, out = new Array(count);',
      'let i = 0, k = 0, a = start, pos = start, lo = 0, hi = 0, b = 0, h = 0;',
      memoDeclarations(fields),
      fieldVars,
      'try {',
      `for (; i < count; i++, pos += ${fixedSize}) {`,
      ...fields.flatMap((f, i) => [`k = ${i}; a = pos + ${f.fixedPos};`, readFixed(f, i, true)]),
      `out[i] = ${literal};`,
      '}',
      "} catch (e) { throw H.withPath(H.withPath(e, S[k], a), '[' + i + ']', pos); }",
      'return out;',
    ];
    encodeRun = [
      'const n = values.length;',
      'let i = 0, k = -1, a = offset, pos = offset, v;',
      'try {',
      `for (; i < n; i++, pos += ${fixedSize}) {`,
      'const value = values[i];',
      'k = -1;',
      `if (typeof value !== 'object' || value === null) H.notObject(value, pos);`,
      ...fields.flatMap((f, i) => [`k = ${i}; a = pos + ${f.fixedPos}; v = value${key(f.name)};`, writeFixed(f, i)]),
      '}',
      "} catch (e) { throw H.withPath(k >= 0 ? H.withPath(e, S[k], a) : e, '[' + i + ']', pos); }",
      'return pos;',
    ];
  }

  // --- fill: basic and one-chunk fields, straight into each value's row ---
  const c: string[] = [];
  c.push('for (let i = 0; i < count; i++) {');
  c.push('const value = values[first + i];');
  c.push(`if (typeof value !== 'object' || value === null) H.notObject(value, -1);`);
  c.push('const b = i * stride;');
  fields.forEach((f, i) => {
    if (f.basic) c.push(`T${i}._write(dv, b + ${32 * i}, value${key(f.name)});`);
    else if (f.rootIsChunk) c.push(`T${i}._chunkInto(value${key(f.name)}, buf, b + ${32 * i});`);
  });
  c.push('}');

  const prelude = [...types.map((_, i) => `const T${i} = T[${i}];`), 'const M64 = (1n << 64n) - 1n, W = new BigUint64Array(1), U = new Uint32Array(W.buffer), IL = I.lo, IH = I.hi, IV = I.v;'].join('\n');
  const make = (params: string, body: string[]) =>
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see the module comment: no untrusted text is evaluated
    new Function('T', 'S', 'H', 'I', `${prelude}\nreturn function (${params}) {\n${body.join('\n')}\n};`)(types, segments, helpers, internTable);
  return {
    decode: make('data, dv, start, end', d) as DecodeFn,
    encode: make('value, out, dv, offset', e) as EncodeFn,
    fill: make('values, first, count, buf, dv, stride', c) as FillFn,
    decodeRun: decodeRun === null ? null : (make('data, dv, start, count', decodeRun) as DecodeRunFn),
    encodeRun: encodeRun === null ? null : (make('values, out, dv, offset', encodeRun) as EncodeRunFn),
  };
}
