/**
 * State upgrades that reuse the tree: a view of one fork's BeaconState
 * turned into the next fork's, the SSZ half of the spec's `upgrade_to_*`
 * (the state-transition logic — the proposer lookahead, the PTC window,
 * builder onboarding — stays with the caller, who passes the values).
 *
 * A plan says, per field of the target container, how its subtree is made:
 * - `carry`: the source field of the same name and shape; its subtree is
 *   taken as it is (no node copied, nothing rehashed);
 * - `convert`: built from the source field's subtree by a function. A
 *   `List[T, N]` that becomes a `ProgressiveList[T]` gets one by itself
 *   (`fromBinaryView`: element subtrees shared and only the new inner
 *   nodes hashed; pages rebuilt from their chunks; records rebuilt from
 *   their bytes and hashed again, since no record pair and no element root
 *   survives the change of shape — schema/progressiveConvert.ts);
 * - `new`: from the caller's value, else the plan's `initial` value (the
 *   spec's initialisation, computed from the source view when it needs
 *   it), else the type's default.
 * A value given for a carried or converted field replaces it (e.g. `fork`).
 * Either side may be a Container or a ProgressiveContainer; fields of the
 * source the target lacks are dropped.
 *
 * Invariant: the source view's version is never changed; the new view
 * shares every carried subtree with it, and its root equals
 * `to.hashTreeRoot` of the upgraded value.
 * @module
 */
import { Tree, type NodeId, type NodeStore } from '@ssztree/core';
import {
  ContainerType,
  ListBasicType,
  ListCompositeType,
  ProgressiveContainerType,
  ProgressiveListBasicType,
  ProgressiveListCompositeType,
  SszError,
  type ContainerValue,
  type ContainerView,
  type Fields,
  type SszType,
  type TreeView,
} from '../index.js';

/** A container kind a state can be: binary or progressive. */
export type StateContainer<F extends Fields> = ContainerType<F> | ProgressiveContainerType<F>;

/** Builds a field's new subtree from its old one: a node (floating, wrapped at once) or a tree the upgrade owns and disposes. */
export type FieldConvert = (store: NodeStore, node: NodeId) => NodeId | Tree;

/** A new field's spec value, computed from the source state's view when it needs it. */
export type FieldInitial = (pre: ContainerView<Fields>) => unknown;

export type FieldStep =
  | { readonly kind: 'carry'; readonly from: string }
  | { readonly kind: 'convert'; readonly from: string; readonly convert: FieldConvert }
  | { readonly kind: 'new'; readonly initial?: FieldInitial };

export interface UpgradePlan<F extends Fields, T extends Fields> {
  readonly from: StateContainer<F>;
  readonly to: StateContainer<T>;
  /** One step per field of `to`, in `to`'s order. */
  readonly steps: { readonly [K in keyof T]: FieldStep };
}

/** Same SSZ definition (the object itself, or an equal shape built again). */
function sameShape(a: SszType<unknown>, b: SszType<unknown>): boolean {
  return a === b || a._shapeKey() === b._shapeKey();
}

/** Depth of a binary container's field tree: ceil(log2(field count)). */
function fieldDepth(t: StateContainer<Fields>): number {
  const n = Object.keys(t.fields).length;
  return n <= 1 ? 0 : Math.ceil(Math.log2(n));
}

/**
 * The conversion of a `List[T, N]` field into a `ProgressiveList[T]` one of
 * the same element type (the progressive schema's `fromBinaryView`), or
 * null when the two are not such a pair.
 */
export function binaryToProgressive(from: SszType<unknown>, to: SszType<unknown>): FieldConvert | null {
  const packed = from instanceof ListBasicType && to instanceof ProgressiveListBasicType;
  const composite = from instanceof ListCompositeType && to instanceof ProgressiveListCompositeType;
  if (!packed && !composite) return null;
  if (!sameShape((from as ListBasicType<unknown, never>).elementType as SszType<unknown>, (to as ProgressiveListBasicType<unknown, never>).elementType as SszType<unknown>)) return null;
  const target = to as unknown as { fromBinaryView(view: TreeView<unknown>): TreeView<unknown> };
  return (store, node) => {
    const held = new Tree(node, store);
    const source = from.viewOf(held);
    held.dispose();
    try {
      const converted = target.fromBinaryView(source);
      try {
        return converted.commit();
      } finally {
        converted.dispose();
      }
    } finally {
      source.dispose();
    }
  };
}

/**
 * The plan from `from` to `to`: fields of the same name and shape are
 * carried, binary lists that became progressive lists are converted,
 * fields `from` lacks are new (with `initial` values where given);
 * `converts` gives the step of any other field whose shape changes (without
 * one, such a field is an `INVALID_TYPE`).
 */
