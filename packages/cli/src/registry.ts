/**
 * Type names: `<fork>.<Container>` (e.g. `electra.BeaconState`) for the
 * mainnet or minimal preset, resolved against `@ssztree/types/consensus`.
 *
 * Invariant: a name resolves to exactly one schema or fails with one line
 * listing the nearest known names; the listing order is fork order, then
 * the library's field order of each fork object.
 * @module
 */
import { SszType } from '@ssztree/types';
import { FORKS, mainnet, minimal, type ForkTypes } from '@ssztree/types/consensus';
import { UsageError } from './errors.js';

export const PRESETS = ['mainnet', 'minimal'] as const;
export type PresetName = (typeof PRESETS)[number];

export interface NamedType {
  /** `<fork>.<Container>` */
  readonly name: string;
  readonly fork: string;
  readonly preset: PresetName;
  readonly type: SszType<unknown>;
}

function forks(preset: PresetName): ForkTypes {
  return preset === 'minimal' ? minimal : mainnet;
}

export function parsePreset(value: string | undefined): PresetName {
  if (value === undefined) return 'mainnet';
  if ((PRESETS as readonly string[]).includes(value)) return value as PresetName;
  throw new UsageError(`unknown preset "${value}" (use mainnet or minimal)`);
}

/** Every known type of `preset`, optionally of one fork only. */
export function listTypes(preset: PresetName, fork?: string): NamedType[] {
  if (fork !== undefined && !(FORKS as readonly string[]).includes(fork)) {
    throw new UsageError(`unknown fork "${fork}" (known: ${FORKS.join(', ')})`);
  }
  const all = forks(preset);
  const out: NamedType[] = [];
  for (const f of FORKS) {
    if (fork !== undefined && f !== fork) continue;
    for (const [container, type] of Object.entries(all[f])) {
      if (type instanceof SszType) out.push({ name: `${f}.${container}`, fork: f, preset, type: type as SszType<unknown> });
    }
  }
  return out;
}

export function resolveType(name: string, preset: PresetName): NamedType {
  const all = listTypes(preset);
  const hit = all.find((t) => t.name === name);
  if (hit !== undefined) return hit;
  const near = nearMatches(name, all.map((t) => t.name));
  const hint = near.length > 0 ? `; did you mean ${near.join(', ')}?` : '; `ssztree types` lists them';
  throw new UsageError(`unknown type "${name}" (expected <fork>.<Container>, e.g. electra.BeaconState)${hint}`);
}

/** Up to 5 names closest to `query`: same container in any fork first, then by edit distance (case-insensitive). */
export function nearMatches(query: string, names: readonly string[]): string[] {
  const q = query.toLowerCase();
  const qContainer = q.slice(q.lastIndexOf('.') + 1);
  const scored = names.map((n) => {
    const l = n.toLowerCase();
    const container = l.slice(l.indexOf('.') + 1);
    const d = Math.min(editDistance(q, l), editDistance(qContainer, container) + (q.includes('.') ? 1 : 0));
    return { n, d: container === qContainer ? d - 100 : d };
  });
  const limit = Math.max(2, Math.floor(q.length / 3));
  return scored
    .filter((s) => s.d <= limit)
    .sort((a, b) => a.d - b.d || names.indexOf(b.n) - names.indexOf(a.n))
    .slice(0, 5)
    .map((s) => s.n);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] as number;
}
