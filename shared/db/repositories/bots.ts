// Bots, the quota warning and the platform records they fill (decisions.md "Bots and platform
// records"). Times come from the caller's clock so that tests can move them.
import type { BotDefinition, MicroblogSettings, VideoSettings } from '../../../schemas/bots.ts';
import type { MemberNames } from '../../video/video-rules.ts';
import { appendOutbox } from '../../bus/outbox.ts';
import type { Queryable } from '../database.ts';

export type BotStatus = 'running' | 'stopped' | 'error';

/** Channel the runner LISTENs on: start and stop notify it so it does not wait for its next poll. */
export const BOTS_CHANNEL = 'bots';

export type BotRecord =
  | { id: string; name: string; type: 'video'; intervalMinutes: number; config: VideoSettings; status: BotStatus; seenUntil: Date | null }
  | { id: string; name: string; type: 'microblog'; intervalMinutes: number; config: MicroblogSettings; status: BotStatus; seenUntil: Date | null };

export interface BotListItem {
  id: string;
  name: string;
  type: 'video' | 'microblog';
  status: BotStatus;
  intervalMinutes: number;
  lastCheckAt: string | null;
  lastAddedCount: number;
  scheduleCount: number;
  errorMessage: string | null;
  nextRunAt: string | null;
  config: VideoSettings | MicroblogSettings;
  /** The pass running now (null when none). */
  progress: BotProgress | null;
}

/** Where a running pass is: walking the source's pages, or handing new items to the writer. */
export interface BotProgress {
  phase: 'listing' | 'collecting';
  /** Pages of the source read so far. */
  pages: number;
  /** Items seen that pass the bot's filter. */
  seen: number;
  /** Items never collected before, handed to the schedule writer so far. */
  added: number;
}

/** A pass updates its progress at least this often; an older one belongs to a pass whose process died. */
const PROGRESS_STALE = "interval '10 minutes'";

const RECORD_SELECT = `SELECT id, name, type, interval_minutes AS "intervalMinutes", config, status, seen_until AS "seenUntil" FROM bots`;

/**
 * Makes the table match BOTS_CONFIG: new bots inserted (stopped), the definition of existing ones
 * updated with their state kept, bots no longer in the file removed.
 */
export async function syncBotDefinitions(db: Queryable, definitions: readonly BotDefinition[]): Promise<{ inserted: number; removed: number }> {
  return db.tx('bots-sync', async (tx) => {
    let inserted = 0;
    for (const bot of definitions) {
      const row = await tx.one<{ inserted: boolean }>(
        `INSERT INTO bots (id, name, type, interval_minutes, config) VALUES ($1, $2, $3, $4, $5::jsonb)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, type = EXCLUDED.type, interval_minutes = EXCLUDED.interval_minutes,
           config = EXCLUDED.config,
           -- A new source makes the old cursor meaningless.
           seen_until = CASE WHEN bots.type = EXCLUDED.type AND bots.config = EXCLUDED.config THEN bots.seen_until END,
           updated_at = now()
         RETURNING (xmax = 0) AS inserted`,
        [bot.id, bot.name, bot.type, bot.intervalMinutes, JSON.stringify(bot.config)],
      );
      if (row.inserted) inserted++;
    }
    const removed = await tx.result('DELETE FROM bots WHERE NOT (id = ANY($1::text[]))', [definitions.map((bot) => bot.id)]);
    return { inserted, removed: removed.rowCount };
  });
}

export async function listBots(db: Queryable): Promise<BotListItem[]> {
  return db.any<BotListItem>(
    `SELECT b.id, b.name, b.type, b.status, b.interval_minutes AS "intervalMinutes",
            to_char(b.last_check_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastCheckAt",
            b.last_added_count AS "lastAddedCount",
            CASE b.type
              WHEN 'video' THEN (SELECT count(*)::int FROM video_schedules v WHERE v.channel_id = b.config->>'channelId')
              ELSE (SELECT count(*)::int FROM post_schedules p WHERE lower(p.username) = lower(b.config->>'username'))
            END AS "scheduleCount",
            b.error_message AS "errorMessage",
            to_char(b.next_run_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "nextRunAt",
            b.config,
            CASE WHEN b.progress_at > now() - ${PROGRESS_STALE} THEN b.progress END AS progress
       FROM bots b ORDER BY b.id`,
  );
}

