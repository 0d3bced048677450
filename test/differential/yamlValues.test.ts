/**
 * Random values of every consensus container through `toJson`, the CLI's
 * YAML writer, the `yaml` package (the oracle) and `fromJson`: the same
 * value back; and the CLI's fast YAML reader reads the text as the package
 * does. (The writer and reader themselves: packages/cli/test/yaml.test.ts.)
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SszType } from '@ssztree/types';
import { FORKS, minimal } from '@ssztree/types/consensus';
import { readYamlSubset } from '../../packages/cli/src/yamlRead.js';
import { writeYaml } from '../../packages/cli/src/yamlWrite.js';
import { arbitrary } from './arbitrary.js';

const yamlOf = (value: unknown): string => {
  let text = '';
  writeYaml(value, (piece) => (text += piece));
  return text;
};
const oracle = (text: string): unknown => parse(text, { intAsBigInt: true });

describe('consensus values through YAML', () => {
  const containers = FORKS.flatMap((fork) =>
    Object.entries(minimal[fork])
      .filter((e): e is [string, SszType<unknown>] => e[1] instanceof SszType && /^[A-Z]/.test(e[0]))
      .map(([name, type]) => [`${fork}.${name}`, type] as const),
  );
  it.each(containers)('%s: random values through toJson, YAML and fromJson', (_, type) => {
    fc.assert(
      fc.property(arbitrary(type), (value) => {
        const text = yamlOf(type.toJson(value));
        expect(type.equals(type.fromJson(oracle(text) as never), value)).toBe(true);
        expect(isDeepStrictEqual(readYamlSubset(text)?.value, oracle(text))).toBe(true);
      }),
      { numRuns: 5 },
    );
  });
});
