/**
 * The architecture, checked:
 * - between packages: `hasher` imports neither `core` nor `types`, `core`
 *   does not import `types` (runtime imports; cli has its own test);
 * - inside a package: no import loop among its modules, type-only imports
 *   included (`import type`, `export type … from`, `import('…')` types);
 * - inside core and types: every module sits in a layer of the package's
 *   declared order — a folder, or a file at the top of src/ — and imports
 *   only from its own layer or the layers before it. A new folder or
 *   top-level file has to be placed in the order before its package passes.
 * docs/ARCHITECTURE.md explains each layer.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PACKAGES = ['hasher', 'core', 'types'] as const;
type Pkg = (typeof PACKAGES)[number];
const ALLOWED: Record<Pkg, string[]> = { hasher: [], core: ['hasher'], types: ['hasher', 'core'] };

/**
 * The layers of each re-laid package, lowest first: a module may import
 * from its own layer and from those before it, never from those after it.
 */
const LAYERS: Partial<Record<Pkg, readonly string[]>> = {
  core: ['errors.ts', 'gindex.ts', 'nodes/', 'hash/', 'store/', 'wide/', 'write/', 'build/', 'read/', 'nodeStore.ts', 'tree.ts', 'index.ts'],
  types: [
    'errors.ts',
    'json.ts',
    'merkle.ts',
    'progressive.ts',
    'bitArray.ts',
    'codec.ts',
    'shape.ts',
    'tree/',
    'frozen/',
    'type.ts',
    'basicType.ts',
    'view/',
    'schema/',
    'index.ts',
    'consensus/',
    'immer/',
  ],
};

/**
 * Import loops the loop check lets through, each an edge `from -> to` of a
 * package whose internals this layout does not cover. The hasher's parallel
 * browser and node APIs name each other's types; removing that is the
 * hasher's own business. Nothing else may loop.
 */
const KNOWN_LOOP_EDGES: Partial<Record<Pkg | 'cli', readonly string[]>> = {
  hasher: ['parallel/browserApi.ts -> parallel/nodeApi.ts'],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Import {
  readonly spec: string;
  /** Erased at compile time: `import type`, `export type`, `{ type A, type B }`, `import('…')` in a type. */
  readonly typeOnly: boolean;
}

/** Every import of a module: `import … from`, `export … from`, side-effect imports and `import('…')`. */
function imports(text: string): Import[] {
  const found: Import[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    // `import { type A, type B } from …` is type-only too.
    const clause = (m[3] ?? '').replace(/\s+from\s+$/, '').trim();
    const braced = /^\{([^}]*)\}$/.exec(clause);
    const names = braced?.[1]?.split(',').map((s) => s.trim()).filter((s) => s !== '') ?? [];
    const typeOnly = m[2] !== undefined || (braced !== null && names.length > 0 && names.every((s) => s.startsWith('type ')));
    found.push({ spec: m[4]!, typeOnly });
  }
  // `import('…').Name` names a type; any other `import('…')` loads a module at run time.
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)(\.)?/g)) found.push({ spec: m[1]!, typeOnly: m[2] === '.' });
  return found;
}

/** The package's modules and their imports of each other (paths relative to src/), type-only ones included. */
function moduleGraph(pkg: string): Map<string, string[]> {
  const src = join(root, 'packages', pkg, 'src');
  const files = sources(src);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps = imports(readFileSync(file, 'utf8'))
      .filter((i) => i.spec.startsWith('.'))
      .map((i) => relative(src, resolve(dirname(file), i.spec.replace(/\.js$/, '.ts'))));
    graph.set(relative(src, file), deps);
  }
  for (const [file, deps] of graph) graph.set(file, deps.filter((d) => graph.has(d)));
  return graph;
}

