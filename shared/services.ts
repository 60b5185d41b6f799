// What the roles share inside one process: built once by the composition root (shared/service.ts).
import type { AnalysisPool } from '../workers/analysis-pool.ts';
import type { ImagePool } from '../workers/image-pool.ts';
import type { PasswordHasher } from '../workers/password-hasher.ts';
import type { BackgroundTasks } from './background.ts';
import type { Bus } from './bus/bus.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Logger } from './logger.ts';
import type { MonthlyCache } from './cache/monthly-cache.ts';
import type { SearchIndex } from './search/search-index.ts';
import type { Mailer } from './mail.ts';
import type { Readiness } from './readiness.ts';
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
  storage: Storage;
  background: BackgroundTasks;
  images: ImagePool;
  search: SearchIndex;
  monthlyCache: MonthlyCache;
  analysis: AnalysisPool;
  bus: Bus;
  /** What /readyz asks: parts that traffic depends on add a named check (`readiness.add(name, check)`). */
  readiness: Readiness;
  /** Set when the search engine must rebuild on a dictionary change (OpenSearch: nori user rules). */
  onDictionaryChanged?: (content: string) => Promise<void>;
}
