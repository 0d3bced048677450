// A type-checked consumer of the installed tarballs. The check step runs tsc
// on it as ESM (this file) and, copied to typed.cts, as CommonJS, under
// moduleResolution nodenext, node16 and bundler (tsconfig.*.json here); the
// nodenext run also checks every declaration file (skipLibCheck off). Each
// `@ts-expect-error` proves a type is precise rather than `any`: an error that
// does not happen fails the check. (No top-level await: it must also be CJS.)
import { digest64, getHasher, HasherError, listHashers, type HasherInfo, type HasherName } from '@ssztree/hasher';
import { Tree, verifyMultiproof, type Gindex, type Multiproof } from '@ssztree/core';
import { byteVector, container, SszError, uint64, type ValueOf } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
import { produce } from '@ssztree/types/immer';
import { main, type CliIo } from '@ssztree/cli';

export const backend: HasherName = getHasher();
export const reasons: (string | undefined)[] = listHashers().map((h: HasherInfo) => h.reason);
export const digest: Uint8Array = digest64(new Uint8Array(64));
export const hasherError: HasherError | undefined = undefined;
// @ts-expect-error not a backend name
export const notABackend: HasherName = 'sha1';

const tree: Tree = Tree.fromChunks(new Uint8Array(64), 1);
const gindex: Gindex = 3;
export const proof: Multiproof = tree.multiproof([gindex]);
export const valid: boolean = verifyMultiproof(tree.root, proof.gindices, proof.leaves, proof.proof);

const Checkpoint = container({ epoch: uint64, root: byteVector(32) }, 'Checkpoint');
type Checkpoint = ValueOf<typeof Checkpoint>;
export const checkpoint: Checkpoint = { epoch: 1n, root: new Uint8Array(32) };
// @ts-expect-error a uint64 value is a bigint
export const badCheckpoint: Checkpoint = { epoch: '1', root: new Uint8Array(32) };
export const sszError: SszError | undefined = undefined;

const BeaconState = mainnet.electra.BeaconState;
const state = BeaconState.toView(BeaconState.defaultValue());
state.slot = 3n;
// @ts-expect-error a view's slot is a bigint
state.slot = 'three';
export const stateRoot: Uint8Array = state.hashTreeRoot();

export const produced = produce(Checkpoint, checkpoint, (draft) => {
  draft.epoch = 2n;
});
export const producedEpoch: bigint = produced.value.epoch;

const io: CliIo = {
  writeOut: () => {},
  writeErr: () => {},
  readStdin: async () => new Uint8Array(0),
  stdoutIsTTY: false,
  stderrIsTTY: false,
  cwd: '.',
};
export const exitCode: Promise<number> = main(['types'], io);
