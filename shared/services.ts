// What the roles share inside one process: built once by the composition root (app/service.ts).
import type { AnalysisPool } from '../workers/analysis-pool.ts';
import type { ImagePool } from '../workers/image-pool.ts';
import type { PasswordHasher } from '../workers/password-hasher.ts';
import type { BackgroundTasks } from './runtime/background.ts';
import type { Bus } from './bus/bus.ts';
import type { Clock } from './runtime/clock.ts';
import type { Config } from './runtime/config.ts';
import type { Db } from './db/database.ts';
import type { Logger } from './runtime/logger.ts';
import type { MonthlyCache } from './cache/monthly-cache.ts';
import type { SearchIndex } from './search/search-index.ts';
import type { Mailer } from './mail.ts';
import type { Readiness } from './runtime/readiness.ts';
import type { CalendarFeeds } from './schedules/calendar-feeds.ts';
import type { Storage } from './storage/storage.ts';
import type { Tokens } from './tokens.ts';

export interface Services {
  config: Config;
  db: Db;
  logger: Logger;
  clock: Clock;
  tokens: Tokens;
  passwords: PasswordHasher;
  mailer: Mailer;
  /** Delivers the durable mail queue (shared/mail-queue.ts); wake() after queueing a message. */
  mailQueue: { wake(): void };
  storage: Storage;
  background: BackgroundTasks;
  images: ImagePool;
  search: SearchIndex;
  monthlyCache: MonthlyCache;
  /** The calendar feeds' cache and builds (GET /api/schedules/calendar.ics). */
  feeds: CalendarFeeds;
  analysis: AnalysisPool;
  bus: Bus;
  /** What /readyz asks: parts that traffic depends on add a named check (`readiness.add(name, check)`). */
  readiness: Readiness;
  /** The live calendar of an edge replica (shared/live/live-hub.ts): wake() after a schedule write commits. */
  live?: { wake(): void };
  /** Set when the search engine must rebuild on a dictionary change (OpenSearch: nori user rules). */
  onDictionaryChanged?: (content: string) => Promise<void>;
}
