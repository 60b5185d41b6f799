// Picks the search engine: embedded in PostgreSQL by default, OpenSearch when OPENSEARCH_URL is set.
import type { Db } from '../db/database.ts';
import type { Logger } from '../runtime/logger.ts';
import { loadAllSearchDocuments } from './documents.ts';
import { EmbeddedSearchIndex, type QueryAnalyzer } from './embedded.ts';
import type { SearchIndex } from './search-index.ts';
import { MissCountingSearchIndex } from './search-misses.ts';
import { storedSynonyms, type NearWords } from './synonym-source.ts';

export interface SearchIndexOptions {
  db: Db;
  /** From OPENSEARCH_URL; null selects the embedded engine. */
  opensearchUrl: string | null;
  /** From OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD: sent as HTTP basic authentication. */
  opensearchAuth?: { username: string; password: string } | null;
  logger: Logger;
  /** Query words (particles stripped, unspaced input split); both engines use the same words. */
  analyze?: QueryAnalyzer;
  /** The user dictionary's content, read at every OpenSearch rebuild (default: the `user_dictionary` row). */
  userDictionary?: () => Promise<string>;
  /** The OpenSearch alias; versioned indices are `<alias>-v<timestamp>` (default `schedules`). */
  opensearchAlias?: string;
  /** The service's clock: misses are counted and decayed by it (default: the system time). */
  now?: () => number;
  /** What a query's Latin words are among the titles' (the analysis pool's `nearWords`); without it no title word corrects a slip. */
  nearWords?: NearWords;
}

export const DEFAULT_OPENSEARCH_ALIAS = 'schedules';

export function storedUserDictionary(db: Db): () => Promise<string> {
  return async () => (await db.oneOrNone<{ content: string }>('SELECT content FROM user_dictionary WHERE id = 1'))?.content ?? '';
}

/**
 * The index the service searches. For OpenSearch the alias is ensured first: when it is missing,
 * or its index was built with another user dictionary or document format, a new index is built
 * from the schedules. The embedded index is rebuilt when rows of an older format remain.
 */
export async function createSearchIndex(options: SearchIndexOptions): Promise<SearchIndex> {
  if (options.opensearchUrl === null) {
    const index = new EmbeddedSearchIndex(options.db, options.analyze, storedSynonyms(options.db, options.now, options.nearWords));
    // Rows written before the index's current format (a migration added keys) are rebuilt once.
    if (await index.ensureCurrentFormat(() => loadAllSearchDocuments(options.db))) options.logger.info('search index rebuilt in its current format');
    return new MissCountingSearchIndex(index, options.db, options.logger, options.now);
  }
  const { Client } = await import('@opensearch-project/opensearch');
  const { OpenSearchSearchIndex } = await import('./opensearch.ts');
  const client = new Client({ node: options.opensearchUrl, ...(options.opensearchAuth ? { auth: { ...options.opensearchAuth } } : {}) });
  const index = new OpenSearchSearchIndex({
    client,
    alias: options.opensearchAlias ?? DEFAULT_OPENSEARCH_ALIAS,
    logger: options.logger,
    userDictionary: options.userDictionary ?? storedUserDictionary(options.db),
    ...(options.analyze ? { analyze: options.analyze } : {}),
    synonyms: storedSynonyms(options.db, options.now, options.nearWords),
  });
  try {
    await index.ensure(() => loadAllSearchDocuments(options.db));
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return new MissCountingSearchIndex(index, options.db, options.logger, options.now);
}
