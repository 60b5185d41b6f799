// The live calendar's change log (docs/live.md, "Sequence"): one row per change, written in the
// schedule write's own transaction, read by every edge replica, pruned by the actors role.
//
// Why a lock: a sequence value is taken at insert, but transactions commit in any order. A reader
// that saw seq 7 and resumes "after 7" would miss a seq 6 that committed after it. Each writer
// takes one transaction-level advisory lock before its rows take their seq, and holds it to its
// commit, so seqs become visible in order: once seq N is visible, every smaller seq is visible
// or was rolled back. The lock is the last thing a write takes (its rows and outbox entry come
// just before COMMIT), so writers queue only for that tail.
import type { Queryable, Writer } from '../db/database.ts';
import { ITEM_SELECT, type ItemRow } from '../db/repositories/schedules.ts';

/** Advisory lock ordering the change log's writers (the migrator holds 7_281_001, the outbox relay 7_281_006). */
const LIVE_LOCK = 7_281_026;

export type LiveKind = 'created' | 'updated' | 'deleted' | 'reset' | 'birthday';

/** A member's birthday as the listing shows it: only current members with a birth date have one. */
export interface BirthdayState {
  name: string;
  birthDate: string;
}

export interface BirthdayChange {
  memberId: number;
  before: BirthdayState | null;
  after: BirthdayState | null;
}

export interface LiveRow {
  seq: number;
  kind: LiveKind;
  /** The schedule's id; a birthday: the member's; a reset: 0. */
  targetId: number;
  /** 'YYYY-MM' months the change touches (empty for reset and birthday rows). */
  months: string[];
  /** created/updated: the listing row at the write; birthday: a BirthdayChange; otherwise null. */
  item: ItemRow | BirthdayChange | null;
  /** Milliseconds since the epoch, taken under the lock just before the commit. */
  writtenAt: number;
}

export interface LiveEntry {
  kind: LiveKind;
  targetId: number;
  months: string[];
  /** Only for birthday rows; created and updated rows take their listing row from the database. */
  item?: BirthdayChange;
}

// The listing row is read in the same statement, after the write's own statements, so it is the
// row as committed. `change` and not `c`: ITEM_SELECT names the categories `c`.
const APPEND = `
  WITH lock AS MATERIALIZED (SELECT pg_advisory_xact_lock(${LIVE_LOCK}) AS held)
  INSERT INTO live_changes (kind, target_id, months, item)
  SELECT change.kind, change.target_id, change.months,
         CASE WHEN change.kind IN ('created', 'updated')
              THEN (SELECT to_jsonb(listed) FROM (${ITEM_SELECT} WHERE s.id = change.target_id) AS listed)
              ELSE change.item END
    FROM (SELECT entry.* FROM lock, ROWS FROM (jsonb_to_recordset($1::jsonb) AS (kind text, target_id int, months text[], item jsonb)) WITH ORDINALITY AS entry(kind, target_id, months, item, n)
           ORDER BY entry.n) AS change`;

// What an administrator changed or deleted stops being readable from the log: after a schedule's
// update or delete, its earlier rows carry its newest listing row, or become a tombstone (a
// `deleted` row without item). Their seqs and months stay, so a subscriber resuming from before
// still hears of every month the schedule left and ends with exactly the current listing. Run after
// the append, still under the change-log lock, so it sees the rows just written.
const FORGET = `
  WITH latest AS (
    SELECT DISTINCT ON (target_id) target_id, seq, kind, item FROM live_changes
     WHERE target_id = ANY($1::int[]) AND kind IN ('created', 'updated', 'deleted')
     ORDER BY target_id, seq DESC)
  UPDATE live_changes old
     SET kind = CASE WHEN latest.kind = 'deleted' THEN 'deleted' ELSE old.kind END,
         item = CASE WHEN latest.kind = 'deleted' THEN NULL ELSE latest.item END
    FROM latest
   WHERE old.target_id = latest.target_id AND old.seq < latest.seq AND old.kind IN ('created', 'updated')`;

/** Appends the entries in order, in the caller's transaction (a WriteBatch too: it reads nothing back). */
export async function appendLiveChanges(tx: Writer, entries: LiveEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((entry) => ({ kind: entry.kind, target_id: entry.targetId, months: entry.months, item: entry.item ?? null }));
  await tx.none(APPEND, [JSON.stringify(rows)]);
  const changed = [...new Set(entries.filter((entry) => entry.kind === 'updated' || entry.kind === 'deleted').map((entry) => entry.targetId))];
  if (changed.length > 0) await tx.none(FORGET, [changed]);
}

