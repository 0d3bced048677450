/**
 * The @lodestar/types comparison: every type of every fork (phase0 … heze)
 * of one preset against Lodestar's type of the same name (or its alias),
 * on the default value and random values: serialization, root, each side
 * decoding the other's bytes, and JSON both ways. Every type of ours is
 * either compared or listed in `NOT_IN_LODESTAR` with the reason.
 *
 * Lodestar fixes its preset per process (LODESTAR_PRESET, read when
 * @lodestar/params is first imported), so each preset has its own test
 * file, which sets the variable before importing Lodestar.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  ContainerType,
  ProgressiveBitlistType,
  ProgressiveByteListType,
  ProgressiveContainerType,
  ProgressiveListBasicType,
  ProgressiveListCompositeType,
  SszType,
  toHex,
} from '@ssztree/types';
import { FORKS, mainnet, minimal, type ForkName } from '@ssztree/types/consensus';
import { arbitrary } from './arbitrary.js';
import { runsFor as runsForSize } from './forkTypes.js';

interface LodestarType {
  serialize(v: unknown): Uint8Array;
  deserialize(b: Uint8Array): unknown;
  hashTreeRoot(v: unknown): Uint8Array;
  defaultValue(): unknown;
  toJson(v: unknown): unknown;
  fixedSize: number | null;
  minSize: number;
  maxSize: number;
  /** Lists: the limit (Lodestar gives its progressive lists one too). */
  limit?: number;
  elementType?: LodestarType;
  fields?: Record<string, LodestarType>;
}
type LodestarForks = Record<ForkName, Record<string, LodestarType>>;

/**
 * Our name → Lodestar's, where they differ (`fork < electra` picks the
 * pre-electra name). `Fork:Name` is a type of another fork's Lodestar
 * module (one that a later fork of Lodestar's shadows with another type).
 */
function lodestarName(name: string, fork: ForkName): string {
  const preElectra = FORKS.indexOf(fork) < FORKS.indexOf('electra');
  const gloasOn = FORKS.indexOf(fork) >= FORKS.indexOf('gloas');
  const aliases: Record<string, string> = {
    Attnets: 'AttestationSubnets',
    Syncnets: 'SyncSubnets',
    BlockRoots: 'HistoricalBlockRoots',
    StateRoots: 'HistoricalStateRoots',
    PendingAttestations: 'EpochAttestations',
    BlobKZGCommitments: 'BlobKzgCommitments',
    KZGCommitmentInclusionProof: 'KzgCommitmentInclusionProof',
    KZGCommitmentsInclusionProof: 'KzgCommitmentsInclusionProof',
    LightClientUpdatesByRangeRequest: 'LightClientUpdatesByRange',
    ...(preElectra ? { AttestingIndices: 'CommitteeIndices', AggregationBits: 'CommitteeBits' } : {}),
    // Lodestar inlines these in a container: compared with that field's type.
    DepositProof: 'Deposit.proof',
    ProposerSlashings: 'BeaconBlockBody.proposer_slashings',
    AttesterSlashings: 'BeaconBlockBody.attester_slashings',
    Attestations: 'BeaconBlockBody.attestations',
    Deposits: 'BeaconBlockBody.deposits',
    VoluntaryExits: 'BeaconBlockBody.voluntary_exits',
    HistoricalRoots: 'BeaconState.historical_roots',
    SyncCommitteePubkeys: 'SyncCommittee.pubkeys',
    SyncSubcommitteeBits: 'SyncCommitteeContribution.aggregation_bits',
    ExtraData: 'ExecutionPayload.extra_data',
    LogsBloom: 'ExecutionPayload.logs_bloom',
    DataColumnIndices: 'DataColumnsByRootIdentifier.columns',
    // Lodestar's fulu KZGProofs is the spec's CellKZGProofs (see DIFFERENT_IN_LODESTAR); gloas's KZGProofs shadows it.
    ...(fork === 'fulu' ? { CellKZGProofs: 'KZGProofs' } : {}),
    ...(gloasOn
      ? {
          CellKZGProofs: 'fulu:KZGProofs',
          PTC: 'PayloadTimelinessCommittee',
          PTCAttestingIndices: 'PayloadTimelinessCommitteeIndices',
          PTCBits: 'PayloadTimelinessCommitteeBits',
          PTCWindow: 'PayloadTimelinessCommitteeWindow',
          // Lodestar's gloas module also holds capella's binary BLSToExecutionChanges under the spec's name.
          BLSToExecutionChanges: 'BlsToExecutionChanges',
          ExecutionPayloadAvailability: 'BeaconState.execution_payload_availability',
          DataColumnIndices: 'fulu:DataColumnsByRootIdentifier.columns',
        }
      : {}),
  };
  return aliases[name] ?? name;
}

