/**
 * State upgrades that reuse the tree: a view of one fork's BeaconState
 * turned into the next fork's, the SSZ half of the spec's `upgrade_to_*`
 * (the state-transition logic — the new fork version, the proposer
 * lookahead — stays with the caller, who passes the values).
 *
 * A plan says, per field of the target container, how its subtree is made:
 * - `carry`: the source field of the same name and shape; its subtree is
 *   taken as it is (no node copied, nothing rehashed);
 * - `convert`: built from the source field's subtree by a function (a later
 *   fork whose lists change shape plugs its rebuild in here);
 * - `new`: from the caller's value, else the type's default.
 * A value given for a carried field replaces it (e.g. `fork`).
 *
 * Invariant: the source view's version is never changed; the new view
 * shares every carried subtree with it, and its root equals
 * `to.hashTreeRoot` of the upgraded value.
 * @module
 */
import { Tree, type NodeId, type NodeStore } from '@ssztree/core';
import { SszError, type ContainerType, type ContainerValue, type ContainerView, type Fields, type SszType, type TreeView } from '../index.js';

export type FieldStep =
  | { readonly kind: 'carry'; readonly from: string }
  | { readonly kind: 'convert'; readonly from: string; readonly convert: (store: NodeStore, node: NodeId) => NodeId }
  | { readonly kind: 'new' };

export interface UpgradePlan<F extends Fields, T extends Fields> {
  readonly from: ContainerType<F>;
  readonly to: ContainerType<T>;
  /** One step per field of `to`, in `to`'s order. */
  readonly steps: { readonly [K in keyof T]: FieldStep };
}

/** Same SSZ definition (the object itself, or an equal shape built again). */
function sameShape(a: SszType<unknown>, b: SszType<unknown>): boolean {
  return a === b || a._shapeKey() === b._shapeKey();
}

/** Depth of a container's field tree: ceil(log2(field count)). */
function fieldDepth(t: ContainerType<Fields>): number {
  const n = Object.keys(t.fields).length;
  return n <= 1 ? 0 : Math.ceil(Math.log2(n));
}

/**
 * The plan from `from` to `to`: fields of the same name and shape are
 * carried, fields `from` lacks are new; `converts` gives the step of a field
 * whose shape changes (without one, such a field is an `INVALID_TYPE`).
 */
export function planUpgrade<F extends Fields, T extends Fields>(
  from: ContainerType<F>,
  to: ContainerType<T>,
  converts: { readonly [K in keyof T]?: (store: NodeStore, node: NodeId) => NodeId } = {},
): UpgradePlan<F, T> {
  const steps: Record<string, FieldStep> = {};
  for (const [name, type] of Object.entries(to.fields as Fields)) {
    const convert = (converts as Record<string, ((store: NodeStore, node: NodeId) => NodeId) | undefined>)[name];
    const source = (from.fields as Fields)[name];
    if (convert !== undefined) {
      if (source === undefined) throw new SszError('INVALID_TYPE', `no field ${name} to convert from`, -1, from.typeName);
      steps[name] = { kind: 'convert', from: name, convert };
    } else if (source === undefined) steps[name] = { kind: 'new' };
    else if (sameShape(source, type)) steps[name] = { kind: 'carry', from: name };
    else throw new SszError('INVALID_TYPE', `field ${name} changes shape (${source.typeName} → ${type.typeName}) and has no conversion`, -1, to.typeName);
  }
  return { from, to, steps: steps as UpgradePlan<F, T>['steps'] };
}

/**
 * Upgrades `view` (of `plan.from`) to a view of `plan.to`. `values` gives
 * new fields (defaulted when missing) and replaces carried ones. Pending
 * writes of `view` are committed first; `view` stays usable and unchanged.
 */
export function upgradeView<F extends Fields, T extends Fields>(
  plan: UpgradePlan<F, T>,
  view: TreeView<ContainerValue<F>>,
  values: Partial<ContainerValue<T>> = {},
): ContainerView<T> {
  if (view.type !== (plan.from as unknown)) {
    throw new SszError('INVALID_VALUE', `the view is a ${view.type.typeName}, the plan upgrades a ${plan.from.typeName}`, -1, plan.to.typeName);
  }
  const base = view.commit();
  const store = base.store;
  const made: Tree[] = [];
  try {
    const fromNames = Object.keys(plan.from.fields);
    const toNames = Object.keys(plan.to.fields);
    const fromDepth = fieldDepth(plan.from as ContainerType<Fields>);
    const toDepth = fieldDepth(plan.to as ContainerType<Fields>);
    const old = store.getNodesAtDepth(base.rootNode, fromDepth, 0, fromNames.length);
    const oldAt = new Map(fromNames.map((n, i) => [n, old[i] as NodeId]));
    const nodes: NodeId[] = [];
    const given = values as Record<string, unknown>;
    toNames.forEach((name, i) => {
      const step = (plan.steps as Record<string, FieldStep>)[name] as FieldStep;
      const type = (plan.to.fields as Fields)[name] as SszType<unknown>;
      let node: NodeId;
      if (Object.hasOwn(given, name) && given[name] !== undefined) {
        const t = type.toTree(given[name], store);
        made.push(t);
        node = t.rootNode;
      } else if (step.kind === 'new') {
        const t = type.toTree(type.defaultValue(), store);
        made.push(t);
        node = t.rootNode;
      } else if (step.kind === 'carry') node = oldAt.get(step.from) as NodeId;
      else {
        const t = new Tree(step.convert(store, oldAt.get(step.from) as NodeId), store);
        made.push(t);
        node = t.rootNode;
      }
      nodes[i] = node;
    });
    // Same depth and the fields in place: write only the positions that change (a few new spine
    // branches); otherwise build the field tree anew over the nodes.
    const samePlaces = fromDepth === toDepth && fromNames.every((n, i) => toNames[i] === n);
    let out: Tree;
    if (samePlaces) {
      const changed: number[] = [];
      for (let i = 0; i < toNames.length; i++) if (i >= old.length || nodes[i] !== old[i]) changed.push(i);
      out = base.clone();
      if (changed.length > 0) out.setNodesAtDepth(toDepth, changed, changed.map((i) => nodes[i] as NodeId));
    } else {
      out = new Tree(store.setNodesAtDepth(store.zero(toDepth), toDepth, toNames.map((_, i) => i), nodes), store);
    }
    try {
      return plan.to.viewOf(out);
    } finally {
      out.dispose();
    }
  } finally {
    for (const t of made) t.dispose();
    base.dispose();
  }
}
