// The bcrypt pool behind a small interface: the edge asks for a hash or a comparison and awaits it.
import type { Logger } from '../shared/logger.ts';
import type { BcryptTask } from './bcrypt.worker.ts';
import { createWorkerPool, type PoolStats } from './pool.ts';

export const BCRYPT_COST = 10;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
  stats(): PoolStats;
  close(): Promise<void>;
}

export function createPasswordHasher(logger: Logger, options: { threads?: number; lazy?: boolean } = {}): PasswordHasher {
  const pool = createWorkerPool<BcryptTask, string | boolean>('bcrypt', new URL('./bcrypt.worker.ts', import.meta.url), logger, {
    threads: options.threads,
    lazy: options.lazy,
    // About 1.5 s of work at cost 10 on two cores; past that, 503 with Retry-After.
    maxQueue: 64,
  });
  return {
    hash: async (password) => (await pool.run({ op: 'hash', password, cost: BCRYPT_COST })) as string,
    compare: async (password, hash) => (await pool.run({ op: 'compare', password, hash })) as boolean,
    stats: pool.stats,
    close: pool.close,
  };
}
