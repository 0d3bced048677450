// Assembles wat/sha256_simd.wat and wat/sha256_scalar.wat with wabt and writes
// src/backends/wasmModules.generated.ts (both binaries as base64), which is
// committed so tests and type checks run from src/ without a build step.
//
//   node scripts/build-wasm.mjs          # (re)write the generated module
//   node scripts/build-wasm.mjs --check  # exit 1 if it is missing or stale
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import initWabt from 'wabt';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outPath = join(root, 'src/backends/wasmModules.generated.ts');
const sources = [
  { exportName: 'SHA256_SIMD_WASM_BASE64', file: 'wat/sha256_simd.wat' },
  { exportName: 'SHA256_SCALAR_WASM_BASE64', file: 'wat/sha256_scalar.wat' },
];

const wabt = await initWabt();

/** Assemble one .wat file to its binary; throws with wabt's diagnostics on error. */
function assemble(file) {
  const text = readFileSync(join(root, file), 'utf8');
  const module = wabt.parseWat(file, text, { simd: true });
  try {
    module.resolveNames();
    module.validate();
    // No name section: smaller, and the binary then depends on the code alone.
    return module.toBinary({ write_debug_names: false }).buffer.slice();
  } finally {
    module.destroy();
  }
}

/** Base64 in lines of 100 characters so the generated file diffs and reads sanely. */
function base64Lines(bytes) {
  const b64 = Buffer.from(bytes).toString('base64');
  const lines = [];
  for (let i = 0; i < b64.length; i += 100) lines.push(`  '${b64.slice(i, i + 100)}'`);
  return lines.join(' +\n');
}

let out = `// GENERATED FILE - DO NOT EDIT.
// Built from ${sources.map((s) => `packages/hasher/${s.file}`).join(' and ')}
// by \`node scripts/build-wasm.mjs\` (run in packages/hasher; also \`pnpm run build:wasm\`).
// Edit the .wat sources (or scripts/gen-sha256-wat.ts, which writes them) and rebuild.
`;
for (const { exportName, file } of sources) {
  const bytes = assemble(file);
  out += `
/** ${file}, ${bytes.length} bytes. */
export const ${exportName} =
${base64Lines(bytes)};
`;
}

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(outPath, 'utf8');
  } catch {
    // A missing file is as stale as an outdated one.
  }
  if (current !== out) {
    console.error(`stale: ${outPath}\nrun: node scripts/build-wasm.mjs (in packages/hasher)`);
    process.exit(1);
  }
  console.log('wasm modules up to date');
} else {
  writeFileSync(outPath, out);
  console.log(`wrote ${outPath}`);
}
