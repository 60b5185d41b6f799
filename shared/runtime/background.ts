// Work started by a request that outlives its response (e-mail, inline index updates): tracked so
// that shutdown waits for it and a failure is logged, never thrown into the void.
import type { Logger } from './logger.ts';

export class BackgroundTasks {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly logger: Logger) {}

  run(name: string, task: () => Promise<unknown>): void {
    const promise = task()
      .catch((error: unknown) => this.logger.error({ err: error, task: name }, 'background task failed'))
      .finally(() => this.pending.delete(promise));
    this.pending.add(promise);
  }

  get size(): number {
    return this.pending.size;
  }

  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}

export interface PeriodicTask {
  /** Stops the timer and waits for the round in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `task` now and every `intervalMs` without keeping the process alive; a failed round is
 * reported to `failed` and the next round tries again.
 */
export function runPeriodically(task: () => Promise<void>, failed: (error: unknown) => void, intervalMs: number): PeriodicTask {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    if (!stopped) running = task().catch(failed);
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