/** Lodestar's field names are camelCase (its JSON is snake_case). */
function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Types of ours that Lodestar 1.50 does not define under any name, and why. */
export const NOT_IN_LODESTAR: Record<string, string> = {
  DepositDataList: 'Lodestar keeps only the deposit data roots (DepositDataRootList)',
  BeaconBlockRoots: 'Lodestar types the BeaconBlocksByRoot request inline',
  ErrorMessage: 'Lodestar reads req/resp error messages as raw bytes',
  SignedBeaconBlocks: 'Lodestar types req/resp block lists per chunk',
  LightClientUpdates: 'Lodestar types the LightClientUpdatesByRange response per chunk',
  BlobIdentifiers: 'Lodestar types the BlobSidecarsByRoot request inline',
  ProposerIndices: 'Lodestar has no proposer-indices vector type',
  Cells: 'Lodestar has no cells-of-a-blob vector type',
  Proofs: 'Lodestar has no proofs-of-a-blob vector type',
  DataColumnsByRootIdentifiers: 'Lodestar types the DataColumnSidecarsByRoot request inline',
  CellsBitList: 'Lodestar 1.50 has no partial-column types',
  PartialDataColumnHeader: 'Lodestar 1.50 has no partial-column types',
  OptionalPartialDataColumnHeader: 'Lodestar 1.50 has no partial-column types',
  PartialDataColumnSidecar: 'Lodestar 1.50 has no partial-column types',
  PartialDataColumnPartsMetadata: 'Lodestar 1.50 has no partial-column types',
  PartialDataColumnGroupID: 'Lodestar 1.50 has no partial-column types',
  ExecutionPayloadEnvelopeRoots: 'Lodestar types the ExecutionPayloadEnvelopesByRoot request inline',
  SignedExecutionPayloadEnvelopes: 'Lodestar types req/resp payload envelope lists per chunk',
  SignedInclusionLists: 'Lodestar types the InclusionListsByIndices response per chunk',
};

/**
 * Names Lodestar 1.50 gives to a different type than the pinned spec does.
 * Ours follow the spec; the test checks that Lodestar's type really differs
 * (another maxSize), so each statement stays true.
 */
export const DIFFERENT_IN_LODESTAR: Record<string, string> = {
  BlobSidecars:
    "Lodestar: List[BlobSidecar, MAX_BLOB_COMMITMENTS_PER_BLOCK] (one block's sidecars); the spec (deneb and electra p2p-interface.md): List[BlobSidecar, compute_max_request_blob_sidecars()], 128 × 6 in deneb, 128 × 9 from electra",
  DataColumnSidecars:
    "Lodestar: List[DataColumnSidecar, NUMBER_OF_COLUMNS] (one block's columns); the spec (fulu/p2p-interface.md): List[DataColumnSidecar, compute_max_request_data_column_sidecars()] = 128 × 128",
  'fulu.KZGProofs':
    "Lodestar's fulu KZGProofs is the spec's CellKZGProofs (FIELD_ELEMENTS_PER_EXT_BLOB × MAX_BLOB_COMMITMENTS_PER_BLOCK, fulu/validator.md, compared under that name); the spec's KZGProofs stays deneb's (compared in deneb)",
  ...fromGloas(
    'PendingAttestation',
    "Lodestar keeps phase0's PendingAttestation (Bitlist[MAX_VALIDATORS_PER_COMMITTEE]); the spec's gloas PendingAttestation names AggregationBits, which gloas makes a ProgressiveBitList, and the executable spec resolves every name to the fork's newest definition (pysetup combines each fork's classes by name)",
  ),
  ...fromGloas('PendingAttestations', "Lodestar's EpochAttestations lists phase0's PendingAttestation; the spec's gloas list holds the gloas PendingAttestation (see PendingAttestation)"),
};

/** The same statement for gloas and every later fork (they share the object). */
function fromGloas(name: string, why: string): Record<string, string> {
  return Object.fromEntries(FORKS.slice(FORKS.indexOf('gloas')).map((f) => [`${f}.${name}`, why]));
}

