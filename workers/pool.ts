// Shared shape of the Piscina pools: one place sizes them, runs their worker files (TypeScript
// through tsx, or the compiled JavaScript of `npm run build`) and reports their load.
import { setFlagsFromString } from 'node:v8';
import { Piscina } from 'piscina';
import { cpuBudget } from '../shared/runtime/cpu-budget.ts';
import { HttpError } from '../shared/errors.ts';
import type { Logger } from '../shared/runtime/logger.ts';
import { inSpan, SpanKind, tracing } from '../shared/runtime/tracing.ts';

export interface PoolStats {
  name: string;
  threads: number;
  queued: number;
  utilization: number;
}

/** Piscina's balancer type (its package index does not export the name). */
export type LoadBalancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>;
export type BalancedThread = Parameters<LoadBalancer>[1][number];

export interface WorkerPool<TTask, TResult> {
  run(task: TTask, transferList?: ArrayBuffer[]): Promise<TResult>;
  stats(): PoolStats;
  close(): Promise<void>;
}

/**
 * Compiled (this module is dist/workers/pool.js, `npm run build`): the worker's `.js` twin beside it,
 * run by plain Node. From source: the `.ts` file, loaded through tsx like the main thread.
 */
const COMPILED = import.meta.url.endsWith('.js');
export function workerEntry(workerFile: URL, compiled = COMPILED): { filename: string; execArgv: string[] } {
  if (!compiled) return { filename: workerFile.href, execArgv: ['--import', 'tsx'] };
  return { filename: workerFile.href.replace(/\.ts$/, '.js'), execArgv: [] };
}

/**
 * `npm start` gives V8 `--initial-old-space-size=128` for the main thread's sake (upload buffers
 * counted against a small old-generation limit ran a full collection every 0.6 s). V8 flags are
 * process-wide and each worker thread's heap is configured from them when it starts: with the flag,
 * a worker collected its old generation for the first time only when it held 128 MB. The analysis
 * threads, with about 15 MB live, grew by 2 MB a minute each under the soak benchmark and
 * held 93 MB after 30 minutes. Cleared before the first worker starts, the flag leaves workers
 * V8's default limit, computed from what they hold. (The main thread's heap was configured at
 * startup and keeps its 128 MB.)
 */
setFlagsFromString('--initial-old-space-size=0');

export function createWorkerPool<TTask, TResult>(
  name: string,
  workerFile: URL,
  logger: Pick<Logger, 'error'>,
  options: {
    threads?: number;
    maxQueue?: number;
    workerData?: unknown;
    /** No thread until the first task (roles that rarely use the pool). */
    lazy?: boolean;
    /** Threads kept alive while idle (default: all of them, or none when lazy). */
    minThreads?: number;
    /** Tasks handed to one thread at once (piscina's concurrentTasksPerWorker; default 1). */
    tasksPerThread?: number;
    /**
     * Which thread takes the next task (piscina's loadBalancer; default the least busy under
     * tasksPerThread). A task it places nowhere stays first in line (piscina's stricterFIFO), so the
     * tasks behind it cannot overtake it for as long as they keep coming.
     */
    loadBalancer?: LoadBalancer;
  } = {},
): WorkerPool<TTask, TResult> {
  const threads = Math.max(1, options.threads ?? cpuBudget());
  const piscina = new Piscina({
    ...workerEntry(workerFile),
    minThreads: Math.min(threads, options.minThreads ?? (options.lazy ? 0 : threads)),
    maxThreads: threads,
    // Bounded so that the last task in line still finishes within a client's patience.
    maxQueue: options.maxQueue ?? threads * 64,
    idleTimeout: 60_000,
    concurrentTasksPerWorker: options.tasksPerThread ?? 1,
    workerData: options.workerData,
    ...(options.loadBalancer ? { loadBalancer: options.loadBalancer, stricterFIFO: true } : {}),
  });
  piscina.on('error', (error: unknown) => logger.error({ err: error, pool: name }, 'worker pool error'));
  const run = (task: TTask, transferList?: ArrayBuffer[]) =>
    (piscina.run(task, transferList ? { transferList: transferList as never } : undefined) as Promise<TResult>).catch((error: unknown) => {
      // A full queue is load shedding, not a fault: the client may retry shortly.
      if (error instanceof Error && /queue is at limit/i.test(error.message)) throw new HttpError(503, '요청이 많아 지금은 처리할 수 없습니다. 잠시 후 다시 시도해 주세요.', { 'Retry-After': '2' }, 'server_busy');
      throw error;
    });
  const attributes = { 'pool.name': name };
  return {
    // A span per task (queue wait included) when tracing is on.
    run: (task, transferList) => (tracing ? inSpan(`pool ${name}`, SpanKind.INTERNAL, attributes, () => run(task, transferList)) : run(task, transferList)),
    stats: () => ({ name, threads: piscina.threads.length, queued: piscina.queueSize, utilization: piscina.utilization }),
    close: () => piscina.close({ force: false }),
  };
}
