// What the bots put on the bus (bot.video.collected, bot.post.collected), and the rows a collected
// item becomes: an upsert on its natural key (video id, post id) with its members linked. The
// transaction, outbox entry and activity log around it are schedule-writes.ts's.
import type { Tx } from '../db/database.ts';
import type { ScheduleChange } from './schedule-changes.ts';
import { withoutControlCharacters as plain } from '../control-characters.ts';

const plainOrNull = (text: string | null) => (text === null ? null : plain(text));

export const VIDEO_CATEGORY_ID = 6;
export const POST_CATEGORY_ID = 7;

export interface VideoCollected {
  videoId: string;
  title: string;
  description: string;
  channelId: string | null;
  channelName: string | null;
  publishedAt: string;
  /** Asia/Seoul date and time of publication. */
  date: string;
  time: string;
  thumbnailUrl: string | null;
  videoType: 'video' | 'shorts';
  memberIds: number[];
  botId: string | null;
}

export interface PostCollected {
  postId: string;
  username: string;
  displayName: string | null;
  text: string;
  createdAt: string;
  date: string;
  time: string;
  imageUrls: string[];
  memberIds: number[];
  botId: string | null;
}

export const videoUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;
export const postUrl = (username: string, postId: string) => `https://x.com/${username}/status/${postId}`;

export interface WriteResult {
  scheduleId: number;
  created: boolean;
  change: ScheduleChange;
}

/** Title of a post schedule: the first line of the text, bounded. */
export function postTitle(post: { text: string; displayName: string | null; username: string }): string {
  const firstLine = post.text.split('\n').map((line) => line.trim()).find(Boolean) ?? '';
  const title = firstLine || `${post.displayName ?? post.username}의 게시물`;
  return [...title].length > 100 ? `${[...title].slice(0, 99).join('')}…` : title;
}

/** One collected item as rows: its schedule, its platform record, its members. */
interface CollectedRows {
  key: string;
  schedule: { category_id: number; title: string; date: string; time: string; description: string; source_name: string | null; source_url: string };
  record: Record<string, unknown>;
  memberIds: number[];
}

export interface Platform<T> {
  /** Advisory-lock namespace and the platform table with its natural key column. */
  name: 'video' | 'post';
  table: 'video_schedules' | 'post_schedules';
  keyColumn: 'video_id' | 'post_id';
  /** Columns of the platform record besides schedule_id, updated on conflict. */
  columns: string[];
  rows(item: T): CollectedRows;
}

export const VIDEO_PLATFORM: Platform<VideoCollected> = {
  name: 'video', table: 'video_schedules', keyColumn: 'video_id',
  columns: ['video_id', 'channel_id', 'channel_name', 'video_type', 'thumbnail_url'],
  // Text from the platform is stored without control characters (shared/control-characters.ts).
  rows: (video) => ({
    key: video.videoId,
    schedule: { category_id: VIDEO_CATEGORY_ID, title: plain(video.title), date: video.date, time: video.time, description: plain(video.description), source_name: plainOrNull(video.channelName), source_url: videoUrl(video.videoId) },
    record: { video_id: video.videoId, channel_id: video.channelId, channel_name: plainOrNull(video.channelName), video_type: video.videoType, thumbnail_url: video.thumbnailUrl },
    memberIds: video.memberIds,
  }),
};

export const POST_PLATFORM: Platform<PostCollected> = {
  name: 'post', table: 'post_schedules', keyColumn: 'post_id',
  columns: ['post_id', 'username', 'display_name', 'image_urls'],
  rows: (collected) => {
    // Text from the platform is stored without control characters (shared/control-characters.ts).
    const post = { ...collected, text: plain(collected.text), displayName: plainOrNull(collected.displayName) };
    return {
      key: post.postId,
      schedule: { category_id: POST_CATEGORY_ID, title: postTitle(post), date: post.date, time: post.time, description: post.text, source_name: post.displayName ?? post.username, source_url: postUrl(post.username, post.postId) },
      record: { post_id: post.postId, username: post.username, display_name: post.displayName, image_urls: post.imageUrls },
      memberIds: post.memberIds,
    };
  },
};

/**
 * Links one schedule to its platform record (a video's or a post's row) as collection does, for a
 * schedule whose own row the caller wrote: the demo data's official videos and posts.
 */
export async function linkPlatformRecord<T>(tx: Tx, platform: Platform<T>, scheduleId: number, record: Record<string, unknown>): Promise<void> {
  // Only the columns given: the others keep their defaults.
  const columns = ['schedule_id', ...platform.columns.filter((column) => column in record)];
  await tx.none(
    `INSERT INTO ${platform.table} (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM json_populate_record(null::${platform.table}, $1::json)`,
    [JSON.stringify({ schedule_id: scheduleId, ...record })],
  );
}

export interface CollectedWrite {
  /** One per input item, in input order; null for an item left alone (`onlyNew`). */
  results: Array<WriteResult | null>;
  /** One per item written (an item repeated in the input counts once). */
  changes: ScheduleChange[];
}