/** True when `type` holds a progressive list, bitlist or byte list anywhere (their limits differ in Lodestar). */
export function holdsProgressiveList(type: SszType<unknown>): boolean {
  const t = type as unknown;
  if (t instanceof ProgressiveListBasicType || t instanceof ProgressiveListCompositeType || t instanceof ProgressiveBitlistType || t instanceof ProgressiveByteListType) return true;
  if (t instanceof ContainerType || t instanceof ProgressiveContainerType) return Object.values(t.fields as Record<string, SszType<unknown>>).some(holdsProgressiveList);
  const elem = (t as { elementType?: unknown }).elementType;
  return elem instanceof SszType && holdsProgressiveList(elem);
}

/**
 * Lodestar's limit of each progressive list in `ours`, by our type object,
 * found by walking both definitions together (fields by camelCase name,
 * elements): the most elements random values may hold for Lodestar to
 * decode them. The spec's progressive lists have no limit (see
 * `LODESTAR_PROGRESSIVE_LIMITS`).
 */
export function lodestarLimits(ours: SszType<unknown>, theirs: LodestarType | undefined, out = new Map<object, number>()): Map<object, number> {
  if (theirs === undefined) return out;
  const t = ours as unknown;
  if (t instanceof ProgressiveListBasicType || t instanceof ProgressiveListCompositeType || t instanceof ProgressiveBitlistType || t instanceof ProgressiveByteListType) {
    if (typeof theirs.limit === 'number') out.set(ours, Math.min(out.get(ours) ?? Infinity, theirs.limit));
  }
  if (t instanceof ContainerType || t instanceof ProgressiveContainerType) {
    for (const [name, f] of Object.entries(t.fields as Record<string, SszType<unknown>>)) lodestarLimits(f, theirs.fields?.[camel(name)], out);
  }
  const elem = (t as { elementType?: unknown }).elementType;
  if (elem instanceof SszType) lodestarLimits(elem, theirs.elementType, out);
  return out;
}

export interface ForkReport {
  readonly fork: ForkName;
  compared: number;
  notInLodestar: string[];
  different: string[];
}

/**
 * Random values per type. In the mainnet file, a type whose definition is
 * the same in both presets (Checkpoint, Validator, every preset-free type)
 * gets its default value only: its random values are compared in the
 * minimal file. Mainnet types of a megabyte or more (the states,
 * RandaoMixes) get their default only as well: their fields are compared as
 * types of their own, and one random mainnet state costs seconds on each
 * side. Types that serialize to more than 64 KiB (blob sidecars, cells) get
 * two random values.
 */
function runsFor(type: SszType<unknown>, preset: 'mainnet' | 'minimal', fork: ForkName, name: string): number {
  if (preset === 'mainnet') {
    const small = (minimal[fork] as unknown as Record<string, SszType<unknown> | undefined>)[name];
    if (small !== undefined && small._shapeKey() === type._shapeKey()) return 0;
    if (type.minSize >= 2 ** 20) return 0;
  }
  return heavyRuns(type, preset === 'mainnet' ? 3 : 6);
}

function heavyRuns(type: SszType<unknown>, runs: number): number {
  return runsForSize(type, runs, (t) => fc.sample(arbitrary(t, { uint64Max: 2n ** 53n - 1n }), { seed: 1, numRuns: 1 })[0]);
}

/**
 * Lodestar writes execution addresses EIP-55 checksummed (mixed case), we
 * write lowercase hex; the beacon API reads hex case-insensitively, so JSON
 * is compared with hex lowercased (and we must read Lodestar's mixed case).
 */
function lowerHex(json: unknown): unknown {
  if (typeof json === 'string') return /^0x[0-9a-fA-F]*$/.test(json) ? json.toLowerCase() : json;
  if (Array.isArray(json)) return json.map(lowerHex);
  if (typeof json === 'object' && json !== null) return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, lowerHex(v)]));
  return json;
}

/**
 * `json`: also compare JSON (skipped for mainnet types of a megabyte or more —
 * 65536 randao mixes as hex strings on both sides cost seconds — whose JSON
 * form is the minimal preset's types' with longer vectors).
 */
