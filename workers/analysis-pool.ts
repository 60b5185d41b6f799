// The analysis pool behind a small interface: suggestions, query tokens and dictionary parsing run
// in worker threads; this side only tracks the versions a thread must have caught up with.
import { DATABASE_UNAVAILABLE } from '../shared/db/database.ts';
import { serviceUnavailable } from '../shared/errors.ts';
import type { SuggestedSearchRules } from '../shared/db/repositories/saved-searches.ts';
import type { ParsedDictionary } from '../shared/korean/dictionary.ts';
import type { Logger } from '../shared/runtime/logger.ts';
import type { AnalysisTask, AnalysisVersions, AnalysisWorkerData } from './analysis.worker.ts';
import { createWorkerPool, type PoolStats } from './pool.ts';

export interface AnalysisPool {
  suggest(query: string, limit: number): Promise<string[]>;
  /** The suggestions of a recent identical request, while nothing they depend on changed here; undefined otherwise. */
  cachedSuggestions(query: string, limit: number): string[] | undefined;
  tokens(text: string): Promise<string[]>;
  /** Per word, what it is among the titles' Latin words: itself when a title holds it, else the words one edit from it. */
  nearWords(words: string[]): Promise<string[][]>;
  parseDictionary(content: string): Promise<ParsedDictionary>;
  /** Tell the pool what this process just wrote, so the next task sees it. */
  dictionaryChanged(updatedAtMs: number): void;
  searchSaved(id: number): void;
  /** A query was blocked at `blockedAtMs` (blocked_searches.blocked_at): the next task rebuilds without it. */
  searchBlocked(blockedAtMs: number): void;
  schedulesChanged(): void;
  stats(): PoolStats;
  close(): Promise<void>;
}

export interface AnalysisPoolOptions {
  threads?: number;
  lazy?: boolean;
  /** The database bounds of the worker's own connection (the edge's: DATABASE_*_TIMEOUT_MS). */
  timeouts?: AnalysisWorkerData['timeouts'];
  savedSearches?: SuggestedSearchRules;
}

const SUGGESTION_TTL_MS = 5_000;
const SUGGESTION_CACHE_ENTRIES = 5_000;

/** Defaults of the configuration (shared/runtime/config.ts), for benchmarks and tests that build a pool alone. */
const DEFAULT_TIMEOUTS = { connectMs: 5_000, queryMs: 5_000 };
const DEFAULT_SAVED_SEARCHES: SuggestedSearchRules = { retentionDays: 30, minNetworks: 3 };

export function createAnalysisPool(databaseUrl: string, logger: Logger, options: AnalysisPoolOptions = {}): AnalysisPool {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const workerData: AnalysisWorkerData = { databaseUrl, timeouts, savedSearches: options.savedSearches ?? DEFAULT_SAVED_SEARCHES };
  const pool = createWorkerPool<AnalysisTask, string[] | string[][] | ParsedDictionary>('analysis', new URL('./analysis.worker.ts', import.meta.url), logger, {
    threads: options.threads,
    lazy: options.lazy,
    workerData,
  });
  // A task's deadline: a thread building its index waits at most for a connection and a few
  // queries; past this the caller answers 503 and the thread's own timeouts end its work.
  const deadlineMs = timeouts.connectMs + timeouts.queryMs + 1_000;
  const run = async (task: AnalysisTask) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        pool.run(task),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(serviceUnavailable()), deadlineMs))),
      ]);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith(DATABASE_UNAVAILABLE)) throw serviceUnavailable();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
  const versions: AnalysisVersions = { dictionary: 0, savedSearch: 0, schedules: 0, blocked: 0 };
  // Fans type the same names: the first keystrokes of 프로미스나인 are asked over and over. A recent
  // answer is reused for SUGGESTION_TTL_MS unless the dictionary, a schedule or a block changed
  // here (a new save only moves popularity, and waits for the TTL).
  const recent = new Map<string, { suggestions: string[]; at: number; generation: number }>();
  let generation = 0;
  const changed = () => {
    generation++;
    recent.clear();
  };
  const recentKey = (query: string, limit: number) => `${limit}:${query}`;
  return {
    suggest: async (query, limit) => {
      const started = generation;
      const suggestions = (await run({ op: 'suggest', query, limit, versions: { ...versions } })) as string[];
      if (started === generation) {
        recent.set(recentKey(query, limit), { suggestions, at: Date.now(), generation });
        if (recent.size > SUGGESTION_CACHE_ENTRIES) recent.delete(recent.keys().next().value!);
      }
      return suggestions;
    },
    cachedSuggestions: (query, limit) => {
      const hit = recent.get(recentKey(query, limit));
      return hit && Date.now() - hit.at < SUGGESTION_TTL_MS ? hit.suggestions : undefined;
    },
    tokens: async (text) => (await run({ op: 'tokens', text, versions: { ...versions } })) as string[],
    nearWords: async (words) => (await run({ op: 'nearWords', words, versions: { ...versions } })) as string[][],
    parseDictionary: async (content) => (await run({ op: 'parseDictionary', content })) as ParsedDictionary,
    dictionaryChanged: (updatedAtMs) => {
      versions.dictionary = Math.max(versions.dictionary, updatedAtMs);
      changed();
    },
    searchSaved: (id) => {
      versions.savedSearch = Math.max(versions.savedSearch, id);
    },
    searchBlocked: (blockedAtMs) => {
      versions.blocked = Math.max(versions.blocked, blockedAtMs);
      changed();
    },
    schedulesChanged: () => {
      versions.schedules = Date.now();
      changed();
    },
    stats: pool.stats,
    close: pool.close,
  };
}
