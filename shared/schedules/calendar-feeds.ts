// The calendar feeds of one process: the byte-bounded cache, the names a filter may use, and a
// build (rows read and text made in the feed pool). The route charges the client only when a
// request starts a build: a cached feed, or one already being built, costs nothing.
import { FeedCache, type FeedCacheStats, type FeedEntry } from '../cache/feed-cache.ts';
import type { MonthlyCache } from '../cache/monthly-cache.ts';
import type { Queryable } from '../db/database.ts';
import { feedMemberNames } from '../db/repositories/calendar-feed.ts';
import type { Logger } from '../runtime/logger.ts';
import type { FeedPool } from '../../workers/feed-pool.ts';
import { categoriesLoader } from './calendar.ts';
import { birthdayCategoryName, feedFilterKey, type FeedFilter, type FeedNames, type FeedWindow } from './calendar-feed.ts';
import { FEED_LIMITS, type FeedIdentity } from './calendar-feed-render.ts';

export interface CalendarFeedsOptions {
  db: Queryable;
  monthlyCache: MonthlyCache;
  pool: FeedPool;
  logger: Pick<Logger, 'warn'>;
  identity: FeedIdentity;
  /** FEED_CACHE_MB in bytes. */
  cacheBytes: number;
}

export class CalendarFeeds {
  private readonly cache: FeedCache;
  private readonly categories: ReturnType<typeof categoriesLoader>;
  private members: { generation: number; names: Promise<FeedNames['members']> } | null = null;

  constructor(private readonly options: CalendarFeedsOptions) {
    this.cache = new FeedCache(options.monthlyCache, options.cacheBytes);
    this.categories = categoriesLoader(options.db, () => this.generation());
  }

  /** Moves on every member or category write (the month cache's generation). */
  generation(): number {
    return this.options.monthlyCache.version(0, 0);
  }

  /** Every member and category, read once per generation (a failed read is tried again next time). */
  async names(): Promise<FeedNames> {
    const generation = this.generation();
    if (this.members?.generation !== generation) {
      const names = feedMemberNames(this.options.db);
      const loading = { generation, names };
      this.members = loading;
      names.catch(() => {
        if (this.members === loading) this.members = null;
      });
    }
    const [members, categories] = await Promise.all([this.members.names, this.categories()]);
    return { members, categories };
  }

  cached(filter: FeedFilter, window: FeedWindow): FeedEntry | null {
    return this.cache.get(feedFilterKey(filter), window);
  }

  /** The feed, built unless a build of it is under way; `starting` runs (and may refuse) only when this call starts one. */
  build(names: FeedNames, filter: FeedFilter, window: FeedWindow, starting: () => void): Promise<FeedEntry> {
    return this.cache.fill(feedFilterKey(filter), window, async () => {
      const task = { filter, window: { from: window.from, to: window.to }, birthdayCategory: birthdayCategoryName(names), identity: this.options.identity };
      const { entry, truncated } = await this.options.pool.build(task);
      if (truncated) this.options.logger.warn({ filter, limit: FEED_LIMITS.schedules }, 'calendar feed cut: the window holds more schedules than a feed carries');
      return entry;
    }, starting);
  }

  stats(): FeedCacheStats {
    return this.cache.stats();
  }
}
