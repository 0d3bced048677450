/**
 * Runs benchmark rows each in a child process of its own, so one row's JIT
 * state, heap and native threads never affect another's, while the parent
 * interleaves their samples round by round.
 *
 * Protocol: the parent sends `{ kind: 'run', workload }`, the child answers
 * `{ kind: 'result', ms }` (the child times only the operation itself; input
 * preparation happens before the clock starts) or `{ kind: 'error', message }`.
 */
import { fork, type ChildProcess } from 'node:child_process';

export interface RunRequest {
  readonly kind: 'run';
  readonly workload: string;
}

export type RunReply = { readonly kind: 'result'; readonly ms: number } | { readonly kind: 'error'; readonly message: string };

export class RowProcess {
  private readonly child: ChildProcess;
  private pending: ((reply: RunReply) => void) | undefined;

  constructor(script: string, row: string, extraExecArgv: readonly string[] = [], extraArgs: readonly string[] = []) {
    this.child = fork(script, [row, ...extraArgs], {
      execArgv: ['--import', 'tsx', '--conditions=source', ...extraExecArgv],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (reply: RunReply) => {
      const resolve = this.pending;
      this.pending = undefined;
      resolve?.(reply);
    });
    this.child.on('exit', (code) => {
      const resolve = this.pending;
      this.pending = undefined;
      resolve?.({ kind: 'error', message: `row process exited with code ${code}` });
    });
  }

  run(workload: string): Promise<RunReply> {
    return new Promise((resolve) => {
      this.pending = resolve;
      this.child.send({ kind: 'run', workload } satisfies RunRequest);
    });
  }

  close(): void {
    this.child.kill();
  }
}

/** The child side: answers run requests with the time of `operations[workload]`. */
export function serveRow(operations: Readonly<Record<string, { prepare: () => void; run: () => void } | undefined>>): void {
  process.on('message', (request: RunRequest) => {
    const op = operations[request.workload];
    if (op === undefined) {
      process.send!({ kind: 'error', message: `no workload ${request.workload}` } satisfies RunReply);
      return;
    }
    try {
      op.prepare();
      const start = performance.now();
      op.run();
      const ms = performance.now() - start;
      process.send!({ kind: 'result', ms } satisfies RunReply);
    } catch (cause) {
      process.send!({ kind: 'error', message: cause instanceof Error ? cause.message : String(cause) } satisfies RunReply);
    }
  });
}
