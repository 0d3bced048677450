/**
 * Runs the test page (`page/entry.ts`) in headless Chromium: bundles it and
 * the pool's worker for the browser with esbuild (from the TypeScript
 * sources; platform `browser`, so a static import of a Node built-in fails
 * the build), serves them from a tiny `node:http` server on 127.0.0.1 with
 * the headers that make the page cross-origin isolated (and, for the CSP
 * page, a Content-Security-Policy without 'unsafe-eval'), and drives Debian's
 * `/usr/bin/chromium` through playwright-core (which never downloads a
 * browser here: it is given the executable).
 *
 * Invariant: everything started here (server, browser, temp dir) is closed
 * by `close()`, whatever failed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.SSZTREE_CHROMIUM ?? '/usr/bin/chromium';

/** Flags that keep Chromium quiet on a machine without a network (it floods a closed network otherwise). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The CSP of the `csp` page: scripts from the page's own origin and WebAssembly, but no eval / new Function. */
export const STRICT_CSP = "script-src 'self' 'wasm-unsafe-eval'";

/** Bundles the page and the worker into `dir` as `entry.js` and `hashWorker.browser.js`. */
export async function bundle(dir: string): Promise<void> {
  await build({
    entryPoints: {
      entry: join(ROOT, 'test/browser/page/entry.ts'),
      // The pool's worker, beside the page's bundle where `browserApi.ts` looks for it.
      'hashWorker.browser': join(ROOT, 'packages/hasher/src/parallel/worker.ts'),
    },
    outdir: dir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    conditions: ['source'],
    logLevel: 'silent',
  });
}

export interface BrowserRun {
  /** Loads `/?mode=...` (under the strict CSP for `csp`; the built packages for `dist`) and returns the page's report. */
  report(mode: string, query?: string): Promise<unknown>;
  close(): Promise<void>;
}

function html(): string {
  return '<!doctype html><meta charset="utf-8"><title>ssztree browser test</title><script type="module" src="/entry.js"></script>';
}

/** The page of mode `dist`: the built packages mapped to their dist files (served under /pkg and /noble). */
function distHtml(): string {
  const imports = {
    '@ssztree/hasher': '/pkg/hasher/dist/index.js',
    '@ssztree/core': '/pkg/core/dist/index.js',
    '@ssztree/types': '/pkg/types/dist/index.js',
    '@ssztree/types/consensus': '/pkg/types/dist/consensus/index.js',
    '@noble/hashes/': '/noble/',
  };
  return `<!doctype html><meta charset="utf-8"><title>ssztree dist test</title><script type="importmap">${JSON.stringify({ imports })}</script><script type="module" src="/dist-page.js"></script>`;
}

/** Whether the packages are built (mode `dist` serves their dist files). */
export function distBuilt(): boolean {
  return ['hasher', 'core', 'types'].every((p) => existsSync(join(ROOT, 'packages', p, 'dist', 'index.js')));
}

/** A file under one of the served roots, or undefined for anything outside them. */
function staticFile(pathname: string): string | undefined {
  const roots: Record<string, string> = {
    '/pkg/': join(ROOT, 'packages'),
    '/noble/': join(ROOT, 'node_modules/@noble/hashes'),
  };
  for (const [prefix, dir] of Object.entries(roots)) {
    if (!pathname.startsWith(prefix)) continue;
    const file = resolve(dir, '.' + decodeURIComponent(pathname.slice(prefix.length - 1)));
    // Only built files and the one dependency: no way out of those directories.
    if (!file.startsWith(dir + sep)) return undefined;
    if (prefix === '/pkg/' && !/^[a-z]+\/dist\//.test(file.slice(dir.length + 1))) return undefined;
    return existsSync(file) ? file : undefined;
  }
  if (pathname === '/dist-page.js') return join(ROOT, 'test/browser/page/dist-page.js');
  return undefined;
}

/** Serves the bundle and `cases` (as /cases.json), launches Chromium. */
export async function startBrowser(cases: unknown): Promise<BrowserRun> {
  const dir = mkdtempSync(join(tmpdir(), 'ssztree-browser-'));
  let server: Server | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close().catch(() => undefined);
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await bundle(dir);
    const casesJson = JSON.stringify(cases);
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const headers: Record<string, string> = {
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
        'Cross-Origin-Resource-Policy': 'same-origin',
        'Cache-Control': 'no-store',
      };
      if (url.searchParams.get('mode') === 'csp') headers['Content-Security-Policy'] = STRICT_CSP;
      let body: string | Buffer | undefined;
      const file = staticFile(url.pathname);
      if (file !== undefined && file.endsWith('.js')) {
        headers['Content-Type'] = 'text/javascript';
        body = readFileSync(file);
      } else if (url.pathname === '/dist.html') {
        headers['Content-Type'] = 'text/html; charset=utf-8';
        body = distHtml();
      } else if (url.pathname === '/') {
        headers['Content-Type'] = 'text/html; charset=utf-8';
        body = html();
      } else if (url.pathname === '/cases.json') {
        headers['Content-Type'] = 'application/json';
        body = casesJson;
      } else if (url.pathname === '/entry.js' || url.pathname === '/hashWorker.browser.js') {
        headers['Content-Type'] = 'text/javascript';
        body = readFileSync(join(dir, url.pathname.slice(1)));
      }
      if (body === undefined) {
        res.writeHead(404, headers).end('not found');
        return;
      }
      res.writeHead(200, headers).end(body);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 60_000 });
    const run = browser;
    return {
      close,
      async report(mode, query = '') {
        const page = await run.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        try {
          await page.goto(`http://127.0.0.1:${port}/${mode === 'dist' ? 'dist.html' : ''}?mode=${mode}${query}`);
          const deadline = Date.now() + 60_000;
          for (;;) {
            const state = await page.evaluate(() => {
              const g = globalThis as { __report?: unknown; __failure?: string };
              return { report: g.__report, failure: g.__failure };
            });
            if (state.failure !== undefined) throw new Error(`page failed: ${state.failure}`);
            if (state.report !== undefined) return state.report;
            if (errors.length > 0) throw new Error(`page error: ${errors.join('; ')}`);
            if (Date.now() > deadline) throw new Error('page did not report within 60 s');
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        } finally {
          await page.close();
        }
      },
    };
  } catch (e) {
    await close();
    throw e;
  }
}

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM);
}