export const botById = (db: Queryable, id: string) => db.oneOrNone<BotRecord>(`${RECORD_SELECT} WHERE id = $1`, [id]);

/**
 * The administrator's start or stop: the state is written here and the runner, wherever it runs,
 * follows it. Starting clears the error and makes the bot due at once. Null for an unknown bot.
 */
export async function setBotStatus(db: Queryable, id: string, status: 'running' | 'stopped', now: Date): Promise<{ name: string; status: BotStatus } | null> {
  return db.tx('bot-status', async (tx) => {
    const row = await tx.oneOrNone<{ name: string; status: BotStatus }>(
      status === 'running'
        ? `UPDATE bots SET status = 'running', error_message = NULL, error_count = 0, next_run_at = $2, updated_at = $2 WHERE id = $1 RETURNING name, status`
        : `UPDATE bots SET status = 'stopped', next_run_at = NULL, updated_at = $2 WHERE id = $1 RETURNING name, status`,
      [id, now],
    );
    if (row) await tx.one('SELECT pg_notify($1, $2)', [BOTS_CHANNEL, id]);
    return row;
  });
}

/** Bots that should run now: started (running, or retrying after an error) and due. */
export const dueBots = (db: Queryable, now: Date) =>
  db.any<BotRecord>(`${RECORD_SELECT} WHERE status IN ('running', 'error') AND (next_run_at IS NULL OR next_run_at <= $1) ORDER BY next_run_at NULLS FIRST, id`, [now]);

/** A pass that finished: the error is cleared (a stopped bot stays stopped), the next run scheduled. */
export async function recordBotSuccess(db: Queryable, id: string, result: { added: number; now: Date; nextRunAt: Date; seenUntil: Date | null }): Promise<void> {
  await db.none(
    `UPDATE bots SET status = CASE WHEN status = 'stopped' THEN 'stopped' ELSE 'running' END,
            error_message = NULL, error_count = 0, last_check_at = $2, last_added_count = $3,
            next_run_at = CASE WHEN status = 'stopped' THEN NULL ELSE $4::timestamptz END,
            seen_until = GREATEST(seen_until, $5::timestamptz), updated_at = $2, progress = NULL, progress_at = NULL
      WHERE id = $1`,
    [id, result.now, result.added, result.nextRunAt, result.seenUntil],
  );
}

/**
 * A pass that failed: status `error` with the message (a stopped bot stays stopped) and the next try
 * after 1, 2, 4 … minutes, at most `maxBackoffMinutes`.
 */
export async function recordBotFailure(db: Queryable, id: string, failure: { message: string; now: Date; maxBackoffMinutes: number }): Promise<void> {
  await db.none(
    `UPDATE bots SET status = CASE WHEN status = 'stopped' THEN 'stopped' ELSE 'error' END,
            error_message = $2, error_count = error_count + 1,
            next_run_at = CASE WHEN status = 'stopped' THEN NULL
                          ELSE $3::timestamptz + least(power(2, least(error_count, 20)), $4) * interval '1 minute' END,
            updated_at = $3, progress = NULL, progress_at = NULL
      WHERE id = $1`,
    [id, failure.message.slice(0, 1000), failure.now, failure.maxBackoffMinutes],
  );
}

/** A pass that could not run now (quota): the next try at `until`, the state otherwise untouched. */
export async function deferBot(db: Queryable, id: string, until: Date): Promise<void> {
  await db.none(`UPDATE bots SET next_run_at = CASE WHEN status = 'stopped' THEN NULL ELSE $2::timestamptz END, progress = NULL, progress_at = NULL WHERE id = $1`, [id, until]);
}

