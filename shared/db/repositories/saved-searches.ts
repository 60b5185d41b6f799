// Saved searches (docs/security.md, "Saved searches"): one row per client address, normalised
// query and UTC day; at most a daily number of distinct queries per address; kept for a retention
// window; a query feeds popular searches and suggestions only once saved from enough networks
// (IPv4 /24, IPv6 /48: three addresses of one subnet are one voice); an administrator can block a
// query for good.
import type { Db, Queryable } from '../database.ts';

/** Saved searches an analysis thread's index holds after a build: the most saved that qualify. */
export const SAVED_IN_INDEX = 500;

export type SaveOutcome = { saved: true; id: number } | { saved: false; reason: 'repeat' | 'blocked' } | { saved: false; reason: 'limited'; retryAfterS: number };

const DAY_MS = 86_400_000;
const utcDay = (now: Date) => now.toISOString().slice(0, 10);
/** Seconds until the next UTC midnight, when an address's daily count starts again. */
const untilNextUtcDay = (now: Date) => Math.max(1, Math.ceil((DAY_MS - (now.getTime() % DAY_MS)) / 1000));

/**
 * Records one save of `query` by `client` on `now`'s UTC day. A query saved by the same address
 * that day, or blocked, adds nothing; a new query past `limitPerDay` distinct ones that day is
 * refused. The address's saves are serialised by an advisory lock, so concurrent saves cannot pass
 * the limit together.
 */
export async function saveSearch(db: Db, query: string, client: string, network: string, now: Date, limitPerDay: number): Promise<SaveOutcome> {
  const day = utcDay(now);
  return db.tx('save-search', async (tx) => {
    await tx.one("SELECT pg_advisory_xact_lock(hashtextextended('saved_searches:' || $1, 0)) IS NULL AS locked", [client]);
    const state = await tx.one<{ blocked: boolean; repeat: boolean; today: number }>(
      `SELECT EXISTS (SELECT 1 FROM blocked_searches WHERE query = $1) AS blocked,
              EXISTS (SELECT 1 FROM saved_searches WHERE query = $1 AND client = $2 AND saved_on = $3::date) AS repeat,
              (SELECT count(*)::int FROM saved_searches WHERE client = $2 AND saved_on = $3::date) AS today`,
      [query, client, day],
    );
    if (state.blocked) return { saved: false, reason: 'blocked' } as const;
    if (state.repeat) return { saved: false, reason: 'repeat' } as const;
    if (state.today >= limitPerDay) return { saved: false, reason: 'limited', retryAfterS: untilNextUtcDay(now) } as const;
    const row = await tx.oneOrNone<{ id: number }>(
      `INSERT INTO saved_searches (query, created_at, client, saved_on, network) VALUES ($1, $2, $3, $4::date, $5)
       ON CONFLICT (query, client, saved_on) DO NOTHING RETURNING id`,
      [query, now, client, day, network],
    );
    return row ? ({ saved: true, id: row.id } as const) : ({ saved: false, reason: 'repeat' } as const);
  });
}

/**
 * The queries most saved within the last `days`, each saved from at least `minNetworks`
 * distinct networks (rows from before addresses were recorded count as one network each).
 */
export function popularSearches(db: Queryable, now: Date, days: number, minNetworks: number, limit: number) {
  return db.any<{ query: string; count: number }>(
    `SELECT query, count(*)::int AS count FROM saved_searches s
      WHERE created_at > $1::timestamptz - $2 * interval '1 day'
        AND NOT EXISTS (SELECT 1 FROM blocked_searches b WHERE b.query = s.query)
      GROUP BY query HAVING count(DISTINCT coalesce(network, 'row:' || id)) >= $4
      ORDER BY count(*) DESC, max(created_at) DESC LIMIT $3`,
    [now, days, limit, minNetworks],
  );
}

