// The bcrypt pool behind a small interface: the edge asks for a hash or a comparison and awaits it.
// Every task names who asked (the client address): FairAdmission decides who runs next, so one
// address, or many, cannot push others out of the pool (README, "Abuse limits").
import { cpuBudget } from '../shared/runtime/cpu-budget.ts';
import type { Logger } from '../shared/runtime/logger.ts';
import type { BcryptTask } from './bcrypt.worker.ts';
import { FairAdmission } from './fair-admission.ts';
import { createWorkerPool, type PoolStats } from './pool.ts';

export const BCRYPT_COST = 10;
/** Comparisons or hashes one client address may have queued or running; more is 429. */
export const BCRYPT_PER_ADDRESS = 2;
/** Waiting tasks, all addresses together, before 503: about 15 s of work at cost 10 on two cores. */
export const BCRYPT_MAX_QUEUED = 512;
/**
 * Tasks each bcrypt thread holds: the one it runs and the next. With one, a thread that finishes
 * idles until the event loop has taken its answer and handed it another task (a wait that grows
 * with the loop's own work); with the next already in its port, it starts at once. Admission
 * still chooses every task, one task earlier.
 */
export const TASKS_PER_THREAD = 2;
/** The key of work no client asked for (the administrator from ADMIN_PASSWORD at start). */
export const INTERNAL_KEY = 'internal';

/** Admission classes: work for a real account goes before comparisons against the dummy hash. */
export const PRIORITY_ACCOUNT = 0;
export const PRIORITY_UNKNOWN_ACCOUNT = 1;

export interface PasswordHasher {
  hash(password: string, client?: string): Promise<string>;
  /** `priority`: PRIORITY_UNKNOWN_ACCOUNT for a comparison against the dummy hash. */
  compare(password: string, hash: string, client?: string, priority?: number): Promise<boolean>;
  stats(): PoolStats;
  close(): Promise<void>;
}

export function createPasswordHasher(
  logger: Logger,
  options: { threads?: number; lazy?: boolean; perAddress?: number; maxQueued?: number } = {},
): PasswordHasher {
  const threads = Math.max(1, options.threads ?? cpuBudget());
  const pool = createWorkerPool<BcryptTask, string | boolean>('bcrypt', new URL('./bcrypt.worker.ts', import.meta.url), logger, {
    threads,
    lazy: options.lazy,
    tasksPerThread: TASKS_PER_THREAD,
    // Admission hands the pool at most TASKS_PER_THREAD tasks per thread; its own queue stays (nearly) empty.
    maxQueue: threads * 4,
  });
  const admission = new FairAdmission({
    concurrency: threads * TASKS_PER_THREAD,
    perKey: options.perAddress ?? BCRYPT_PER_ADDRESS,
    maxQueued: options.maxQueued ?? BCRYPT_MAX_QUEUED,
  });
  return {
    hash: async (password, client = INTERNAL_KEY) => (await admission.run(client, () => pool.run({ op: 'hash', password, cost: BCRYPT_COST }))) as string,
    compare: async (password, hash, client = INTERNAL_KEY, priority = PRIORITY_ACCOUNT) =>
      (await admission.run(client, () => pool.run({ op: 'compare', password, hash }), priority)) as boolean,
    stats: () => {
      const stats = pool.stats();
      return { ...stats, queued: stats.queued + admission.queued };
    },
    close: pool.close,
  };
}
