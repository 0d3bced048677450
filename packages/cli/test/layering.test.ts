/**
 * The CLI sits on `@ssztree/types` alone: no module of packages/cli/src
 * imports core or the hasher at run time (type-only imports included:
 * it reaches core's `Tree` through the schemas' return types).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

describe('cli layering', () => {
  it('imports only @ssztree/types of our packages', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const specs = [...readFileSync(file, 'utf8').matchAll(/\bfrom\s+['"](@ssztree\/[^'"]+)['"]/g)].map((m) => m[1]);
      for (const spec of specs) expect(spec, file).toMatch(/^@ssztree\/types(\/consensus)?$/);
    }
  });
});
