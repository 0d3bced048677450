/**
 * Differential: every type of every fork, mainnet preset, against @lodestar/types
 * 1.50 (see lodestar.ts). Lodestar's preset is chosen per process, so this
 * file sets LODESTAR_PRESET before its first import of Lodestar and checks it
 * took effect (vitest runs each test file in a process of its own).
 */
import { describe, expect, it } from 'vitest';
import { FORKS } from '@ssztree/types/consensus';
import { compareWithLodestar } from './lodestar.js';

process.env['LODESTAR_PRESET'] = 'mainnet';
const params = await import('@lodestar/params');
const { ssz } = await import('@lodestar/types');

describe('differential: @lodestar/types 1.50, mainnet preset', () => {
  it('Lodestar runs the mainnet preset in this process', () => {
    expect(params.ACTIVE_PRESET).toBe('mainnet');
  });
  for (const fork of FORKS) {
    it(`mainnet.${fork}: every type compared, or listed with the reason it cannot be`, () => {
      const [report] = compareWithLodestar('mainnet', ssz as never, [fork]);
      console.log(`lodestar mainnet.${fork}: ${report!.compared} types compared; not in Lodestar: ${report!.notInLodestar.join(', ') || 'none'}; another type under that name in Lodestar: ${report!.different.join(', ') || 'none'}`);
      expect(report!.compared).toBeGreaterThan(40);
    }, 180_000);
  }
});