export function planUpgrade<F extends Fields, T extends Fields>(
  from: StateContainer<F>,
  to: StateContainer<T>,
  converts: { readonly [K in keyof T]?: FieldConvert } = {},
  initial: { readonly [K in keyof T]?: FieldInitial } = {},
): UpgradePlan<F, T> {
  const steps: Record<string, FieldStep> = {};
  for (const [name, type] of Object.entries(to.fields as Fields)) {
    const convert = (converts as Record<string, FieldConvert | undefined>)[name];
    const init = (initial as Record<string, FieldInitial | undefined>)[name];
    const source = (from.fields as Fields)[name];
    if (init !== undefined && source !== undefined) throw new SszError('INVALID_TYPE', `field ${name} is not new: it has no initial value`, -1, to.typeName);
    if (convert !== undefined) {
      if (source === undefined) throw new SszError('INVALID_TYPE', `no field ${name} to convert from`, -1, from.typeName);
      steps[name] = { kind: 'convert', from: name, convert };
    } else if (source === undefined) steps[name] = init === undefined ? { kind: 'new' } : { kind: 'new', initial: init };
    else if (sameShape(source, type)) steps[name] = { kind: 'carry', from: name };
    else {
      const auto = binaryToProgressive(source, type);
      if (auto === null) throw new SszError('INVALID_TYPE', `field ${name} changes shape (${source.typeName} → ${type.typeName}) and has no conversion`, -1, to.typeName);
      steps[name] = { kind: 'convert', from: name, convert: auto };
    }
  }
  return { from, to, steps: steps as UpgradePlan<F, T>['steps'] };
}

/** The field nodes of a state container's tree (held while `root` is). */
function fieldNodesOf(type: StateContainer<Fields>, store: NodeStore, root: NodeId): NodeId[] {
  if (type instanceof ProgressiveContainerType) return type._fieldNodesOf(store, root);
  return store.getNodesAtDepth(root, fieldDepth(type), 0, Object.keys(type.fields).length);
}

/**
 * Upgrades `view` (of `plan.from`) to a view of `plan.to`. `values` gives
 * new fields (else their initial values or defaults) and replaces carried
 * or converted ones. Pending writes of `view` are committed first; `view`
 * stays usable and unchanged.
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
  let pre: ContainerView<Fields> | null = null;
  try {
    const fromNames = Object.keys(plan.from.fields);
    const toNames = Object.keys(plan.to.fields);
    const old = fieldNodesOf(plan.from as StateContainer<Fields>, store, base.rootNode);
    const oldAt = new Map(fromNames.map((n, i) => [n, old[i] as NodeId]));
    const nodes: NodeId[] = [];
    const given = values as Record<string, unknown>;
    const own = (t: Tree): NodeId => {
      made.push(t);
      return t.rootNode;
    };
    toNames.forEach((name, i) => {
      const step = (plan.steps as Record<string, FieldStep>)[name] as FieldStep;
      const type = (plan.to.fields as Fields)[name] as SszType<unknown>;
      let node: NodeId;
      if (Object.hasOwn(given, name) && given[name] !== undefined) node = own(type.toTree(given[name], store));
      else if (step.kind === 'new') {
        let value: unknown;
        if (step.initial === undefined) value = type.defaultValue();
        else value = step.initial((pre ??= (plan.from as SszType<unknown>).viewOf(base) as ContainerView<Fields>));
        node = own(type.toTree(value, store));
      } else if (step.kind === 'carry') node = oldAt.get(step.from) as NodeId;
      else {
        const out = step.convert(store, oldAt.get(step.from) as NodeId);
        node = own(out instanceof Tree ? out : new Tree(out, store));
      }
      nodes[i] = node;
    });
    let out: Tree;
    if (plan.to instanceof ProgressiveContainerType) {
      out = new Tree(plan.to._treeOf(store, nodes), store);
    } else {
      // Same depth and the fields in place: write only the positions that change (a few new spine
      // branches); otherwise build the field tree anew over the nodes.
      const toDepth = fieldDepth(plan.to as StateContainer<Fields>);
      const samePlaces = plan.from instanceof ContainerType && fieldDepth(plan.from as StateContainer<Fields>) === toDepth && fromNames.every((n, i) => toNames[i] === n);
      if (samePlaces) {
        const changed: number[] = [];
        for (let i = 0; i < toNames.length; i++) if (i >= old.length || nodes[i] !== old[i]) changed.push(i);
        out = base.clone();
        if (changed.length > 0) out.setNodesAtDepth(toDepth, changed, changed.map((i) => nodes[i] as NodeId));
      } else {
        out = new Tree(store.setNodesAtDepth(store.zero(toDepth), toDepth, toNames.map((_, i) => i), nodes), store);
      }
    }
    try {
      return plan.to.viewOf(out) as ContainerView<T>;
    } finally {
      out.dispose();
    }
  } finally {
    (pre as ContainerView<Fields> | null)?.dispose();
    for (const t of made) t.dispose();
    base.dispose();
  }
}
