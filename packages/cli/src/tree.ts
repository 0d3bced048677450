/**
 * The merkle tree of a loaded input, for proofs and diffs: built straight
 * from the SSZ bytes when there are some (the view path reads records from
 * the bytes, measured faster than building from the decoded value), else
 * from the value; hashed in one batched flush before it is returned.
 *
 * Invariant: the returned tree is committed and fully hashed; the caller
 * owns it and disposes it. Invalid bytes fail like `loadValue` does (one
 * line with type path and offset).
 * @module
 */
import { SszError, type SszType } from '@ssztree/types';
import type { NamedType } from './registry.js';
import { CliError, describeSszError } from './errors.js';
import { offsetNote, presetHint, type LoadedValue } from './input.js';

export type Tree = ReturnType<SszType<unknown>['toTree']>;

export function buildTree(named: NamedType, input: LoadedValue, label: string): Tree {
  const type = named.type;
  return input.progress.phase(`building the tree of ${label}`, () => {
    const bytes = input.bytes;
    let view;
    try {
      view = bytes !== null ? type.deserializeToView(bytes) : type.toView(input.value);
    } catch (e) {
      if (e instanceof SszError) {
        const hint = bytes !== null ? presetHint(named, bytes.length, (s, e) => bytes.subarray(s, e)) : '';
        throw new CliError(describeSszError(e, input.source, offsetNote(input.format)) + hint);
      }
      throw e;
    }
    const tree = view.commit();
    view.dispose();
    void tree.root; // one batched hash of every new node, before reads that would hash node by node
    return tree;
  });
}
