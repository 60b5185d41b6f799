// The analysis pool behind a small interface: suggestions, query tokens and dictionary parsing run
// in worker threads; this side only tracks the versions a thread must have caught up with.
import type { ParsedDictionary } from '../shared/korean/dictionary.ts';
import type { Logger } from '../shared/runtime/logger.ts';
import type { AnalysisTask, AnalysisVersions } from './analysis.worker.ts';
import { createWorkerPool, type PoolStats } from './pool.ts';

export interface AnalysisPool {
  suggest(query: string, limit: number): Promise<string[]>;
  tokens(text: string): Promise<string[]>;
  parseDictionary(content: string): Promise<ParsedDictionary>;
  /** Tell the pool what this process just wrote, so the next task sees it. */
  dictionaryChanged(updatedAtMs: number): void;
  searchSaved(id: number): void;
  schedulesChanged(): void;
  stats(): PoolStats;
  close(): Promise<void>;
}

export function createAnalysisPool(databaseUrl: string, logger: Logger, options: { threads?: number; lazy?: boolean } = {}): AnalysisPool {
  const pool = createWorkerPool<AnalysisTask, string[] | ParsedDictionary>('analysis', new URL('./analysis.worker.ts', import.meta.url), logger, {
    threads: options.threads,
    lazy: options.lazy,
    workerData: { databaseUrl },
  });
  const versions: AnalysisVersions = { dictionary: 0, savedSearch: 0, schedules: 0 };
  return {
    suggest: async (query, limit) => (await pool.run({ op: 'suggest', query, limit, versions: { ...versions } })) as string[],
    tokens: async (text) => (await pool.run({ op: 'tokens', text, versions: { ...versions } })) as string[],
    parseDictionary: async (content) => (await pool.run({ op: 'parseDictionary', content })) as ParsedDictionary,
    dictionaryChanged: (updatedAtMs) => {
      versions.dictionary = Math.max(versions.dictionary, updatedAtMs);
    },
    searchSaved: (id) => {
      versions.savedSearch = Math.max(versions.savedSearch, id);
    },
    schedulesChanged: () => {
      versions.schedules = Date.now();
    },
    stats: pool.stats,
    close: pool.close,
  };
}
