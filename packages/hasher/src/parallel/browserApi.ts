/**
 * The browser side of the pool: Web Workers (module workers) on a page that
 * is cross-origin isolated (so SharedArrayBuffer exists), wrapped in the
 * small worker interface `workers.ts` uses for `worker_threads`.
 *
 * The worker script is the package's `dist/hashWorker.browser.js` (the
 * worker entry bundled with its dependency into one file that imports
 * nothing: a module worker does not see the page's import map), found beside
 * the module that loads this one (`new URL('./hashWorker.browser.js',
 * import.meta.url)`), or wherever {@link configureWorkerUrl} says.
 *
 * Invariant: a worker that cannot start (bad URL, failed load, blocked by
 * the page's policies) reports `error`, which retires it; nothing here
 * throws past `startWebWorker`.
 * @module
 */
import type { NodeWorker } from './nodeApi.js';
import type { WorkerInit } from './protocol.js';

/** The parts of the DOM Worker API used here (the project compiles without DOM types). */
interface WebWorker {
  postMessage(message: unknown): void;
  terminate(): void;
  addEventListener(type: 'error' | 'messageerror', listener: () => void): void;
}

interface BrowserGlobals {
  crossOriginIsolated?: boolean;
  Worker?: new (url: string | URL, options: { type: 'module'; name?: string }) => WebWorker;
  navigator?: { hardwareConcurrency?: number };
}

const g = globalThis as unknown as BrowserGlobals;
let configuredUrl: string | URL | undefined;

/**
 * Where the pool's Web Workers load their script from, for pages whose
 * bundler does not place `hashWorker.browser.js` beside the library's module.
 * `undefined` restores the default. Running workers keep their script; new
 * ones (after `configureThreads`) use this.
 */
export function configureWorkerUrl(url: string | URL | undefined): void {
  configuredUrl = url;
}

/** True on a browser page (or worker) that can share memory with Web Workers. */
export function webWorkersAvailable(): boolean {
  return g.crossOriginIsolated === true && typeof g.Worker === 'function' && typeof SharedArrayBuffer !== 'undefined';
}

/** Starts one hashing Web Worker on `init`, or returns undefined where that is impossible. */
export function startWebWorker(init: WorkerInit): NodeWorker | undefined {
  if (!webWorkersAvailable()) return undefined;
  let worker: WebWorker;
  try {
    worker = new g.Worker!(configuredUrl ?? new URL('./hashWorker.browser.js', import.meta.url), { type: 'module', name: `ssztree-hash-${init.slot}` });
    worker.postMessage({ init });
  } catch {
    return undefined;
  }
  return {
    postMessage: (message) => worker.postMessage(message),
    terminate: async () => {
      worker.terminate();
      return 0;
    },
    // A page's lifetime is not its event loop's: it does not end while a
    // promise is pending, so an awaited job needs no hold, and an idle
    // Web Worker never keeps a page open.
    ref: () => undefined,
    unref: () => undefined,
    on: (event, listener) => {
      // Browsers report a worker's failure to load or an uncaught error as `error`; there is no `exit` event.
      if (event === 'error') {
        worker.addEventListener('error', listener);
        worker.addEventListener('messageerror', listener);
      }
    },
  };
}

/** `navigator.hardwareConcurrency` where it exists. */
export function browserCores(): number | undefined {
  return g.navigator?.hardwareConcurrency;
}