/** The first import loop of `graph` (a list of modules, the first repeated at the end), or null. */
function findLoop(graph: ReadonlyMap<string, readonly string[]>, allowed: readonly string[] = []): string[] | null {
  const skip = new Set(allowed);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string): string[] | null => {
    if (state.get(f) === 'done') return null;
    if (state.get(f) === 'open') return [...stack.slice(stack.indexOf(f)), f];
    state.set(f, 'open');
    stack.push(f);
    for (const d of graph.get(f) ?? []) {
      if (skip.has(`${f} -> ${d}`)) continue;
      const loop = visit(d);
      if (loop !== null) return loop;
    }
    stack.pop();
    state.set(f, 'done');
    return null;
  };
  for (const f of graph.keys()) {
    const loop = visit(f);
    if (loop !== null) return loop;
  }
  return null;
}

/** The layer of a module (src-relative path): its top folder, or its own name at the top of src/. */
function layerOf(module: string): string {
  const slash = module.indexOf('/');
  return slash < 0 ? module : module.slice(0, slash + 1);
}

/** Every import of `graph` that breaks `order`, and every module outside it, as readable lines. */
function layerViolations(graph: ReadonlyMap<string, readonly string[]>, order: readonly string[]): string[] {
  const rank = new Map(order.map((layer, i) => [layer, i]));
  const out: string[] = [];
  for (const [file, deps] of graph) {
    const from = rank.get(layerOf(file));
    if (from === undefined) {
      out.push(`${file} is in no declared layer (${layerOf(file)})`);
      continue;
    }
    for (const d of deps) {
      const to = rank.get(layerOf(d));
      if (to !== undefined && to > from) out.push(`${file} (${layerOf(file)}) imports ${d} from a higher layer (${layerOf(d)})`);
    }
  }
  return out;
}

describe('architecture', () => {
  it.each(PACKAGES)('%s imports only the packages below it', (pkg) => {
    for (const file of sources(join(root, 'packages', pkg, 'src'))) {
      for (const { spec, typeOnly } of imports(readFileSync(file, 'utf8'))) {
        const m = spec.match(/^@ssztree\/([a-z]+)/);
        if (m !== null && m[1] !== pkg && !typeOnly) expect(ALLOWED[pkg], `${relative(root, file)} imports ${spec}`).toContain(m[1]);
      }
    }
  });

  it.each([...PACKAGES, 'cli'] as const)('%s has no import loop, type-only imports included', (pkg) => {
    const graph = moduleGraph(pkg);
    expect(graph.size).toBeGreaterThan(3);
    const loop = findLoop(graph, KNOWN_LOOP_EDGES[pkg]);
    expect(loop, loop === null ? '' : `import loop in ${pkg}: ${loop.join(' → ')}`).toBeNull();
  });

  it.each(Object.keys(LAYERS) as Pkg[])('%s imports only from its own layer or the ones below', (pkg) => {
    expect(layerViolations(moduleGraph(pkg), LAYERS[pkg]!)).toEqual([]);
  });

  it('the loop and layer checks catch what they are for', () => {
    // A loop through a type-only import, a loop that is allowed, and an import from a higher layer.
    const graph = new Map([
      ['a/x.ts', ['b/y.ts']],
      ['b/y.ts', ['a/x.ts']],
      ['c.ts', []],
    ]);
    expect(findLoop(graph)).toEqual(['a/x.ts', 'b/y.ts', 'a/x.ts']);
    expect(findLoop(graph, ['b/y.ts -> a/x.ts'])).toBeNull();
    expect(layerViolations(graph, ['a/', 'b/', 'c.ts'])).toEqual(['a/x.ts (a/) imports b/y.ts from a higher layer (b/)']);
    expect(layerViolations(graph, ['a/', 'b/'])).toContain('c.ts is in no declared layer (c.ts)');
    expect(imports("import type { A } from './a.js';\nimport { type B, type C } from './b.js';\nexport { D } from './d.js';\ntype E = import('./e.js').E;")).toEqual([
      { spec: './a.js', typeOnly: true },
      { spec: './b.js', typeOnly: true },
      { spec: './d.js', typeOnly: false },
      { spec: './e.js', typeOnly: true },
    ]);
  });
});
