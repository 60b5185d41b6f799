// How common each tagged gram of the embedded search index is, as PostgreSQL's own statistics
// (ANALYZE, autovacuum) measured it: the share of documents holding each of the most common gram
// keys (pg_stats.most_common_elems of `gram_keys`); and about a thousand documents read at random
// beside them. The search reads both to tell a query matching a third of the documents from a
// rare one before choosing how to count its matches. Read again once older than `maxAgeMs`, in
// the background; a process with none yet waits for the first read.
import type { Db } from '../db/database.ts';

export interface GramStatistics {
  /** Share of documents holding the gram key (`gramKey`); 0 for one too rare to be listed. */
  frequency(key: number): number;
  /** Documents in the table when the statistics were last read (pg_class.reltuples). */
  readonly rows: number;
  /**
   * A date such that about `rows` documents (or more) are on it or later, from the histogram of
   * `date` (pg_stats.histogram_bounds, a hundredth of the documents a bucket); undefined when that
   * is every document or no histogram was read.
   */
  newestFrom(rows: number): string | undefined;
  /**
   * Documents read at random with the statistics (about SAMPLE_ROWS), their keys by field: what
   * the search estimates a query's matches from when the gram frequencies cannot say (words of
   * one query are not independent; a word too rare to be listed may still be in thousands).
   * Empty when the table was never analysed or the read failed.
   */
  readonly sample: readonly SampledDocument[];
}

/** A sampled document's keys, as the index stores them, and all of them joined by chr(1) (`keys`). */
export interface SampledDocument {
  keys: string;
  /** The typo skeletons of title, sources, venues and members (`typo_key`). */
  typo: string;
  title: string;
  source: string;
  venue: string;
  members: string;
  description: string;
  choseong: string;
}

/** Documents sampled: a share is known to about 1/SAMPLE_ROWS (a word costs 0.1–0.7 ms of the event loop to count in them). */
export const SAMPLE_ROWS = 1_000;

const EMPTY: GramStatistics = { frequency: () => 0, rows: 0, newestFrom: () => undefined, sample: [] };

/** `newestFrom` over histogram bounds, oldest first: bucket i holds the documents between bounds i and i + 1. */
function newestFrom(bounds: string[], tableRows: number, rows: number): string | undefined {
  const buckets = bounds.length - 1;
  if (buckets < 1 || tableRows <= 0) return undefined;
  // The newest `rows` fill ceil(rows / tableRows × buckets) buckets at the top; one more covers
  // the documents written since ANALYZE and a histogram that is only a sample's.
  const top = Math.ceil((rows / tableRows) * buckets) + 1;
  return top >= buckets ? undefined : bounds[buckets - top];
}

export class GramFrequencies {
  private current: { statistics: GramStatistics; readAt: number } | null = null;
  private reading: Promise<GramStatistics> | null = null;

  constructor(
    private readonly db: Db,
    private readonly maxAgeMs: number,
  ) {}

  /** The statistics: the last read while fresh, else a new read started (awaited only for the first). */
  async get(): Promise<GramStatistics> {
    if (this.current && Date.now() - this.current.readAt < this.maxAgeMs) return this.current.statistics;
    const reading = this.read();
    return this.current ? this.current.statistics : reading;
  }

  /** Forgets what was read (after a rebuild analysed the new rows). */
  invalidate(): void {
    this.current = null;
  }

  private read(): Promise<GramStatistics> {
    type Stats = { keys: number[] | null; frequencies: number[] | null; rows: number; dates: string[] | null };
    // The statistics, then the sample: whole table pages picked at random (TABLESAMPLE SYSTEM reads
    // only those), about SAMPLE_ROWS documents whatever the table's size (none before the table's
    // first ANALYZE), a document's keys joined by chr(1), which no key holds. One row a document:
    // aggregated into one array (660 KB of text on the benchmark's documents), the sample was parsed
    // in one call, 44-83 ms of CPU and a stall of the event loop up to 37 ms at every refresh; as
    // rows, 13-39 ms in pieces of at most 8.
    this.reading ??= this.db
      .multi<Stats | { keys: string; typo: string }>(
        `SELECT s.most_common_elems::text::int[] AS keys, s.most_common_elem_freqs AS frequencies, c.reltuples::float8 AS rows,
                (SELECT array_agg(to_char(d, 'YYYY-MM-DD') ORDER BY d) FROM unnest(h.histogram_bounds::text::date[]) d) AS dates
           FROM pg_class c
           LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = c.relname AND s.attname = 'gram_keys'
           LEFT JOIN pg_stats h ON h.schemaname = current_schema() AND h.tablename = c.relname AND h.attname = 'date'
          WHERE c.oid = 'search_documents'::regclass;
         SELECT concat_ws(chr(1), title_key, source_key, venue_key, members_key, description_key, choseong_key) AS keys, typo_key AS typo
           FROM search_documents TABLESAMPLE SYSTEM ((
             SELECT CASE WHEN reltuples > 0 THEN least(100, 100.0 * ${SAMPLE_ROWS} / reltuples) ELSE 0 END FROM pg_class WHERE oid = 'search_documents'::regclass))`,
      )
      .then((results) => {
        const stats = results[0]?.[0] as Stats | undefined;
        const sampled = (results[1] ?? []) as { keys: string; typo: string }[];
        const frequencies = new Map<number, number>();
        // The list of frequencies ends with three more numbers (minimum, maximum, null share).
        for (const [i, key] of (stats?.keys ?? []).entries()) frequencies.set(key, stats!.frequencies![i]!);
        const rows = Math.max(0, stats?.rows ?? 0);
        const dates = stats?.dates ?? [];
        const sample = sampled.map(({ keys, typo }): SampledDocument => {
          const [title = '', source = '', venue = '', members = '', description = '', choseong = ''] = keys.split('\u0001');
          return { keys, typo, title, source, venue, members, description, choseong };
        });
        const statistics: GramStatistics =
          frequencies.size > 0
            ? { frequency: (key) => frequencies.get(key) ?? 0, rows, newestFrom: (wanted) => newestFrom(dates, rows, wanted), sample }
            : EMPTY;
        this.current = { statistics, readAt: Date.now() };
        return statistics;
      })
      // A failed read leaves the last statistics in place (or none: every count then uses the bitmap).
      .catch(() => this.current?.statistics ?? EMPTY)
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }
}
