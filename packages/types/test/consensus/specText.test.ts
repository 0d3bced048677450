/**
 * Gloas and heze against the spec's own text: every SSZ class the pinned
 * markdown of specs/gloas and specs/heze defines (extracted into
 * fixtures/consensus-specs/types/<fork>.json by
 * scripts/extract-spec-types.mjs) is a type of that fork here, of the same
 * kind, with the same fields in the same order, each field the fork's type
 * of the name the spec gives, the same active_fields, and the same lengths
 * and limits (evaluated on each preset). Types the markdown does not name
 * but whose definitions name a changed type are rebuilt, as the executable
 * spec resolves every name to the fork's newest definition; every type
 * carried over from the fork before names no replaced type anywhere inside.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BitvectorType,
  ContainerType,
  ListBasicType,
  ListCompositeType,
  ProgressiveBitlistType,
  ProgressiveByteListType,
  ProgressiveContainerType,
  ProgressiveListBasicType,
  ProgressiveListCompositeType,
  SszType,
  VectorBasicType,
  VectorCompositeType,
  boolean,
  uint8,
  uint64,
  uint256,
} from '../../src/index.js';
import { MAINNET, MINIMAL, P2P, mainnet, minimal, primitives, type Preset } from '../../src/consensus/index.js';

interface SpecClass {
  readonly name: string;
  readonly base: string;
  readonly activeFields: string | null;
  readonly fields: readonly [string, string][];
  readonly file: string;
}
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'consensus-specs', 'types');
const classes = (fork: 'gloas' | 'heze'): SpecClass[] => (JSON.parse(readFileSync(join(FIXTURES, `${fork}.json`), 'utf8')) as { classes: SpecClass[] }).classes;

/** The generalized indices the gloas light-client spec prints (sync-protocol.md), which its branch lengths are derived from; gindices.test.ts checks each against gindexOf. */
const GINDICES = { FINALIZED_ROOT_GINDEX_GLOAS: 735, CURRENT_SYNC_COMMITTEE_GINDEX_GLOAS: 2945, NEXT_SYNC_COMMITTEE_GINDEX_GLOAS: 2946, EXECUTION_BLOCK_HASH_GINDEX_GLOAS: 2856 };

/** A length or limit expression of the spec on a preset's constants (`2 * SLOTS_PER_EPOCH`, `floorlog2(…)`). */
function evaluate(expr: string, p: Preset): number {
  const scope: Record<string, unknown> = { ...P2P, ...GINDICES, floorlog2: (n: number) => Math.floor(Math.log2(n)) };
  for (const [k, v] of Object.entries(p)) if (typeof v === 'number') scope[k] = v;
  const names = expr.match(/[A-Z_][A-Z0-9_]*|floorlog2/g) ?? [];
  for (const n of names) if (!(n in scope)) throw new Error(`unknown constant ${n} in ${expr}`);
  return (new Function(...Object.keys(scope), `return (${expr});`) as (...a: unknown[]) => number)(...Object.values(scope));
}

/** `[1] * n` */
function activeFieldsOf(expr: string): boolean[] {
  const m = /^\[1\] \* (\d+)$/.exec(expr);
  if (m === null) throw new Error(`active_fields ${expr}`);
  return new Array<boolean>(Number(m[1])).fill(true);
}

const BASIC: Record<string, SszType<unknown>> = { Uint64: uint64, Uint8: uint8, Uint256: uint256, Boolean: boolean };

/** Splits `Vector[PTC, (2 + X) * Y]` into its parameters at the top-level comma. */
function params(base: string): [string, string[]] {
  const open = base.indexOf('[');
  const kind = base.slice(0, open);
  const inner = base.slice(open + 1, -1);
  let depth = 0;
  let last = 0;
  const out: string[] = [];
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(last, i).trim());
      last = i + 1;
    }
  }
  out.push(inner.slice(last).trim());
  return [kind, out];
}

