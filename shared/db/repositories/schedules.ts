// Reading schedules in the public shapes of decisions.md ("Schedules"): list items, event fields,
// details with the platform records. One query per page of items, members and posters aggregated in SQL.
import { preparedQuery, type Queryable } from '../database.ts';
import type { Venue } from './venues.ts';

export interface Category {
  id: number;
  name: string;
  color: string;
}

export interface Poster {
  id: number;
  originalUrl: string;
  mediumUrl: string;
  thumbUrl: string;
}

export interface ScheduleItem {
  id: number | string;
  title: string;
  date: string;
  time: string | null;
  category: Category;
  source: { name: string; url: string | null } | null;
  members: Array<{ id: number; name: string }>;
  isBirthday?: true;
  subtype?: string;
  schoolName?: string | null;
  venue?: Venue | null;
  posters?: Poster[];
  postUrls?: string[];
}

export interface ScheduleDetail extends ScheduleItem {
  description: string | null;
  images: Poster[];
  video?: { videoId: string; channelName: string | null; videoType: string };
  post?: { postId: string; username: string; imageUrls: string[] };
}

export interface ItemRow {
  id: number;
  title: string;
  date: string;
  time: string | null;
  category: Category;
  source_name: string | null;
  source_url: string | null;
  members: Array<{ id: number; name: string }>;
  is_event: boolean;
  subtype: string | null;
  school_name: string | null;
  post_urls: string[] | null;
  venue: Venue | null;
  posters: Poster[];
}

export const ITEM_SELECT = `
  SELECT s.id, s.title, to_char(s.date, 'YYYY-MM-DD') AS date, to_char(s.time, 'HH24:MI') AS time,
         json_build_object('id', c.id, 'name', c.name, 'color', c.color) AS category,
         s.source_name, s.source_url,
         COALESCE((SELECT json_agg(json_build_object('id', m.id, 'name', m.name) ORDER BY m.sort_order, m.id)
                     FROM schedule_members sm JOIN members m ON m.id = sm.member_id
                    WHERE sm.schedule_id = s.id), '[]'::json) AS members,
         e.schedule_id IS NOT NULL AS is_event, e.subtype, e.school_name, e.post_urls,
         CASE WHEN v.id IS NULL THEN NULL ELSE json_build_object('id', v.id, 'name', v.name, 'address', v.address,
              'roadAddress', v.road_address, 'lat', v.lat, 'lng', v.lng, 'map_id', v.map_id) END AS venue,
         COALESCE((SELECT json_agg(json_build_object('id', i.id, 'originalUrl', storage_url(i.original_key), 'mediumUrl', storage_url(i.medium_key),
                                                     'thumbUrl', storage_url(i.thumb_key)) ORDER BY p.ord)
                     FROM unnest(e.poster_image_ids) WITH ORDINALITY AS p(image_id, ord)
                     JOIN images i ON i.id = p.image_id), '[]'::json) AS posters
    FROM schedules s
    JOIN schedule_categories c ON c.id = s.category_id
    LEFT JOIN events e ON e.schedule_id = s.id
    LEFT JOIN venues v ON v.id = e.venue_id`;

export function toItem(row: ItemRow): ScheduleItem {
  const item: ScheduleItem = {
    id: row.id,
    title: row.title,
    date: row.date,
    time: row.time,
    category: row.category,
    source: row.source_name ? { name: row.source_name, url: row.source_url } : null,
    members: row.members,
  };
  if (row.is_event) {
    // 2.6: an event's source name is its school name; a cleared one (stored NULL) is "" in both,
    // as in the administrator's view (docs/decisions.md, "School names").
    item.source = { name: row.school_name ?? '', url: row.source_url };
    item.subtype = row.subtype ?? 'university';
    item.schoolName = row.school_name ?? '';
    item.venue = row.venue;
    item.posters = row.posters;
    item.postUrls = row.post_urls ?? [];
  }
  return item;
}

// The reads below are prepared: planning ITEM_SELECT (its subplans and joins) cost PostgreSQL
// more than running it on a month or a detail (23 ms against 4 ms, measured under the soak
// benchmark's load), and the session keeps one generic plan per statement.
const itemsBetween = preparedQuery('schedule-items-between', `${ITEM_SELECT} WHERE s.date >= $1 AND s.date < $2 ORDER BY s.date, s.time NULLS LAST, s.id`);
const itemsById = preparedQuery('schedule-items-by-id', `${ITEM_SELECT} WHERE s.id = ANY($1::int[])`);

