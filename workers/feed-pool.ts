// The feed pool: calendar feeds are read, written, hashed and compressed in a worker thread
// (feed.worker.ts), so a feed of thousands of long events never holds the edge's event loop.
// One thread by default: feeds are few and cached; the bounded queue sheds a burst of distinct
// builds with 503 rather than letting them pile up. The thread starts with the first build and
// leaves after a minute without one: kept warm it held 33 MB of an idle process, and starting it
// took about 0.2 s once per quiet spell (both measured through tsx).
import { DATABASE_UNAVAILABLE } from '../shared/db/database.ts';
import { serviceUnavailable } from '../shared/errors.ts';
import type { Logger } from '../shared/runtime/logger.ts';
import type { BuiltFeed, FeedTask, FeedWorkerData } from './feed.worker.ts';
import { createWorkerPool, type PoolStats } from './pool.ts';

export interface FeedPool {
  build(task: FeedTask): Promise<BuiltFeed>;
  stats(): PoolStats;
  close(): Promise<void>;
}

/** Builds waiting for the thread, at most: past it 503 with Retry-After. */
const MAX_QUEUE = 16;

export function createFeedPool(databaseUrl: string, logger: Pick<Logger, 'error'>, options: Omit<FeedWorkerData, 'databaseUrl'> & { threads?: number; lazy?: boolean }): FeedPool {
  const workerData: FeedWorkerData = { databaseUrl, timeouts: options.timeouts, storageBaseUrl: options.storageBaseUrl };
  const pool = createWorkerPool<FeedTask, BuiltFeed>('feed', new URL('./feed.worker.ts', import.meta.url), logger, {
    threads: options.threads ?? 1,
    lazy: options.lazy ?? true,
    maxQueue: MAX_QUEUE,
    workerData,
  });
  return {
    build: (task) =>
      pool.run(task).catch((error: unknown) => {
        if (error instanceof Error && error.message.startsWith(DATABASE_UNAVAILABLE)) throw serviceUnavailable();
        throw error;
      }),
    stats: pool.stats,
    close: pool.close,
  };
}
