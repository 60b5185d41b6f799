// Learning from misses (docs/search.md, "Learning from misses"): every search that finds nothing, or
// finds something only by leaving words out, is counted by its normalised form, with nothing about
// who asked (no address, no user). A count decays by half a day, so the list is what fans miss now;
// administrators read the top at GET /api/admin/search/misses and fix one with a lexicon line, an
// alias or a translation. Recorded after the answer, off the caller's path: a failed write is a log
// line, never a failed search.
import type { Db, Queryable } from '../db/database.ts';
import { normalizeQuery } from '../korean/normalize.ts';
import type { Logger } from '../runtime/logger.ts';
import type { SearchDocument, SearchIndex, SearchPage } from './search-index.ts';
import { FailureStreak } from '../runtime/failure-streak.ts';

/** A count halves each day it is not added to. */
export const MISS_HALF_LIFE_DAYS = 1;
/** Characters of a query counted (longer queries are counted by their start). */
const MAX_MISS_CHARS = 200;
/** Miss counts written at once, at most. */
const MAX_COUNTS_IN_FLIGHT = 16;
/** Misses not seen for this long are deleted (their score is below a thousandth by then). */
const MISS_RETENTION_DAYS = 14;
/** The retention sweep runs at most this often, after a recorded miss. */
const SWEEP_EVERY_MS = 3_600_000;
/**
 * Rows kept at most: past it, the lowest decayed scores go first (a flood of distinct misses, each
 * counted once, pushes out the oldest single misses, never the ones fans repeat).
 */
export const MAX_MISS_ROWS = 10_000;
/** Misses recorded by one process between two trims to MAX_MISS_ROWS. */
const TRIM_EVERY_MISSES = 500;

const DAY_S = 86_400;
/** A row's score decayed from its `seen_at` to `at` (an SQL timestamp), in SQL; `row` qualifies the columns. */
const decayedScore = (at: string, row = '') =>
  `${row}score * power(0.5, GREATEST(0, extract(epoch FROM (${at} - ${row}seen_at))) / ${DAY_S * MISS_HALF_LIFE_DAYS})`;

export interface SearchMiss {
  query: string;
  /** The count decayed to now: each miss adds one, and the sum halves every day. */
  score: number;
  /** Every miss counted, never decayed. */
  count: number;
  /** Whether the last one found something by leaving words out (else it found nothing). */
  partial: boolean;
  firstSeen: string;
  lastSeen: string;
}

/** Counts one miss of a query at `at`; the stored score decays to `at` first. */
export async function recordMiss(db: Queryable, query: string, partial: boolean, at: Date): Promise<void> {
  const normal = normalizeQuery(query).slice(0, MAX_MISS_CHARS).trim();
  if (normal === '') return;
  await db.none(
    `INSERT INTO search_misses AS m (query, score, total, partial, first_seen, seen_at) VALUES ($1, 1, 1, $2, $3, $3)
     ON CONFLICT (query) DO UPDATE SET score = ${decayedScore('$3::timestamptz', 'm.')} + 1,
       total = m.total + 1, partial = EXCLUDED.partial, seen_at = GREATEST(m.seen_at, EXCLUDED.seen_at)`,
    [normal, partial, at],
  );
}

/** The misses with the highest decayed scores at `at`. */
export async function topMisses(db: Queryable, at: Date, limit: number, offset = 0): Promise<SearchMiss[]> {
  const rows = await db.any<{ query: string; score: number; total: string; partial: boolean; first_seen: Date; seen_at: Date }>(
    `SELECT query, ${decayedScore('$1::timestamptz')} AS score, total, partial, first_seen, seen_at
       FROM search_misses ORDER BY 2 DESC, seen_at DESC, query LIMIT $2 OFFSET $3`,
    [at, limit, offset],
  );
  return rows.map((row) => ({
    query: row.query,
    score: Math.round(row.score * 1000) / 1000,
    count: Number(row.total),
    partial: row.partial,
    firstSeen: row.first_seen.toISOString(),
    lastSeen: row.seen_at.toISOString(),
  }));
}

/** Deletes misses not seen for MISS_RETENTION_DAYS before `at`. */
export async function sweepMisses(db: Queryable, at: Date): Promise<number> {
  return (await db.result(`DELETE FROM search_misses WHERE seen_at < $1::timestamptz - make_interval(days => ${MISS_RETENTION_DAYS})`, [at])).rowCount;
}

/** Deletes the rows past the `keep` highest decayed scores at `at` (ties: the least recently seen go). */
export async function trimMisses(db: Queryable, at: Date, keep = MAX_MISS_ROWS): Promise<number> {
  return (
    await db.result(
      `DELETE FROM search_misses WHERE query IN (
         SELECT query FROM search_misses ORDER BY ${decayedScore('$1::timestamptz')} DESC, seen_at DESC, query OFFSET $2)`,
      [at, keep],
    )
  ).rowCount;
}

/** Whether a page is a miss: nothing found, or found only by leaving words out. */
export const isMiss = (page: SearchPage) => page.total === 0 || (page.ignoredWords?.length ?? 0) > 0;

/**
 * A search index that counts its misses: the first page of each search that misses (later pages
 * of the same search are not another miss). Sits under the results cache: a repeat answered from
 * the cache within its lifetime is not counted again.
 */
export class MissCountingSearchIndex implements SearchIndex {
  private sweptAt = Number.NEGATIVE_INFINITY;
  private inFlight = 0;
  private recorded = 0;
  /** A database away is one line when counting first fails and one when it works again, not one a miss. */
  private readonly failures: FailureStreak;

  constructor(
    readonly inner: SearchIndex,
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.failures = new FailureStreak(logger, 'counting search misses');
  }

  get engine() {
    return this.inner.engine;
  }

  async search(query: string, page: { offset: number; limit: number }): Promise<SearchPage> {
    const result = await this.inner.search(query, page);
    if (page.offset === 0 && isMiss(result)) this.countMiss(query, result.total > 0);
    return result;
  }

  private countMiss(query: string, partial: boolean): void {
    // A count is a statistic: past a few in flight (a slow or frozen database, a flood of misses)
    // it is dropped rather than queued behind the searches themselves.
    if (this.inFlight >= MAX_COUNTS_IN_FLIGHT) return;
    const at = new Date(this.now());
    const sweep = at.getTime() - this.sweptAt >= SWEEP_EVERY_MS;
    if (sweep) this.sweptAt = at.getTime();
    const trim = sweep || ++this.recorded % TRIM_EVERY_MISSES === 0;
    this.inFlight++;
    recordMiss(this.db, query, partial, at)
      .then(() => (sweep ? sweepMisses(this.db, at) : 0))
      .then(() => (trim ? trimMisses(this.db, at) : 0))
      .then(() => this.failures.succeeded(), (error: unknown) => this.failures.failed(error))
      .finally(() => this.inFlight--);
  }

  upsert(documents: SearchDocument[]): Promise<void> {
    return this.inner.upsert(documents);
  }

  remove(scheduleIds: number[]): Promise<void> {
    return this.inner.remove(scheduleIds);
  }

  rebuild(documents: SearchDocument[]): Promise<number> {
    return this.inner.rebuild(documents);
  }

  count(): Promise<number> {
    return this.inner.count();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