/** Takes `query` out of popular searches and suggestions for good; true when it was not blocked before. */
export async function blockSearch(db: Db, query: string): Promise<{ blocked: boolean; blockedAt: Date; removed: number }> {
  return db.tx('block-search', async (tx) => {
    const removed = (await tx.result('DELETE FROM saved_searches WHERE query = $1', [query])).rowCount;
    const inserted = await tx.oneOrNone<{ blocked_at: Date }>('INSERT INTO blocked_searches (query) VALUES ($1) ON CONFLICT (query) DO NOTHING RETURNING blocked_at', [query]);
    const blockedAt = inserted?.blocked_at ?? (await tx.one<{ blocked_at: Date }>('SELECT blocked_at FROM blocked_searches WHERE query = $1', [query])).blocked_at;
    return { blocked: inserted !== null, blockedAt, removed };
  });
}

export function blockedSearches(db: Queryable, limit: number, offset: number) {
  return db.any<{ query: string; blockedAt: Date }>(
    'SELECT query, blocked_at AS "blockedAt" FROM blocked_searches ORDER BY blocked_at DESC, query LIMIT $1 OFFSET $2',
    [limit, offset],
  );
}

/** Deletes saved searches older than the retention window; returns how many. */
export async function pruneSavedSearches(db: Queryable, now: Date, retentionDays: number): Promise<number> {
  return (await db.result("DELETE FROM saved_searches WHERE created_at <= $1::timestamptz - $2 * interval '1 day'", [now, retentionDays])).rowCount;
}

export interface SuggestedSearch {
  query: string;
  count: number;
  last: Date;
}

export interface SuggestedSearchRules {
  retentionDays: number;
  minNetworks: number;
}

const SUGGESTED = `SELECT s.query, count(*)::int AS count, max(s.created_at) AS last FROM saved_searches s
  WHERE s.created_at > now() - $1 * interval '1 day'
    AND NOT EXISTS (SELECT 1 FROM blocked_searches b WHERE b.query = s.query)`;
const QUALIFIED = `GROUP BY s.query HAVING count(DISTINCT coalesce(s.network, 'row:' || s.id)) >= $2`;

/**
 * What the suggestion index holds of saved searches: the `limit` most saved queries within the
 * retention window that enough addresses saved and nobody blocked; with the newest saved id and
 * block time, from which `changedSuggestedSearches` and a later look continue.
 */
export async function suggestedSearches(db: Queryable, rules: SuggestedSearchRules, limit: number) {
  const [rows, marks] = await Promise.all([
    db.any<SuggestedSearch>(`${SUGGESTED} ${QUALIFIED} ORDER BY count(*) DESC, max(s.created_at) DESC LIMIT $3`, [rules.retentionDays, rules.minNetworks, limit]),
    db.one<{ last_id: number | null; blocked_at: Date | null }>('SELECT (SELECT max(id) FROM saved_searches) AS last_id, (SELECT max(blocked_at) FROM blocked_searches) AS blocked_at'),
  ]);
  return { rows, lastId: marks.last_id ?? 0, blockedAt: marks.blocked_at?.getTime() ?? 0 };
}

/** A query's new saves since the last look: `added` rows, the newest at `last`. */
export interface AddedSaves {
  query: string;
  added: number;
  last: Date;
}

/**
 * What the next `batch` saves after `afterId` change: for the queries in `known` (those the index
 * already holds or has passed over), how many of them each has, counted from those rows alone; for
 * any other query, its count over the window when it qualifies now. So a look costs the new rows
 * plus the rows of queries that did not qualify before (fewer than `minNetworks` networks, so a
 * bounded number), not every saved row of a popular query again. With the newest id looked at and
 * the newest block time.
 */