for (const fork of ['gloas', 'heze'] as const) {
  describe(`${fork} follows the spec's class definitions`, () => {
    for (const [presetName, all, p] of [['mainnet', mainnet, MAINNET], ['minimal', minimal, MINIMAL]] as const) {
      const types = all[fork] as unknown as Record<string, SszType<unknown>>;
      /** The type a spec name means in this fork: the fork's own type of that name, else a primitive alias. */
      const resolve = (name: string): SszType<unknown> => {
        const t = types[name] ?? (primitives as Record<string, SszType<unknown> | undefined>)[name] ?? BASIC[name];
        if (t === undefined) throw new Error(`${fork}: no type ${name}`);
        return t;
      };
      /** `got` is the type the spec's `name` means: the fork's very object of that name, or an alias's definition. */
      const same = (got: SszType<unknown>, name: string, what: string) => {
        if (types[name] !== undefined) expect(got, what).toBe(types[name]);
        else expect(got._shapeKey(), what).toBe(resolve(name)._shapeKey());
      };

      it(`${presetName}: every class, its kind, fields, active fields, lengths and limits`, () => {
        const list = classes(fork);
        expect(list.length).toBe(fork === 'gloas' ? 71 : 8);
        for (const c of list) {
          const what = `${presetName}.${fork}.${c.name} (${c.file})`;
          if (c.base in BASIC) {
            expect((primitives as Record<string, SszType<unknown>>)[c.name]?._shapeKey(), what).toBe((BASIC[c.base] as SszType<unknown>)._shapeKey());
            continue;
          }
          const ours = types[c.name] as unknown;
          expect(ours, what).toBeInstanceOf(SszType);
          if (c.base === 'Container' || c.base === 'ProgressiveContainer') {
            const t = ours as ContainerType<never> | ProgressiveContainerType<never>;
            expect(t instanceof (c.base === 'Container' ? ContainerType : ProgressiveContainerType), `${what} kind`).toBe(true);
            expect(Object.keys(t.fields), `${what} fields`).toEqual(c.fields.map(([n]) => n));
            for (const [n, typeName] of c.fields) same((t.fields as Record<string, SszType<unknown>>)[n] as SszType<unknown>, typeName, `${what}.${n}: ${typeName}`);
            if (c.activeFields !== null) expect([...(t as ProgressiveContainerType<never>).activeFields], `${what} active_fields`).toEqual(activeFieldsOf(c.activeFields));
            continue;
          }
          if (c.base === 'ProgressiveBitList') {
            expect(ours, what).toBeInstanceOf(ProgressiveBitlistType);
            continue;
          }
          if (c.base === 'ProgressiveByteList') {
            expect(ours, what).toBeInstanceOf(ProgressiveByteListType);
            continue;
          }
          const [kind, args] = params(c.base);
          const t = ours as { elementType: SszType<unknown>; length?: number; limit?: number };
          if (kind === 'ProgressiveList') {
            expect(ours instanceof ProgressiveListBasicType || ours instanceof ProgressiveListCompositeType, what).toBe(true);
            same(t.elementType, args[0] as string, `${what} element`);
          } else if (kind === 'List') {
            expect(ours instanceof ListBasicType || ours instanceof ListCompositeType, what).toBe(true);
            same(t.elementType, args[0] as string, `${what} element`);
            expect(t.limit, `${what} limit`).toBe(evaluate(args[1] as string, p));
          } else if (kind === 'Vector') {
            expect(ours instanceof VectorBasicType || ours instanceof VectorCompositeType, what).toBe(true);
            same(t.elementType, args[0] as string, `${what} element`);
            expect(t.length, `${what} length`).toBe(evaluate(args[1] as string, p));
          } else if (kind === 'BitVector') {
            expect(ours, what).toBeInstanceOf(BitvectorType);
            expect(t.length, `${what} length`).toBe(evaluate(args[0] as string, p));
          } else throw new Error(`${what}: kind ${kind}`);
        }
      });
    }
  });
}

