// Steps of a migration that SQL cannot express, run right after that migration's SQL in the same
// transaction: the Unicode rules of `normalizeQuery` exist only in JavaScript, so rewriting stored
// queries into its form is code.
import type { Queryable } from './database.ts';
import type { Logger } from '../runtime/logger.ts';
import { normalizeQuery } from '../korean/normalize.ts';
import { renormalizeStoredQueries } from './repositories/saved-searches.ts';

export const DATA_MIGRATIONS: Readonly<Record<string, (tx: Queryable, logger: Logger) => Promise<void>>> = {
  '027_normalized_queries.sql': async (tx, logger) => {
    const rewritten = await renormalizeStoredQueries(tx, normalizeQuery);
    logger.info(rewritten, 'stored queries rewritten into the normal form');
  },
  // The same step again: the stored form became the confusable skeleton of the normal form.
  '033_query_skeletons.sql': async (tx, logger) => {
    const rewritten = await renormalizeStoredQueries(tx, normalizeQuery);
    logger.info(rewritten, 'stored queries rewritten into their confusable skeletons');
  },
};