export async function changedSuggestedSearches(db: Queryable, rules: SuggestedSearchRules, afterId: number, batch: number, known: readonly string[]) {
  type Row = { max_id: number | null; blocked_at: Date | null; query: string | null; count: number | null; added: number | null; last: Date | null };
  const rows = await db.any<Row>(
    `WITH fresh AS MATERIALIZED (SELECT id, query, created_at FROM saved_searches WHERE id > $3 ORDER BY id LIMIT $4),
          marks AS (SELECT (SELECT max(id) FROM fresh) AS max_id, (SELECT max(blocked_at) FROM blocked_searches) AS blocked_at),
          added AS (SELECT query, NULL::int AS count, count(*)::int AS added, max(created_at) AS last FROM fresh WHERE query = ANY($5::text[]) GROUP BY query),
          newcomers AS (SELECT q.query, q.count, NULL::int AS added, q.last FROM (${SUGGESTED} AND s.query IN (SELECT query FROM fresh WHERE query <> ALL($5::text[])) ${QUALIFIED}) q)
     SELECT marks.max_id, marks.blocked_at, c.query, c.count, c.added, c.last FROM marks
       LEFT JOIN (SELECT * FROM added UNION ALL SELECT * FROM newcomers) c ON true`,
    [rules.retentionDays, rules.minNetworks, afterId, batch, known],
  );
  const first = rows[0];
  return {
    rows: rows.filter((row) => row.query !== null && row.count !== null) as SuggestedSearch[],
    added: rows.filter((row) => row.query !== null && row.added !== null) as AddedSaves[],
    lastId: first?.max_id ?? afterId,
    blockedAt: first?.blocked_at?.getTime() ?? 0,
  };
}

/**
 * Rewrites stored saved and blocked queries into the current `normalizeQuery` form: rows whose
 * text normalises to a query already stored merge into it (one row per address, query and day;
 * the earliest block time), rows that normalise to nothing or to a blocked query go. Run in the
 * migration that follows a change of the normalisation rules.
 */
export async function renormalizeStoredQueries(tx: Queryable, normalize: (query: string) => string): Promise<{ saved: number; blocked: number }> {
  const changed = (rows: { query: string }[]) => {
    const from: string[] = [];
    const to: string[] = [];
    for (const { query } of rows) {
      const normal = normalize(query);
      if (normal !== query) from.push(query), to.push(normal);
    }
    return { from, to };
  };
  const blocked = changed(await tx.any<{ query: string }>('SELECT query FROM blocked_searches'));
  await tx.none(
    `WITH moved AS (DELETE FROM blocked_searches b USING unnest($1::text[], $2::text[]) AS m(old, new) WHERE b.query = m.old RETURNING m.new, b.blocked_at)
     INSERT INTO blocked_searches (query, blocked_at) SELECT new, min(blocked_at) FROM moved WHERE new <> '' GROUP BY new
     ON CONFLICT (query) DO UPDATE SET blocked_at = least(blocked_searches.blocked_at, excluded.blocked_at)`,
    [blocked.from, blocked.to],
  );
  const saved = changed(await tx.any<{ query: string }>('SELECT DISTINCT query FROM saved_searches'));
  // A row whose new text the same address already saved that day is a repeat: it goes.
  await tx.none(
    `WITH m AS (SELECT * FROM unnest($1::text[], $2::text[]) AS m(old, new)),
          target AS (SELECT s.id, coalesce(m.new, s.query) AS new, s.client, s.saved_on, m.old IS NULL AS kept
                       FROM saved_searches s LEFT JOIN m ON s.query = m.old WHERE s.client IS NOT NULL),
          ranked AS (SELECT id, row_number() OVER (PARTITION BY new, client, saved_on ORDER BY kept DESC, id) AS rank FROM target)
     DELETE FROM saved_searches s USING ranked r WHERE s.id = r.id AND r.rank > 1`,
    [saved.from, saved.to],
  );
  await tx.none(
    `UPDATE saved_searches s SET query = m.new FROM unnest($1::text[], $2::text[]) AS m(old, new) WHERE s.query = m.old`,
    [saved.from, saved.to],
  );
  await tx.none(`DELETE FROM saved_searches s WHERE s.query = '' OR EXISTS (SELECT 1 FROM blocked_searches b WHERE b.query = s.query)`);
  return { saved: saved.from.length, blocked: blocked.from.length };
}
