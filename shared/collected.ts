// What the bots put on the bus (bot.video.collected, bot.post.collected), and how a collected item
// becomes a schedule: an upsert on its natural key (video id, post id), members linked, and the
// outbox entry in the same transaction. The schedule writer actor and the admin "save" routes share it.
import type { Queryable, Tx } from './db/database.ts';
import { recordScheduleChange, type ScheduleChange } from './schedule-changes.ts';

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

async function linkMembers(tx: Tx, scheduleId: number, memberIds: number[]): Promise<void> {
  await tx.none('DELETE FROM schedule_members WHERE schedule_id = $1', [scheduleId]);
  // Unknown ids (a member deleted since collection) are skipped rather than failing the message.
  await tx.none('INSERT INTO schedule_members (schedule_id, member_id) SELECT $1, id FROM members WHERE id = ANY($2::int[])', [scheduleId, memberIds]);
}

/** Title of a post schedule: the first line of the text, bounded. */
export function postTitle(post: { text: string; displayName: string | null; username: string }): string {
  const firstLine = post.text.split('\n').map((line) => line.trim()).find(Boolean) ?? '';
  const title = firstLine || `${post.displayName ?? post.username}의 게시물`;
  return [...title].length > 100 ? `${[...title].slice(0, 99).join('')}…` : title;
}

async function upsertSchedule(tx: Tx, existing: { schedule_id: number; date: string } | null, fields: { categoryId: number; title: string; date: string; time: string; description: string; sourceName: string | null; sourceUrl: string }) {
  if (existing) {
    await tx.none(
      'UPDATE schedules SET title = $2, date = $3, time = $4, description = $5, source_name = $6, source_url = $7, updated_at = now() WHERE id = $1',
      [existing.schedule_id, fields.title, fields.date, fields.time, fields.description, fields.sourceName, fields.sourceUrl],
    );
    return existing.schedule_id;
  }
  const { id } = await tx.one<{ id: number }>(
    'INSERT INTO schedules (category_id, title, date, time, description, source_name, source_url) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
    [fields.categoryId, fields.title, fields.date, fields.time, fields.description, fields.sourceName, fields.sourceUrl],
  );
  return id;
}

/**
 * Upserts the video's schedule. With `onlyNew`, an existing one is left alone and null returned
 * (the admin save route answers 409 then). Runs in the caller's transaction when given one.
 */
export async function writeVideoSchedule(db: Queryable, video: VideoCollected, options: { onlyNew?: boolean } = {}): Promise<WriteResult | null> {
  const run = async (tx: Tx): Promise<WriteResult | null> => {
    // Serialises writers of the same video: two deliveries of one message cannot both insert.
    await tx.one('SELECT pg_advisory_xact_lock(hashtext($1))', [`video:${video.videoId}`]);
    const existing = await tx.oneOrNone<{ schedule_id: number; date: string }>(
      "SELECT v.schedule_id, to_char(s.date, 'YYYY-MM-DD') AS date FROM video_schedules v JOIN schedules s ON s.id = v.schedule_id WHERE v.video_id = $1",
      [video.videoId],
    );
    if (existing && options.onlyNew) return null;
    const scheduleId = await upsertSchedule(tx, existing, {
      categoryId: VIDEO_CATEGORY_ID, title: video.title, date: video.date, time: video.time, description: video.description,
      sourceName: video.channelName, sourceUrl: videoUrl(video.videoId),
    });
    await tx.none(
      `INSERT INTO video_schedules (schedule_id, video_id, channel_id, channel_name, video_type, thumbnail_url) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (schedule_id) DO UPDATE SET channel_id = EXCLUDED.channel_id, channel_name = EXCLUDED.channel_name, video_type = EXCLUDED.video_type, thumbnail_url = EXCLUDED.thumbnail_url`,
      [scheduleId, video.videoId, video.channelId, video.channelName, video.videoType, video.thumbnailUrl],
    );
    await linkMembers(tx, scheduleId, video.memberIds);
    const change: ScheduleChange = { scheduleId, action: existing ? 'update' : 'create', dates: existing ? [existing.date, video.date] : [video.date] };
    await recordScheduleChange(tx, change);
    return { scheduleId, created: !existing, change };
  };
  return db.tx('video-schedule', run); // a savepoint when the caller is already in a transaction
}

export async function writePostSchedule(db: Queryable, post: PostCollected, options: { onlyNew?: boolean } = {}): Promise<WriteResult | null> {
  const run = async (tx: Tx): Promise<WriteResult | null> => {
    await tx.one('SELECT pg_advisory_xact_lock(hashtext($1))', [`post:${post.postId}`]);
    const existing = await tx.oneOrNone<{ schedule_id: number; date: string }>(
      "SELECT p.schedule_id, to_char(s.date, 'YYYY-MM-DD') AS date FROM post_schedules p JOIN schedules s ON s.id = p.schedule_id WHERE p.post_id = $1",
      [post.postId],
    );
    if (existing && options.onlyNew) return null;
    const scheduleId = await upsertSchedule(tx, existing, {
      categoryId: POST_CATEGORY_ID, title: postTitle(post), date: post.date, time: post.time, description: post.text,
      sourceName: post.displayName ?? post.username, sourceUrl: postUrl(post.username, post.postId),
    });
    await tx.none(
      `INSERT INTO post_schedules (schedule_id, post_id, username, display_name, image_urls) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (schedule_id) DO UPDATE SET username = EXCLUDED.username, display_name = EXCLUDED.display_name, image_urls = EXCLUDED.image_urls`,
      [scheduleId, post.postId, post.username, post.displayName, post.imageUrls],
    );
    await linkMembers(tx, scheduleId, post.memberIds);
    const change: ScheduleChange = { scheduleId, action: existing ? 'update' : 'create', dates: existing ? [existing.date, post.date] : [post.date] };
    await recordScheduleChange(tx, change);
    return { scheduleId, created: !existing, change };
  };
  return db.tx('post-schedule', run);
}
