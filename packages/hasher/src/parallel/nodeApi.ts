/**
 * The few Node.js APIs the pool needs, reached through
 * `process.getBuiltinModule` so nothing Node-specific is imported statically
 * and the package still loads in browsers (where the pool uses Web Workers
 * instead: `browserApi.ts`).
 * @module
 */
import { browserCores } from './browserApi.js';

export interface NodeWorker {
  postMessage(message: unknown): void;
  terminate(): Promise<number>;
  ref(): void;
  unref(): void;
  on(event: 'error' | 'exit', listener: () => void): void;
}

export interface NodeWorkerThreads {
  readonly Worker: new (entry: string | URL, options: { eval?: boolean; workerData: unknown; execArgv?: string[] }) => NodeWorker;
  readonly isMainThread: boolean;
}

function builtin<T>(id: string): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return proc?.getBuiltinModule?.(id) as T | undefined;
  } catch {
    return undefined;
  }
}

/** `node:worker_threads` on the main thread of a Node process with SharedArrayBuffer; otherwise undefined. */
export function nodeWorkerThreads(): NodeWorkerThreads | undefined {
  if (typeof SharedArrayBuffer === 'undefined') return undefined;
  const threads = builtin<NodeWorkerThreads>('worker_threads');
  // Workers do not start workers of their own.
  return threads?.isMainThread === true ? threads : undefined;
}

/** `os.availableParallelism()` (`navigator.hardwareConcurrency` in browsers), or 1 where it cannot be known. */
export function availableCores(): number {
  const os = builtin<{ availableParallelism?: () => number; cpus(): unknown[] }>('os');
  return os?.availableParallelism?.() ?? os?.cpus().length ?? browserCores() ?? 1;
}

/**
 * The Node options a worker starts with: the main thread's, less
 * `--input-type`. Workers inherit `process.execArgv`, and Node refuses to
 * load a worker's file entry under `--input-type` (ERR_INPUT_TYPE_NOT_ALLOWED),
 * so a program run as `node --input-type=module -e …` would lose every worker.
 */
export function workerExecArgv(): string[] {
  const argv = (globalThis as { process?: { execArgv?: string[] } }).process?.execArgv ?? [];
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--input-type') i++; // its value is the next argument
    else if (!argv[i]!.startsWith('--input-type=')) kept.push(argv[i]!);
  }
  return kept;
}