// ---- quota warning ------------------------------------------------------------------------------

export interface QuotaWarningRow {
  message: string;
  since: Date;
  resumeAt: Date;
}

export const quotaWarning = (db: Queryable) =>
  db.oneOrNone<QuotaWarningRow>('SELECT message, since, resume_at AS "resumeAt" FROM quota_warning WHERE id = 1');

/** Sets the warning; a warning already active keeps its `since`. */
export async function setQuotaWarning(db: Queryable, warning: { message: string; now: Date; resumeAt: Date }): Promise<void> {
  await db.none(
    `INSERT INTO quota_warning (id, message, since, resume_at) VALUES (1, $1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET message = EXCLUDED.message, resume_at = EXCLUDED.resume_at,
       since = CASE WHEN quota_warning.resume_at > EXCLUDED.since THEN quota_warning.since ELSE EXCLUDED.since END`,
    [warning.message, warning.now, warning.resumeAt],
  );
}

/** Clears the warning (all of it, or only once its reset time has passed); true when a row went. */
export async function clearQuotaWarning(db: Queryable, options: { expiredAt?: Date } = {}): Promise<boolean> {
  const result = options.expiredAt
    ? await db.result('DELETE FROM quota_warning WHERE id = 1 AND resume_at <= $1', [options.expiredAt])
    : await db.result('DELETE FROM quota_warning WHERE id = 1');
  return result.rowCount > 0;
}

// ---- platform records -----------------------------------------------------------------------------

/** Which of these videos already have a schedule. */
/** The progress of the pass a bot runs now; null when the pass ended without recording its outcome (shutdown). */
export async function setBotProgress(db: Queryable, id: string, progress: BotProgress | null): Promise<void> {
  await db.none('UPDATE bots SET progress = $2::jsonb, progress_at = CASE WHEN $2::jsonb IS NULL THEN NULL ELSE now() END WHERE id = $1', [id, progress === null ? null : JSON.stringify(progress)]);
}

export type CollectedPlatform = 'video' | 'post';

/** Videos among `videoIds` that a bot collected before or that have a schedule (saved by an administrator). */
export async function knownVideos(db: Queryable, videoIds: readonly string[]): Promise<Set<string>> {
  if (videoIds.length === 0) return new Set();
  const rows = await db.any<{ id: string }>(
    `SELECT item_id AS id FROM collected_items WHERE platform = 'video' AND item_id = ANY($1::text[])
     UNION SELECT video_id FROM video_schedules WHERE video_id = ANY($1::text[])`,
    [videoIds],
  );
  return new Set(rows.map((row) => row.id));
}

