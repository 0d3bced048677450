/**
 * Why the native `avx512` module is absent, in one line a user can act on:
 * read from the `status.json` that `scripts/build-native.mjs` (the package's
 * install script) leaves in `native/build/` beside where the module would be.
 *
 * Invariant: the message never guesses. A status file says what the last
 * build attempt found (no compiler, no Node-API headers, a failed compile or
 * known-answer check, another platform); no status file means the script
 * never ran here (installed with `--ignore-scripts`, or pnpm not yet allowed
 * to run the package's build). Where rebuilding can help, the message ends
 * with the command to run. Every message starts "avx512: native module not
 * built", the prefix the other outcomes of loading do not use.
 *
 * Node built-ins come through `process.getBuiltinModule`, as in the loader,
 * so browsers (which never reach this) import nothing Node-only.
 * @module
 */

export interface NodeBuiltins {
  fs: { existsSync(path: string): boolean; readFileSync(path: string, encoding: 'utf8'): string };
  path: { relative(from: string, to: string): string; isAbsolute(path: string): boolean };
  url: { fileURLToPath(url: URL): string };
  cwd(): string;
}

/** What `scripts/build-native.mjs` records: `code` is machine-readable, `reason` one sentence. */
export interface NativeBuildStatus {
  readonly code: 'built' | 'platform' | 'no-headers' | 'no-compiler' | 'unwritable' | 'compile-failed' | 'check-failed';
  readonly reason: string;
}

function builtins(): NodeBuiltins | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown; cwd(): string } }).process;
  if (proc?.getBuiltinModule === undefined) return undefined;
  const get = proc.getBuiltinModule;
  return { fs: get('fs'), path: get('path'), url: get('url'), cwd: () => proc.cwd() } as NodeBuiltins;
}

/** The status file recorded beside `moduleUrl`, or undefined when there is none (or it is unreadable). */
export function readBuildStatus(moduleUrl: URL, node: NodeBuiltins | undefined = builtins()): NativeBuildStatus | undefined {
  if (node === undefined) return undefined;
  const file = node.url.fileURLToPath(new URL('status.json', moduleUrl));
  if (!node.fs.existsSync(file)) return undefined;
  try {
    const status = JSON.parse(node.fs.readFileSync(file, 'utf8')) as Partial<NativeBuildStatus>;
    return typeof status.code === 'string' && typeof status.reason === 'string' ? (status as NativeBuildStatus) : undefined;
  } catch {
    return undefined;
  }
}

/** `node <build script>`, the path relative to the working directory when it lies inside it. */
function rebuildCommand(moduleUrl: URL, node: NodeBuiltins): string {
  const script = node.url.fileURLToPath(new URL('../../scripts/build-native.mjs', moduleUrl));
  const relative = node.path.relative(node.cwd(), script);
  return `node ${relative.startsWith('..') || node.path.isAbsolute(relative) ? script : relative}`;
}

/**
 * The message for a module that is not at any of `moduleUrls` (the places the
 * loader looks, first the packaged layout): the recorded reason where the
 * build script left one, else that it never ran; plus what to run.
 */
export function notBuiltMessage(moduleUrls: readonly URL[], node: NodeBuiltins | undefined = builtins()): string {
  if (node === undefined) return 'avx512: native module not built (no Node.js file system here)';
  // The first place whose package holds the build script is where a build would put the module.
  const home =
    moduleUrls.find((url) => readBuildStatus(url, node) !== undefined) ??
    moduleUrls.find((url) => node.fs.existsSync(node.url.fileURLToPath(new URL('../../scripts/build-native.mjs', url))));
  if (home === undefined) return 'avx512: native module not built (no scripts/build-native.mjs beside this package)';
  const command = rebuildCommand(home, node);
  const status = readBuildStatus(home, node);
  if (status === undefined) {
    return `avx512: native module not built (the package's install script has not run here; pnpm runs it only for allowed builds); to build it: ${command}`;
  }
  switch (status.code) {
    case 'platform':
      return `avx512: native module not built (${status.reason})`;
    case 'no-compiler':
      return `avx512: native module not built (${status.reason}); install a C compiler (gcc or clang), then run: ${command}`;
    case 'no-headers':
      return `avx512: native module not built (${status.reason}); install Node's development headers, then run: ${command}`;
    case 'built':
      // Recorded as built, yet no module: removed since (or a copied tree without native/build/).
      return `avx512: native module not built (the module recorded as built is gone); to rebuild it: ${command}`;
    default:
      return `avx512: native module not built (${status.reason}); to retry: ${command}`;
  }
}