/** Schedules with `from <= date < to`, sorted by date, then time (no time last), then id. */
export async function schedulesBetween(db: Queryable, from: string, to: string): Promise<ScheduleItem[]> {
  const rows = await db.any<ItemRow>(itemsBetween(from, to));
  return rows.map(toItem);
}

/** Items in the order of `ids` (search results). */
export async function schedulesByIds(db: Queryable, ids: number[]): Promise<ScheduleItem[]> {
  if (ids.length === 0) return [];
  const rows = await db.any<ItemRow>(itemsById(ids));
  const byId = new Map(rows.map((row) => [row.id, toItem(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const detailOf = preparedQuery(
  'schedule-detail',
  `SELECT base.*, s.description, s.revision AS version,
          COALESCE((SELECT json_agg(json_build_object('id', i.id, 'originalUrl', storage_url(i.original_key), 'mediumUrl', storage_url(i.medium_key),
                                                      'thumbUrl', storage_url(i.thumb_key)) ORDER BY si.position)
                      FROM schedule_images si JOIN images i ON i.id = si.image_id
                     WHERE si.schedule_id = s.id), '[]'::json) AS images,
          vs.video_id, vs.channel_name, vs.video_type, ps.post_id, ps.username, ps.image_urls
     FROM (${ITEM_SELECT} WHERE s.id = $1) AS base
     JOIN schedules s ON s.id = base.id
     LEFT JOIN video_schedules vs ON vs.schedule_id = s.id
     LEFT JOIN post_schedules ps ON ps.schedule_id = s.id`,
);

/** A schedule's detail and, beside it, its version (for the ETag; not part of the detail). */
export async function scheduleDetail(db: Queryable, id: number): Promise<{ detail: ScheduleDetail; version: number } | null> {
  const row = await db.oneOrNone<ItemRow & {
    description: string | null;
    version: number;
    images: Poster[];
    video_id: string | null;
    channel_name: string | null;
    video_type: string | null;
    post_id: string | null;
    username: string | null;
    image_urls: string[] | null;
  }>(
    detailOf(id),
  );
  if (!row) return null;
  const detail: ScheduleDetail = { ...toItem(row), description: row.description, images: row.images };
  if (row.video_id) detail.video = { videoId: row.video_id, channelName: row.channel_name, videoType: row.video_type ?? 'video' };
  if (row.post_id) detail.post = { postId: row.post_id, username: row.username ?? '', imageUrls: row.image_urls ?? [] };
  return { detail, version: row.version };
}

/** Month keys ('YYYY-M') a date belongs to, for cache invalidation. */
export function monthOf(date: string): { year: number; month: number } {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) };
}

/** A schedule's version (the ETag of its admin views), or null when there is none. */
export async function scheduleVersion(db: Queryable, id: number): Promise<number | null> {
  return (await db.oneOrNone<{ version: number }>('SELECT revision AS version FROM schedules WHERE id = $1', [id]))?.version ?? null;
}

/**
 * Deletes a schedule; its event record, member links and image links go with it (foreign keys
 * with cascade). The images it linked lose their records too; their storage keys are returned so the
 * files can be deleted after the commit. The caller holds the row's lock (the images read here are
 * then every image the schedule has).
 */
export async function deleteSchedule(tx: Queryable, id: number): Promise<{ date: string; title: string; imageKeys: string[] } | null> {
  const imageIds = await tx.any<{ id: number }>(
    `SELECT image_id AS id FROM schedule_images WHERE schedule_id = $1
     UNION SELECT unnest(poster_image_ids) FROM events WHERE schedule_id = $1`,
    [id],
  );
  const deleted = await tx.oneOrNone<{ date: string; title: string }>(
    "DELETE FROM schedules WHERE id = $1 RETURNING to_char(date, 'YYYY-MM-DD') AS date, title",
    [id],
  );
  if (!deleted) return null;
  const keys = await tx.any<{ original_key: string; medium_key: string; thumb_key: string }>(
    'DELETE FROM images WHERE id = ANY($1::int[]) RETURNING original_key, medium_key, thumb_key',
    [imageIds.map((row) => row.id)],
  );
  return { ...deleted, imageKeys: keys.flatMap((k) => [k.original_key, k.medium_key, k.thumb_key]) };
}
