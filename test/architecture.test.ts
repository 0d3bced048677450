/**
 * The architecture, checked: `hasher` imports neither `core` nor `types`,
 * `core` does not import `types`, and no package has a runtime import cycle
 * among its modules (type-only imports are erased and do not count).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PACKAGES = ['hasher', 'core', 'types'] as const;
const ALLOWED: Record<(typeof PACKAGES)[number], string[]> = { hasher: [], core: ['hasher'], types: ['hasher', 'core'] };

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Runtime imports of a module: `import … from` and `export … from`, minus `import type` / `export type`. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[2] !== undefined) continue;
    // `import { type A, type B } from …` is type-only too.
    const clause = (m[3] ?? '').replace(/\s+from\s+$/, '').trim();
    const braced = /^\{([^}]*)\}$/.exec(clause);
    const names = braced?.[1]?.split(',').map((s) => s.trim()).filter((s) => s !== '') ?? [];
    if (braced !== null && names.length > 0 && names.every((s) => s.startsWith('type '))) continue;
    specs.push(m[4]!);
  }
  return specs;
}

describe('architecture', () => {
  it.each(PACKAGES)('%s imports only the packages below it', (pkg) => {
    for (const file of sources(join(root, 'packages', pkg, 'src'))) {
      for (const spec of runtimeImports(file)) {
        const m = spec.match(/^@ssztree\/([a-z]+)/);
        if (m !== null && m[1] !== pkg) expect(ALLOWED[pkg], `${relative(root, file)} imports ${spec}`).toContain(m[1]);
      }
    }
  });

  it.each(PACKAGES)('%s has no runtime import cycle', (pkg) => {
    const files = sources(join(root, 'packages', pkg, 'src'));
    const graph = new Map<string, string[]>();
    for (const file of files) {
      const deps = runtimeImports(file)
        .filter((s) => s.startsWith('.'))
        .map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
      graph.set(file, deps.filter((d) => graph.has(d) || files.includes(d)));
    }
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string): void => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        const cycle = stack.slice(stack.indexOf(f)).map((x) => relative(root, x));
        expect.fail(`import cycle: ${[...cycle, relative(root, f)].join(' → ')}`);
      }
      state.set(f, 'open');
      stack.push(f);
      for (const d of graph.get(f) ?? []) visit(d);
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of files) visit(f);
    expect(files.length).toBeGreaterThan(3);
  });
});
