/**
 * Inputs @chainsafe/ssz accepts that SSZ forbids (and we reject). A
 * disagreement on acceptance is a fuzz failure unless one of these explains
 * it; each is documented with its evidence in docs/RELIABILITY.md
 * ("ChainSafe leniencies").
 *
 * The test is on our own rejection (its code and detail), which names the
 * rule that was broken; the corpus pins each one with a concrete input.
 */
import type { SszError } from '@ssztree/types';

export interface Leniency {
  readonly id: string;
  /** What ChainSafe does, and what the spec says. */
  readonly summary: string;
  readonly explains: (ours: SszError) => boolean;
}

export const CHAINSAFE_LENIENCIES: readonly Leniency[] = [
  {
    id: 'chainsafe-union-none-trailing-bytes',
    summary:
      'Union selector 0 (None) followed by more bytes: ChainSafe 1.9.0 returns { selector: 0, value: null } and ignores the rest; the spec says None has an empty serialization, so the bytes are invalid.',
    explains: (e) => e.code === 'TRAILING_BYTES' && e.detail === 'None carries no bytes',
  },
  {
    id: 'chainsafe-empty-union-reads-past-its-range',
    summary:
      'A union with zero bytes (no selector) inside a container or list: ChainSafe 1.9.0 reads the selector from the byte after the union\'s range (the next field\'s first byte) and accepts; the spec requires the selector byte inside the union\'s own serialization. (At the top level the same read throws a TypeError.)',
    explains: (e) => e.code === 'SHORT_INPUT' && e.detail === 'a union needs its selector byte',
  },
  {
    id: 'chainsafe-uint64-number-inexact',
    summary:
      'uint64 as a JS number above 2^53 (other than 2^64 − 1): ChainSafe UintNumberType(8, { clipInfinity: true }) decodes it to an inexact double (or 0), which re-serializes to different bytes; we reject it (documented in TYPES.md "uint64Number").',
    explains: (e) => e.code === 'INVALID_VALUE' && e.detail.includes('uint64Number'),
  },
  {
    id: 'chainsafe-accepts-past-max-size',
    summary:
      "An input longer than the type's largest valid encoding (its maxSize): ChainSafe 1.9.0 accepts some (a union's None followed by bytes, at the top or inside a container) and re-serializes shorter; no such input is valid SSZ. We refuse it before decoding (BOUND_EXCEEDED).",
    explains: (e) => e.code === 'BOUND_EXCEEDED',
  },
];

export function explainLeniency(ours: SszError): Leniency | null {
  return CHAINSAFE_LENIENCIES.find((l) => l.explains(ours)) ?? null;
}