describe('types the markdown does not name', () => {
  /** Rebuilt because their definition names a type the fork changes: name → the field that holds it and that type's name. */
  const REBUILT: Record<'gloas' | 'heze', Record<string, [string, string]>> = {
    gloas: {
      AttesterSlashing: ['attestation_1', 'IndexedAttestation'],
      AggregateAndProof: ['aggregate', 'Attestation'],
      SignedAggregateAndProof: ['message', 'AggregateAndProof'],
      PendingAttestation: ['aggregation_bits', 'AggregationBits'],
      PendingAttestations: ['[]', 'PendingAttestation'],
      BeaconBlock: ['body', 'BeaconBlockBody'],
      SignedBeaconBlock: ['message', 'BeaconBlock'],
      SignedBeaconBlocks: ['[]', 'SignedBeaconBlock'],
      DataColumnSidecars: ['[]', 'DataColumnSidecar'],
      PartialDataColumnHeader: ['kzg_commitments', 'BlobKZGCommitments'],
      OptionalPartialDataColumnHeader: ['[]', 'PartialDataColumnHeader'],
      LightClientBootstrap: ['header', 'LightClientHeader'],
      LightClientUpdate: ['attested_header', 'LightClientHeader'],
      LightClientFinalityUpdate: ['finality_branch', 'FinalityBranch'],
      LightClientOptimisticUpdate: ['attested_header', 'LightClientHeader'],
      LightClientUpdates: ['[]', 'LightClientUpdate'],
    },
    heze: {
      BeaconBlockBody: ['signed_execution_payload_bid', 'SignedExecutionPayloadBid'],
      BeaconBlock: ['body', 'BeaconBlockBody'],
      SignedBeaconBlock: ['message', 'BeaconBlock'],
      SignedBeaconBlocks: ['[]', 'SignedBeaconBlock'],
    },
  };
  /** The p2p specs' unnamed request containers (named as clients name them). */
  const UNNAMED = { gloas: ['ExecutionPayloadEnvelopesByRangeRequest'], heze: ['InclusionListsByIndicesRequest'] };

  for (const [fork, before] of [['gloas', 'fulu'], ['heze', 'gloas']] as const) {
    for (const [presetName, all] of [['mainnet', mainnet], ['minimal', minimal]] as const) {
      it(`${presetName}.${fork}: the rebuilt ones name the changed type; the carried ones name no replaced type anywhere`, () => {
        const types = all[fork] as unknown as Record<string, SszType<unknown>>;
        const prev = all[before] as unknown as Record<string, SszType<unknown>>;
        const named = new Set(classes(fork).map((c) => c.name));
        const own = Object.keys(types).filter((n) => /^[A-Z]/.test(n) && types[n] instanceof SszType && types[n] !== prev[n] && !named.has(n));
        expect(own.sort()).toEqual([...Object.keys(REBUILT[fork]), ...UNNAMED[fork]].sort());
        for (const [name, [field, inner]] of Object.entries(REBUILT[fork])) {
          const t = types[name] as unknown as { fields?: Record<string, unknown>; elementType?: unknown };
          expect(field === '[]' ? t.elementType : t.fields?.[field], `${fork}.${name}.${field}`).toBe(types[inner]);
        }
        // Replaced: a type of the fork before whose name now means another type.
        const replaced = new Map<unknown, string>();
        for (const [n, t] of Object.entries(prev)) if (/^[A-Z]/.test(n) && t instanceof SszType && types[n] !== t) replaced.set(t, n);
        const inside = (t: SszType<unknown>, path: string, seen: Set<unknown>): void => {
          if (seen.has(t)) return;
          seen.add(t);
          const hit = replaced.get(t);
          expect(hit, `${path} is ${before}'s ${hit ?? ''}, which ${fork} replaces`).toBeUndefined();
          const u = t as unknown as { fields?: Record<string, SszType<unknown>>; elementType?: SszType<unknown> };
          for (const [n, f] of Object.entries(u.fields ?? {})) inside(f, `${path}.${n}`, seen);
          if (u.elementType instanceof SszType) inside(u.elementType, `${path}[]`, seen);
        };
        for (const [n, t] of Object.entries(types)) {
          if (/^[A-Z]/.test(n) && t instanceof SszType && t === prev[n]) inside(t, `${fork}.${n}`, new Set());
        }
      });
    }
  }
});
