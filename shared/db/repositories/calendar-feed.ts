// What a calendar feed reads: the schedules of a date range, filtered by members and categories,
// with what a VEVENT needs (description, revision, venue, image URLs); and the members' birthdays.
// Long texts and lists are cut here already (the caller's limits), so what crosses the wire is bounded.
import type { Queryable } from '../database.ts';

export interface FeedScheduleRow {
  id: number;
  title: string;
  date: string;
  time: string | null;
  description: string | null;
  source_name: string | null;
  source_url: string | null;
  category_id: number;
  category_name: string;
  revision: number;
  created_at: Date;
  updated_at: Date;
  member_names: string[];
  school_name: string | null;
  post_urls: string[] | null;
  venue_name: string | null;
  venue_address: string | null;
  lat: number | null;
  lng: number | null;
  image_urls: string[];
}

export interface FeedBirthdayRow {
  id: number;
  name: string;
  birthDate: string;
}

/** What the feed's SQL reads at most: rows, characters of a title and a description (one more than kept, to tell a cut), images. */
export interface FeedReadLimits {
  schedules: number;
  titleChars: number;
  descriptionChars: number;
  imagesPerEvent: number;
}

export interface FeedFilterIds {
  /** null: every member (and schedules without members). */
  memberIds: number[] | null;
  /** null: every category. */
  categoryIds: number[] | null;
}

/** Schedules with `from <= date < to` matching the filter, by date, time (untimed last), id. */
export function feedSchedules(db: Queryable, from: string, to: string, filter: FeedFilterIds, limits: FeedReadLimits): Promise<FeedScheduleRow[]> {
  return db.any<FeedScheduleRow>(
    `SELECT s.id, left(s.title, $6) AS title, to_char(s.date, 'YYYY-MM-DD') AS date, to_char(s.time, 'HH24:MI') AS time, left(s.description, $7) AS description,
            s.source_name, s.source_url, s.category_id, c.name AS category_name, s.revision, s.created_at, s.updated_at,
            ARRAY(SELECT m.name FROM schedule_members sm JOIN members m ON m.id = sm.member_id
                   WHERE sm.schedule_id = s.id ORDER BY m.sort_order, m.id) AS member_names,
            e.school_name, e.post_urls, v.name AS venue_name, COALESCE(NULLIF(v.road_address, ''), v.address) AS venue_address, v.lat, v.lng,
            ARRAY(SELECT storage_url(i.original_key) FROM schedule_images si JOIN images i ON i.id = si.image_id
                   WHERE si.schedule_id = s.id ORDER BY si.position LIMIT $8) AS image_urls
       FROM schedules s
       JOIN schedule_categories c ON c.id = s.category_id
       LEFT JOIN events e ON e.schedule_id = s.id
       LEFT JOIN venues v ON v.id = e.venue_id
      WHERE s.date >= $1 AND s.date < $2
        AND ($3::int[] IS NULL OR s.category_id = ANY($3::int[]))
        AND ($4::int[] IS NULL OR EXISTS (SELECT 1 FROM schedule_members sm WHERE sm.schedule_id = s.id AND sm.member_id = ANY($4::int[])))
      ORDER BY s.date, s.time NULLS LAST, s.id
      LIMIT $5`,
    [from, to, filter.categoryIds, filter.memberIds, limits.schedules, limits.titleChars + 1, limits.descriptionChars + 1, limits.imagesPerEvent],
  );
}

/** Current members with a birth date (those the month listing shows), optionally only these ids. */
export function feedBirthdays(db: Queryable, memberIds: number[] | null): Promise<FeedBirthdayRow[]> {
  return db.any(
    `SELECT id, name, to_char(birth_date, 'YYYY-MM-DD') AS "birthDate" FROM members
      WHERE NOT is_former AND birth_date IS NOT NULL AND ($1::int[] IS NULL OR id = ANY($1::int[]))
      ORDER BY sort_order, id`,
    [memberIds],
  );
}

/** Every member (a group's few): what a feed's `members` filter may name, by id or name (Korean or English). */
export function feedMemberNames(db: Queryable): Promise<Array<{ id: number; name: string; name_en: string | null }>> {
  return db.any('SELECT id, name, name_en FROM members ORDER BY id');
}