/** Posts of the account that a bot collected before or that have a schedule. */
export async function knownPosts(db: Queryable, username: string): Promise<Set<string>> {
  const rows = await db.any<{ id: string }>(
    `SELECT item_id AS id FROM collected_items WHERE platform = 'post' AND source = lower($1)
     UNION SELECT post_id FROM post_schedules WHERE lower(username) = lower($1)`,
    [username],
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * Records the items as collected and appends the outbox entry of each item recorded now, in one
 * transaction (the relay publishes them for the schedule writer). An item collected before, by
 * this pass, another pass or another process, is skipped. Returns how many were new.
 */
export async function recordCollected(
  db: Queryable,
  collected: { platform: CollectedPlatform; source: string; botId: string; items: Array<{ topic: string; key: string; value: unknown }> },
): Promise<number> {
  const items = [...new Map(collected.items.map((item) => [item.key, item])).values()];
  if (items.length === 0) return 0;
  return db.tx('collected-items', async (tx) => {
    const rows = await tx.any<{ item_id: string }>(
      `INSERT INTO collected_items (platform, item_id, source, bot_id)
       SELECT $1, id, $2, $3 FROM unnest($4::text[]) AS id
       ON CONFLICT (platform, item_id) DO NOTHING RETURNING item_id`,
      [collected.platform, collected.source, collected.botId, items.map((item) => item.key)],
    );
    const fresh = new Set(rows.map((row) => row.item_id));
    const entries = items.filter((item) => fresh.has(item.key));
    await appendOutbox(tx, ...entries.map((item) => ({ topic: item.topic, key: item.key, payload: item.value })));
    return entries.length;
  });
}

export async function videosWithSchedules(db: Queryable, videoIds: readonly string[]): Promise<Set<string>> {
  if (videoIds.length === 0) return new Set();
  const rows = await db.any<{ video_id: string }>('SELECT video_id FROM video_schedules WHERE video_id = ANY($1::text[])', [videoIds]);
  return new Set(rows.map((row) => row.video_id));
}

export async function scheduleIdOfVideo(db: Queryable, videoId: string): Promise<number | null> {
  const row = await db.oneOrNone<{ schedule_id: number }>('SELECT schedule_id FROM video_schedules WHERE video_id = $1', [videoId]);
  return row?.schedule_id ?? null;
}

export async function scheduleIdOfPost(db: Queryable, postId: string): Promise<number | null> {
  const row = await db.oneOrNone<{ schedule_id: number }>('SELECT schedule_id FROM post_schedules WHERE post_id = $1', [postId]);
  return row?.schedule_id ?? null;
}

/** Post ids of an account that already have a schedule (the microblog bot stops at them). */
export async function postsWithSchedules(db: Queryable, username: string): Promise<Set<string>> {
  const rows = await db.any<{ post_id: string }>('SELECT post_id FROM post_schedules WHERE lower(username) = lower($1)', [username]);
  return new Set(rows.map((row) => row.post_id));
}

/** Every member with the names extraction looks for. */
export const memberNames = (db: Queryable) =>
  db.any<MemberNames>('SELECT id, name, name_en AS "nameEn", nicknames, is_former AS "isFormer" FROM members ORDER BY sort_order, id');

/** Ids among `memberIds` that name no member. */
export interface VideoScheduleChanges {
  title?: string;
  date?: string;
  /** null clears the time. */
  time?: string | null;
  description?: string | null;
  memberIds?: number[];
}

/**
 * Updates a schedule that has a video record; null when `id` is not one. Fields not given keep their
 * values. Returns the title and the dates before and after.
 */
export async function updateVideoSchedule(tx: Queryable, id: number, changes: VideoScheduleChanges, check: (version: number) => void = () => {}): Promise<{ title: string; dates: string[] } | null> {
  // The locked row's own columns are its newest version, even when this statement waited for the lock.
  const current = await tx.oneOrNone<{ date: string; version: number }>(
    "SELECT to_char(s.date, 'YYYY-MM-DD') AS date, s.revision AS version FROM schedules s JOIN video_schedules v ON v.schedule_id = s.id WHERE s.id = $1 FOR UPDATE OF s",
    [id],
  );
  if (!current) return null;
  check(current.version);
  const updated = await tx.one<{ title: string; date: string }>(
    `UPDATE schedules SET title = COALESCE($2, title), date = COALESCE($3::date, date),
            time = CASE WHEN $4 THEN $5::time ELSE time END,
            description = CASE WHEN $6 THEN $7 ELSE description END, updated_at = now()
      WHERE id = $1 RETURNING title, to_char(date, 'YYYY-MM-DD') AS date`,
    [id, changes.title ?? null, changes.date ?? null, changes.time !== undefined, changes.time ?? null, changes.description !== undefined, changes.description ?? null],
  );
  if (changes.memberIds) {
    await tx.none('DELETE FROM schedule_members WHERE schedule_id = $1', [id]);
    await tx.none('INSERT INTO schedule_members (schedule_id, member_id) SELECT $1, unnest($2::int[])', [id, changes.memberIds]);
  }
  return { title: updated.title, dates: [current.date, updated.date] };
}
