/**
 * Runs benchmark rows each in a child process of its own, so one row's JIT
 * state, heap and native threads never affect another's, while the parent
 * interleaves their samples round by round.
 *
 * Protocol: the parent sends `{ kind: 'run', workloads }`, the child runs
 * them one after the other in that one task and answers `{ kind: 'result',
 * ms }` with each one's time (the child times only the operation itself;
 * input preparation happens before its clock starts) or `{ kind: 'error',
 * message }`. Several workloads in one request run with no idle gap between
 * them — a block's writes and then its commit, as a client runs them in one
 * task — where separate requests would leave the process idle (and free to
 * lose its core and caches) in between.
 */
import { fork, type ChildProcess } from 'node:child_process';

export interface RunRequest {
  readonly kind: 'run';
  readonly workloads: readonly string[];
}

/** `out`: what each workload's run returned when it returned a string (a root to compare across sides), else ''. */
type StepReply = { readonly kind: 'result'; readonly ms: readonly number[]; readonly out?: readonly string[] } | { readonly kind: 'error'; readonly message: string };

export type RunReply = { readonly kind: 'result'; readonly ms: number } | { readonly kind: 'error'; readonly message: string };

export class RowProcess {
  private readonly child: ChildProcess;
  private pending: ((reply: StepReply) => void) | undefined;

  constructor(script: string, row: string, extraExecArgv: readonly string[] = [], extraArgs: readonly string[] = []) {
    this.child = fork(script, [row, ...extraArgs], {
      execArgv: ['--import', 'tsx', '--conditions=source', ...extraExecArgv],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (reply: StepReply) => {
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

  /** Runs one workload; its time. */
  async run(workload: string): Promise<RunReply> {
    const reply = await this.runAll([workload]);
    return reply.kind === 'error' ? reply : { kind: 'result', ms: reply.ms[0]! };
  }

  /** Runs workloads back to back in one task of the child; each one's time. */
  runAll(workloads: readonly string[]): Promise<StepReply> {
    return new Promise((resolve) => {
      this.pending = resolve;
      this.child.send({ kind: 'run', workloads } satisfies RunRequest);
    });
  }

  close(): void {
    this.child.kill();
  }
}

/** One workload of a row process: `prepare` runs untimed, then `run` is timed. */
export interface RowOperation {
  prepare: () => void;
  run: () => void | string;
}

/**
 * The child side: answers run requests with the time of `operations[workload]`
 * (or of what `operations(workload)` returns: workloads named with a
 * parameter, such as a block number).
 */
export function serveRow(operations: Readonly<Record<string, RowOperation | undefined>> | ((workload: string) => RowOperation | undefined)): void {
  const find = typeof operations === 'function' ? operations : (w: string) => operations[w];
  process.on('message', (request: RunRequest) => {
    const times: number[] = [];
    const out: string[] = [];
    try {
      for (const workload of request.workloads) {
        const op = find(workload);
        if (op === undefined) throw new Error(`no workload ${workload}`);
        op.prepare();
        const start = performance.now();
        const result = op.run();
        times.push(performance.now() - start);
        out.push(typeof result === 'string' ? result : '');
      }
      process.send!({ kind: 'result', ms: times, out } satisfies StepReply);
    } catch (cause) {
      process.send!({ kind: 'error', message: cause instanceof Error ? cause.message : String(cause) } satisfies StepReply);
    }
  });
}
