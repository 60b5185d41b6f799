// The feed pool: calendar feeds are written, hashed and compressed in a worker thread
// (feed.worker.ts), so a feed of thousands of long events never holds the edge's event loop.
// One thread by default: feeds are few and cached; the bounded queue sheds a burst of distinct
// builds with 503 rather than letting them pile up.
import type { FeedEntry } from '../shared/cache/feed-cache.ts';
import type { Logger } from '../shared/runtime/logger.ts';
import type { FeedTask } from './feed.worker.ts';
import { createWorkerPool, type PoolStats } from './pool.ts';

export interface FeedPool {
  render(task: FeedTask): Promise<FeedEntry>;
  stats(): PoolStats;
  close(): Promise<void>;
}

/** Builds waiting for the thread, at most: past it 503 with Retry-After. */
const MAX_QUEUE = 16;

export function createFeedPool(logger: Pick<Logger, 'error'>, options: { threads?: number; lazy?: boolean } = {}): FeedPool {
  const pool = createWorkerPool<FeedTask, FeedEntry>('feed', new URL('./feed.worker.ts', import.meta.url), logger, {
    threads: options.threads ?? 1,
    lazy: options.lazy,
    maxQueue: MAX_QUEUE,
  });
  return { render: (task) => pool.run(task), stats: pool.stats, close: pool.close };
}
