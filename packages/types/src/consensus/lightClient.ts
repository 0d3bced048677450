/**
 * Light-client types (consensus-specs `specs/<fork>/light-client/
 * sync-protocol.md` and `p2p-interface.md`) for one fork, built from that
 * fork's containers. Altair's header holds the beacon block header only;
 * capella and later add the execution payload header and its branch.
 *
 * Branch lengths are `floorlog2` of the spec's generalized indices, taken
 * from the fork's own BeaconState and BeaconBlockBody: 105/54/55 (depth
 * 6/5/5) through deneb, 169/86/87 (7/6/6) from electra on, where the state
 * outgrew 32 fields; the execution branch is floorlog2(25) = 4. A test checks
 * each against the spec's constants.
 * @module
 */
import { container, list, uint64, vector, type Fields, type SszType } from '../index.js';
import { P2P } from './preset.js';
import { Bytes32, Slot } from './primitives.js';

export interface LightClientSources<SC extends SszType<unknown>, SA extends SszType<unknown>> {
  readonly BeaconState: SszType<unknown>;
  readonly SyncCommittee: SC;
  readonly SyncAggregate: SA;
}

function floorLog2(g: bigint): number {
  return g.toString(2).length - 1;
}

/** Capella's `ExecutionBranch`: a branch to `execution_payload` in `body` (floorlog2(25) = 4). */
export function executionBranch(body: SszType<unknown>) {
  return vector(Bytes32, floorLog2(body.gindexOf(['execution_payload'])));
}

/**
 * The light-client types of a fork whose `LightClientHeader` has `headerFields`
 * (`{ beacon }` in altair; `{ beacon, execution, execution_branch }` later).
 */
export function lightClientTypes<H extends Fields, SC extends SszType<unknown>, SA extends SszType<unknown>>(
  s: LightClientSources<SC, SA>,
  headerFields: H,
  prev?: Readonly<Record<string, unknown>>,
) {
  // A type whose definition equals the previous fork's is that very object (forks share unchanged types).
  const keep = <T extends SszType<unknown>>(name: string, fresh: T): T => {
    const old = prev?.[name] as T | undefined;
    return old !== undefined && old._shapeKey() === fresh._shapeKey() ? old : fresh;
  };
  const depth = (path: string[]) => floorLog2(s.BeaconState.gindexOf(path));
  const FinalityBranch = keep('FinalityBranch', vector(Bytes32, depth(['finalized_checkpoint', 'root'])));
  const CurrentSyncCommitteeBranch = keep('CurrentSyncCommitteeBranch', vector(Bytes32, depth(['current_sync_committee'])));
  const NextSyncCommitteeBranch = keep('NextSyncCommitteeBranch', vector(Bytes32, depth(['next_sync_committee'])));
  const LightClientHeader = keep('LightClientHeader', container(headerFields, 'LightClientHeader'));
  const LightClientBootstrap = keep('LightClientBootstrap', container(
    { header: LightClientHeader, current_sync_committee: s.SyncCommittee, current_sync_committee_branch: CurrentSyncCommitteeBranch },
    'LightClientBootstrap',
  ));
  const LightClientUpdate = keep('LightClientUpdate', container(
    {
      attested_header: LightClientHeader,
      next_sync_committee: s.SyncCommittee,
      next_sync_committee_branch: NextSyncCommitteeBranch,
      finalized_header: LightClientHeader,
      finality_branch: FinalityBranch,
      sync_aggregate: s.SyncAggregate,
      signature_slot: Slot,
    },
    'LightClientUpdate',
  ));
  const LightClientFinalityUpdate = keep('LightClientFinalityUpdate', container(
    { attested_header: LightClientHeader, finalized_header: LightClientHeader, finality_branch: FinalityBranch, sync_aggregate: s.SyncAggregate, signature_slot: Slot },
    'LightClientFinalityUpdate',
  ));
  const LightClientOptimisticUpdate = keep('LightClientOptimisticUpdate', container(
    { attested_header: LightClientHeader, sync_aggregate: s.SyncAggregate, signature_slot: Slot },
    'LightClientOptimisticUpdate',
  ));
  // light-client/p2p-interface.md
  const LightClientUpdates = keep('LightClientUpdates', list(LightClientUpdate, P2P.MAX_REQUEST_LIGHT_CLIENT_UPDATES));
  const LightClientUpdatesByRangeRequest = keep('LightClientUpdatesByRangeRequest', container({ start_period: uint64, count: uint64 }, 'LightClientUpdatesByRangeRequest'));
  return {
    FinalityBranch,
    CurrentSyncCommitteeBranch,
    NextSyncCommitteeBranch,
    LightClientHeader,
    LightClientBootstrap,
    LightClientUpdate,
    LightClientFinalityUpdate,
    LightClientOptimisticUpdate,
    LightClientUpdates,
    LightClientUpdatesByRangeRequest,
  };
}
