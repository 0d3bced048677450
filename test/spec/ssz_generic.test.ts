/**
 * Conformance: every `ssz_generic` case of spec v0.12.x (1905 cases). Valid
 * cases decode, re-encode to the same bytes, match meta.yaml's root and equal
 * value.yaml; invalid ones throw SszError (from the type definition itself
 * when the type cannot exist, e.g. a vector of length 0).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SszError, toHex } from '@ssztree/types';
import { typeFor } from './genericTypes.js';
import { listDirs, readBytes, readRoot, readYaml, specTestsDir } from './specFiles.js';

const HANDLERS = ['basic_vector', 'bitlist', 'bitvector', 'boolean', 'containers', 'uints'];
let root = '';

describe('ssz_generic (spec v0.12.x)', () => {
  beforeAll(() => {
    root = join(specTestsDir(), 'tests/general/phase0/ssz_generic');
  }, 600_000);

  it('holds all 1905 cases', () => {
    let total = 0;
    for (const h of HANDLERS) for (const kind of ['valid', 'invalid']) total += listDirs(join(root, h, kind)).length;
    expect(total).toBe(1905);
  });

  for (const handler of HANDLERS) {
    it(`${handler}: valid cases round-trip, match the root and equal value.yaml`, () => {
      const cases = listDirs(join(root, handler, 'valid'));
      expect(cases.length).toBeGreaterThan(0);
      for (const name of cases) {
        const dir = join(root, handler, 'valid', name);
        const type = typeFor(handler, name);
        const bytes = readBytes(join(dir, 'serialized.ssz'));
        const value = type.deserialize(bytes);
        expect(toHex(type.serialize(value)), name).toBe(toHex(bytes));
        expect(toHex(type.hashTreeRoot(value)), name).toBe(readRoot(join(dir, 'meta.yaml')));
        // The bytes straight out of a tree, and out of a view built from the bytes.
        expect(toHex(type.serializeTree(type.toTree(value))), name).toBe(toHex(bytes));
        expect(toHex(type.deserializeToView(bytes).serialize()), name).toBe(toHex(bytes));
        const expected = type.fromJson(readYaml(join(dir, 'value.yaml')));
        expect(type.equals(value, expected), name).toBe(true);
        expect(type.equals(type.fromJson(type.toJson(value)), value), name).toBe(true);
      }
    });

    it(`${handler}: invalid cases throw SszError`, () => {
      const cases = listDirs(join(root, handler, 'invalid'));
      expect(cases.length).toBeGreaterThan(0);
      for (const name of cases) {
        const file = join(root, handler, 'invalid', name, 'serialized.ssz');
        expect(existsSync(file), name).toBe(true);
        const bytes = readBytes(file);
        let thrown: unknown = null;
        try {
          typeFor(handler, name).deserialize(bytes);
        } catch (e) {
          thrown = e;
        }
        expect(thrown, name).toBeInstanceOf(SszError);
      }
    });
  }
});
