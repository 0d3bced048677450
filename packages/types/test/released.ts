/**
 * The end of a test that kept versions of views: every kept tree still has
 * its root, then everything is released and the store holds exactly what it
 * held before (nothing leaked, nothing left pending).
 */
import type { NodeStore, Tree } from '@ssztree/core';
import { expect } from 'vitest';
import { toHex } from '../src/index.js';

/** A committed version and the root it had when kept. */
export interface Kept {
  readonly tree: Tree;
  readonly root: string;
}

/** Checks that no kept version changed. */
export function expectKeptUnchanged(kept: readonly Kept[]): void {
  for (const k of kept) expect(toHex(k.tree.root)).toBe(k.root);
}

/** Disposes the kept trees and the views, collects, and checks the store is back to `baseline` nodes with none pending. */
export function expectAllReleased(store: NodeStore, kept: readonly Kept[], views: readonly { dispose(): void }[], baseline = 0): void {
  for (const k of kept) k.tree.dispose();
  for (const view of views) view.dispose();
  store.collect();
  expect(store.stats().nodes).toBe(baseline);
  expect(store.stats().pending).toBe(0);
}
