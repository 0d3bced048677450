/**
 * Specialised codecs for one container, generated once per container type.
 *
 * Why generate code: a generic loop over fields reads and writes properties
 * by computed keys and calls every field type from the same call site, which
 * V8 can neither specialise nor inline (megamorphic). A function generated
 * per container has one call site per field, so each site sees exactly one
 * field type and inlines it, and it builds each value with one object
 * literal of fixed shape. Measured on 2^18 Validators this is several times
 * faster than the generic loop.
 *
 * Safety: the generated text contains only numbers computed here and field
 * names embedded through JSON.stringify; field types are passed in as
 * closure values, never as text. Behaviour matches the generic codec byte
 * for byte (the spec tests run through these functions).
 *
 * Where code generation is refused (a Content-Security-Policy without
 * `'unsafe-eval'`, which makes `new Function` throw), or switched off with
 * the environment variable `SSZTREE_NO_CODEGEN=1`, every container gets the
 * closure-based codec of `containerGeneric.ts` instead: same behaviour and
 * errors, slower. The probe runs once, on the first container defined.
 * @module
 */
import { codecHelpers as helpers, genericCodec, type CodegenField, type DecodeFn, type EncodeFn, type FillFn } from './containerGeneric.js';

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
  d.push(`let k = 0, a = start;`);
  d.push(`let ${fields.map((_, i) => `f${i}`).join(', ')};`);
  d.push('try {');
  let v = 0;
  fields.forEach((f, i) => {
    d.push(`k = ${i};`);
    if (f.fixedSize !== null) {
      d.push(`a = start + ${f.fixedPos};`);
      d.push(f.basic ? `f${i} = T${i}._read(dv, a);` : `f${i} = T${i}._decode(data, dv, a, a + ${f.fixedSize});`);
    } else {
      const to = v + 1 < vars.length ? `start + o${v + 1}` : 'end';
      d.push(`a = start + o${v};`, `f${i} = T${i}._decode(data, dv, a, ${to});`);
      v++;
    }
  });
  d.push('} catch (e) { throw H.withPath(e, S[k], a); }');
  d.push(`return { ${fields.map((f, i) => `${JSON.stringify(f.name)}: f${i}`).join(', ')} };`);

  // --- encode ---
  const e: string[] = [];
  e.push(`if (typeof value !== 'object' || value === null) H.notObject(value, offset);`);
  e.push(`let k = 0, a = offset, p = offset + ${fixedPartSize};`);
  e.push('try {');
  fields.forEach((f, i) => {
    e.push(`k = ${i}; a = offset + ${f.fixedPos};`);
    if (f.fixedSize === null) e.push(`dv.setUint32(a, p - offset, true); p = T${i}._encode(value${key(f.name)}, out, dv, p);`);
    else if (f.basic) e.push(`T${i}._write(dv, a, value${key(f.name)});`);
    else e.push(`T${i}._encode(value${key(f.name)}, out, dv, a);`);
  });
  e.push('} catch (e) { throw H.withPath(e, S[k], a); }');
  e.push('return p;');

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

  const prelude = types.map((_, i) => `const T${i} = T[${i}];`).join('\n');
  const make = (params: string, body: string[]) =>
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see the module comment: no untrusted text is evaluated
    new Function('T', 'S', 'H', `${prelude}\nreturn function (${params}) {\n${body.join('\n')}\n};`)(types, segments, helpers);
  return {
    decode: make('data, dv, start, end', d) as DecodeFn,
    encode: make('value, out, dv, offset', e) as EncodeFn,
    fill: make('values, first, count, buf, dv, stride', c) as FillFn,
  };
}