/**
 * Upserts the items' schedules on their natural keys inside the caller's transaction, set-based: a
 * fixed number of statements whatever the number of items. With `onlyNew`, items that already have
 * a schedule are left alone and get null (the admin save routes answer 409). An item repeated in the
 * input is written once, as its last occurrence.
 */
export async function upsertCollected<T>(tx: Tx, platform: Platform<T>, items: T[], options: { onlyNew?: boolean }): Promise<CollectedWrite> {
  const all = items.map(platform.rows);
  const latest = new Map(all.map((rows) => [rows.key, rows]));
  const keys = [...latest.keys()].sort();
  // Serialises writers of the same item (two deliveries, an admin save): taken in key order, no deadlock.
  await tx.any('SELECT pg_advisory_xact_lock(hashtext($1 || k)) FROM unnest($2::text[]) AS k ORDER BY k', [`${platform.name}:`, keys]);
  // The existing schedules' rows are locked too (in id order), as every write of a schedule does
  // first: a date read here is the one this write replaces, and an administrator's delete that
  // committed while this waited leaves the item to be created anew (with its own change) rather
  // than updated from a row that is gone.
  const found = await tx.any<{ key: string; schedule_id: number; date: string }>(
    `SELECT p.${platform.keyColumn} AS key, p.schedule_id, to_char(s.date, 'YYYY-MM-DD') AS date
       FROM ${platform.table} p JOIN schedules s ON s.id = p.schedule_id WHERE p.${platform.keyColumn} = ANY($1::text[])
      ORDER BY s.id FOR UPDATE OF s`,
    [keys],
  );
  const existing = new Map(found.map((row) => [row.key, row]));
  const results = new Map<string, WriteResult | null>();
  const toWrite = keys.filter((key) => {
    if (existing.has(key) && options.onlyNew) results.set(key, null);
    return !(existing.has(key) && options.onlyNew);
  });
  const inputOrder = () => all.map((rows) => results.get(rows.key) ?? null);
  if (toWrite.length === 0) return { results: inputOrder(), changes: [] };
  const fresh = toWrite.filter((key) => !existing.has(key));
  const ids = fresh.length
    ? (await tx.any<{ id: number }>("SELECT nextval(pg_get_serial_sequence('schedules', 'id'))::int AS id FROM generate_series(1, $1)", [fresh.length])).map((row) => row.id)
    : [];
  const scheduleId = new Map<string, number>([...fresh.map((key, i) => [key, ids[i]!] as const), ...[...existing].map(([key, row]) => [key, row.schedule_id] as const)]);
  const schedules = toWrite.map((key) => ({ id: scheduleId.get(key)!, ...latest.get(key)!.schedule }));
  const scheduleColumns = 'id, category_id, title, date, time, description, source_name, source_url';
  await tx.none(
    `INSERT INTO schedules (${scheduleColumns}) OVERRIDING SYSTEM VALUE
     SELECT ${scheduleColumns} FROM json_populate_recordset(null::schedules, $1::json)
     ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, date = EXCLUDED.date, time = EXCLUDED.time, description = EXCLUDED.description,
       source_name = EXCLUDED.source_name, source_url = EXCLUDED.source_url, updated_at = now()`,
    [JSON.stringify(schedules)],
  );
  const columns = ['schedule_id', ...platform.columns];
  await tx.none(
    `INSERT INTO ${platform.table} (${columns.join(', ')})
     SELECT ${columns.join(', ')} FROM json_populate_recordset(null::${platform.table}, $1::json)
     ON CONFLICT (schedule_id) DO UPDATE SET ${platform.columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`,
    [JSON.stringify(toWrite.map((key) => ({ schedule_id: scheduleId.get(key), ...latest.get(key)!.record })))],
  );
  const linked = toWrite.map((key) => scheduleId.get(key)!);
  await tx.none('DELETE FROM schedule_members WHERE schedule_id = ANY($1::int[])', [linked]);
  // Unknown ids (a member deleted since collection) are skipped rather than failing the message.
  await tx.none(
    `INSERT INTO schedule_members (schedule_id, member_id)
     SELECT DISTINCT x.schedule_id, m.id FROM json_to_recordset($1::json) AS x(schedule_id int, member_ids int[])
     JOIN members m ON m.id = ANY(x.member_ids)`,
    [JSON.stringify(toWrite.map((key) => ({ schedule_id: scheduleId.get(key), member_ids: latest.get(key)!.memberIds })))],
  );
  const changes = toWrite.map((key): ScheduleChange => {
    const before = existing.get(key);
    const date = latest.get(key)!.schedule.date;
    return { scheduleId: scheduleId.get(key)!, action: before ? 'update' : 'create', dates: before ? [before.date, date] : [date] };
  });
  toWrite.forEach((key, i) => results.set(key, { scheduleId: scheduleId.get(key)!, created: !existing.has(key), change: changes[i]! }));
  return { results: inputOrder(), changes };
}