function compareOne(name: string, ours: SszType<unknown>, theirs: LodestarType, runs: number, seed: number, json: boolean): void {
  expect([ours.fixedSize, ours.minSize], `${name} sizes`).toEqual([theirs.fixedSize, theirs.minSize]);
  // Lodestar's progressive lists carry limits (and so a smaller maxSize) the spec's do not have.
  const progressive = holdsProgressiveList(ours);
  if (progressive) expect(theirs.maxSize, `${name} maxSize`).toBeLessThanOrEqual(ours.maxSize);
  else if (ours.maxSize < 2 ** 53) expect(ours.maxSize, `${name} maxSize`).toBe(theirs.maxSize);
  const check = (value: unknown, what: string) => {
    const bytes = ours.serialize(value);
    const theirValue = theirs.deserialize(bytes);
    const theirBytes = theirs.serialize(theirValue);
    expect(toHex(theirBytes), `${name} ${what}: Lodestar re-serializes our bytes`).toBe(toHex(bytes));
    expect(toHex(theirs.hashTreeRoot(theirValue)), `${name} ${what}: root`).toBe(toHex(ours.hashTreeRoot(value)));
    expect(ours.equals(ours.deserialize(theirBytes), value), `${name} ${what}: we decode Lodestar's bytes`).toBe(true);
    if (!json) return;
    const theirJson = theirs.toJson(theirValue);
    // As strings: a deep comparison of a mainnet state's JSON (65536 randao mixes, …) costs seconds.
    expect(JSON.stringify(lowerHex(theirJson)), `${name} ${what}: JSON`).toBe(JSON.stringify(ours.toJson(value)));
    expect(ours.equals(ours.fromJson(theirJson), value), `${name} ${what}: we read Lodestar's JSON`).toBe(true);
  };
  // Lodestar's default value, through its bytes, and ours.
  const theirDefault = theirs.serialize(theirs.defaultValue());
  expect(toHex(ours.serialize(ours.defaultValue())), `${name} default`).toBe(toHex(theirDefault));
  check(ours.deserialize(theirDefault), 'default');
  const caps = progressive ? lodestarLimits(ours, theirs) : new Map<object, number>();
  const values = runs === 0 ? [] : fc.sample(arbitrary(ours, { uint64Max: 2n ** 53n - 1n, progressiveCap: (t) => caps.get(t) }), { seed, numRuns: runs });
  values.forEach((v, i) => check(v, `random #${i}`));
}

/** Pairs (ours, Lodestar's) compared so far in this process: each is compared once, and counted in every fork that has it. */
const done = new Set<string>();

/** Compares every type of every fork; returns the per-fork counts. */
export function compareWithLodestar(preset: 'mainnet' | 'minimal', lodestar: LodestarForks, forks: readonly ForkName[] = FORKS): ForkReport[] {
  const all = preset === 'minimal' ? minimal : mainnet;
  const reports: ForkReport[] = [];
  let seed = 1;
  for (const fork of forks) {
    const report: ForkReport = { fork, compared: 0, notInLodestar: [], different: [] };
    for (const [name, type] of Object.entries(all[fork])) {
      if (!(type instanceof SszType) || !/^[A-Z]/.test(name)) continue;
      const aliased = lodestarName(name, fork);
      const [theirFork, qualified] = aliased.includes(':') ? (aliased.split(':') as [ForkName, string]) : [fork, aliased];
      const [top, field] = qualified.split('.') as [string, string | undefined];
      const holder = lodestar[theirFork][top];
      const theirs = field === undefined ? holder : (holder as unknown as { fields: Record<string, LodestarType> } | undefined)?.fields[camel(field)];
      if (DIFFERENT_IN_LODESTAR[name] !== undefined || DIFFERENT_IN_LODESTAR[`${fork}.${name}`] !== undefined) {
        expect(theirs, `${fork}.${name}`).toBeDefined();
        expect(theirs!.maxSize, `${fork}.${name}: Lodestar's type of that name differs`).not.toBe((type as SszType<unknown>).maxSize);
        report.different.push(name);
        continue;
      }
      if (theirs === undefined) {
        expect(NOT_IN_LODESTAR[name], `${fork}.${name} has no Lodestar counterpart and no stated reason`).toBeDefined();
        report.notInLodestar.push(name);
        continue;
      }
      // The same pair of objects is compared once (forks share unchanged types) and counted in each fork.
      const pairKey = `${idOf(type)}-${idOf(theirs)}`;
      if (!done.has(pairKey)) {
        compareOne(`${preset}.${fork}.${name}`, type as SszType<unknown>, theirs, runsFor(type as SszType<unknown>, preset, fork, name), seed++, preset === 'minimal' || (type as SszType<unknown>).minSize < 2 ** 20);
        done.add(pairKey);
      }
      report.compared++;
    }
    reports.push(report);
  }
  return reports;
}

const ids = new WeakMap<object, number>();
let nextId = 0;
function idOf(o: object): number {
  let id = ids.get(o);
  if (id === undefined) {
    id = ++nextId;
    ids.set(o, id);
  }
  return id;
}