/** An earlier row of a schedule as FORGET leaves it once `latest` (its newer update or delete) is written. */
export function compactedRow(row: LiveRow, latest: LiveRow): LiveRow {
  return latest.kind === 'deleted' ? { ...row, kind: 'deleted', item: null } : { ...row, item: latest.item };
}

interface StoredRow {
  seq: number;
  kind: LiveKind;
  target_id: number;
  months: string[];
  item: LiveRow['item'];
  written_ms: number;
}

const toRow = (row: StoredRow): LiveRow => ({ seq: row.seq, kind: row.kind, targetId: row.target_id, months: row.months, item: row.item, writtenAt: row.written_ms });

const COLUMNS = 'seq, kind, target_id, months, item, (extract(epoch FROM written_at) * 1000)::float8 AS written_ms';

/** Rows after `after`, in order, at most `limit`: what a replica has not fanned out yet. */
export async function changesAfter(db: Queryable, after: number, limit: number): Promise<LiveRow[]> {
  const rows = await db.any<StoredRow>(`SELECT ${COLUMNS} FROM live_changes WHERE seq > $1 ORDER BY seq LIMIT $2`, [after, limit]);
  return rows.map(toRow);
}

export interface ReplayPage {
  rows: LiveRow[];
  /** The highest seq retention deleted, read in the same statement as the rows. */
  prunedThrough: number;
}

/**
 * A subscriber's missed rows in (after, through], only those touching `months` (and every reset
 * and birthday row, which touch every year). One statement: the pruning mark and the rows are one
 * snapshot, so a page is never silently short.
 */
export async function replayPage(db: Queryable, after: number, through: number, months: string[], limit: number): Promise<ReplayPage> {
  const rows = await db.any<StoredRow & { pruned_through: number }>(
    `SELECT ${COLUMNS}, p.through AS pruned_through
       FROM live_changes_pruned p
       LEFT JOIN LATERAL (SELECT * FROM live_changes
                           WHERE seq > $1 AND seq <= $2 AND (months && $3::text[] OR kind IN ('reset', 'birthday'))
                           ORDER BY seq LIMIT $4) c ON true
      ORDER BY seq`,
    [after, through, months, limit],
  );
  const prunedThrough = rows[0]?.pruned_through ?? 0;
  return { rows: rows.filter((row) => row.seq !== null).map(toRow), prunedThrough };
}

/** The newest seq written (0 when none) and the retention mark. */
export async function logBounds(db: Queryable): Promise<{ latest: number; prunedThrough: number }> {
  return db.one<{ latest: number; prunedThrough: number }>(
    'SELECT COALESCE((SELECT max(seq) FROM live_changes), p.through) AS latest, p.through AS "prunedThrough" FROM live_changes_pruned p',
  );
}

export interface Retention {
  /** Rows younger than this are kept. */
  hours: number;
  /** The newest this many rows are kept, however old. */
  changes: number;
}

/**
 * Deletes rows that are both older than the window and outside the newest `changes` rows; the
 * mark moves to the highest deleted seq in the same transaction. Returns the rows deleted.
 */
export async function pruneChangeLog(db: Queryable, retention: Retention): Promise<number> {
  return db.tx('live-prune', async (tx) => {
    // Both bounds, not LEAST alone: LEAST skips a NULL, and no row older than the window must mean no deletion.
    const { byCount, byAge } = await tx.one<{ byCount: number | null; byAge: number | null }>(
      `SELECT (SELECT max(seq) FROM live_changes) - $2 AS "byCount",
              (SELECT max(seq) FROM live_changes WHERE written_at < clock_timestamp() - $1 * interval '1 hour') AS "byAge"`,
      [retention.hours, retention.changes],
    );
    const cutoff = byCount === null || byAge === null ? null : Math.min(byCount, byAge);
    if (cutoff === null || cutoff <= 0) return 0;
    const deleted = await tx.result('DELETE FROM live_changes WHERE seq <= $1', [cutoff]);
    await tx.none('UPDATE live_changes_pruned SET through = GREATEST(through, $1)', [cutoff]);
    return deleted.rowCount;
  });
}
