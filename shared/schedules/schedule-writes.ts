// Every schedule write, in one place: an event's create, update and delete (api-service.md 4.7), a
// schedule saved from a video or post (by an administrator or by the schedule writer actor from
// what the bots collected), a video schedule's update, any schedule's delete. Each operation owns
// its transaction, the member links and images, the outbox entry, the activity log and, after the
// commit, the cache and index effects. Routes validate and call one of these; the actors too.
import type { Static } from '@sinclair/typebox';
import { EVENT_CATEGORY_ID, type EventCreatePayload, type EventUpdatePayload } from '../../schemas/events.ts';
import type { ScheduleCreatePayload, ScheduleUpdatePayload } from '../../schemas/general-schedules.ts';
import type { ProcessedImage } from '../../workers/image-pool.ts';
import { TOPICS } from '../bus/bus.ts';
import { WriteBatch, type Queryable, type Tx, type Writer } from '../db/database.ts';
import { logActivity, type ActivityEntry } from '../db/repositories/activity-log.ts';
import { updateVideoSchedule as updateVideoRows, type VideoScheduleChanges } from '../db/repositories/bots.ts';
import { deleteImages, insertScheduleImages, scheduleImagesInsert, type StoredImage } from '../db/repositories/images.ts';
import { deleteSchedule as deleteScheduleRows } from '../db/repositories/schedules.ts';
import { upsertVenue, venueUpsert } from '../db/repositories/venues.ts';
import { notFound, badRequest } from '../errors.ts';
import { checkPrecondition, type Precondition } from '../precondition.ts';
import type { Services } from '../services.ts';
import { deleteFilesAfterCommit, posterExtension, storeVariants, variantKeys, withFileCleanup } from '../storage/image-files.ts';
import { POST_PLATFORM, upsertCollected, VIDEO_PLATFORM, type Platform, type PostCollected, type VideoCollected, type WriteResult } from './collected.ts';
import { afterScheduleCommit, recordScheduleChange, type ScheduleChange } from './schedule-changes.ts';

const admin = (entry: Omit<ActivityEntry, 'actor' | 'category'>): ActivityEntry => ({ actor: 'admin', category: 'schedule', ...entry });

// ---- collected items: videos and posts ------------------------------------------------------------

interface CollectedOptions {
  /** Items that already have a schedule are left alone and get null. */
  onlyNew?: boolean;
  /** Transaction name (default `<platform>-schedules`). */
  name?: string;
  /** The activity log entry of each item written (admin saves). */
  activity?: (result: WriteResult) => ActivityEntry;
}

/** Items upserted on their natural keys, their outbox entries and activity in one transaction. */
async function writeCollected<T>(db: Queryable, platform: Platform<T>, items: T[], options: CollectedOptions): Promise<Array<WriteResult | null>> {
  if (items.length === 0) return [];
  return db.tx(options.name ?? `${platform.name}-schedules`, async (tx) => {
    const { results, changes } = await upsertCollected(tx, platform, items, options);
    await recordScheduleChange(tx, ...changes);
    if (options.activity) for (const result of results) if (result) await logActivity(tx, options.activity(result));
    return results;
  });
}

export const writeVideoSchedules = (db: Queryable, videos: VideoCollected[], options: { onlyNew?: boolean } = {}) => writeCollected(db, VIDEO_PLATFORM, videos, options);
export const writePostSchedules = (db: Queryable, posts: PostCollected[], options: { onlyNew?: boolean } = {}) => writeCollected(db, POST_PLATFORM, posts, options);

/** One video's schedule (the admin save uses `onlyNew`). */
export async function writeVideoSchedule(db: Queryable, video: VideoCollected, options: { onlyNew?: boolean } = {}): Promise<WriteResult | null> {
  return (await writeVideoSchedules(db, [video], options))[0] ?? null;
}

export async function writePostSchedule(db: Queryable, post: PostCollected, options: { onlyNew?: boolean } = {}): Promise<WriteResult | null> {
  return (await writePostSchedules(db, [post], options))[0] ?? null;
}

/**
 * The schedule writer's run of one topic's messages: written set-based, then the months' cache
 * dropped. The index follows the outbox entries (the search indexer), not this call.
 */
export async function writeCollectedRun(s: Services, topic: string, values: unknown[]): Promise<void> {
  const results = topic === TOPICS.videoCollected
    ? await writeVideoSchedules(s.db, values as VideoCollected[])
    : await writePostSchedules(s.db, values as PostCollected[]);
  for (const result of results) {
    if (!result) continue;
    for (const date of result.change.dates) s.monthlyCache.invalidate(Number(date.slice(0, 4)), Number(date.slice(5, 7)));
  }
  s.live?.wake();
  s.analysis.schedulesChanged();
}

/** An administrator's save of a video as a schedule; null when the video already has one (409). */
export async function saveVideoSchedule(s: Services, video: VideoCollected): Promise<number | null> {
  const [written] = await writeCollected(s.db, VIDEO_PLATFORM, [video], {
    onlyNew: true,
    name: 'video-schedule-create',
    activity: (result) => admin({ action: 'create', targetType: 'video_schedule', targetId: result.scheduleId, summary: `영상 일정 '${video.title}' 등록` }),
  });
  if (!written) return null;
  await afterScheduleCommit(s, written.change, { syncIndex: true });
  return written.scheduleId;
}

/** An administrator's save of a post as a schedule; null when the post already has one (409). */
export async function savePostSchedule(s: Services, post: PostCollected): Promise<number | null> {
  const [written] = await writeCollected(s.db, POST_PLATFORM, [post], {
    onlyNew: true,
    name: 'post-schedule-create',
    activity: (result) => admin({ action: 'create', targetType: 'post_schedule', targetId: result.scheduleId, summary: `게시물 일정 '@${post.username}/${post.postId}' 등록` }),
  });
  if (!written) return null;
  await afterScheduleCommit(s, written.change, { syncIndex: true });
  return written.scheduleId;
}

/** A video schedule's fields; false when `id` is not a video schedule (or no longer is one). */
export async function updateVideoSchedule(s: Services, id: number, changes: VideoScheduleChanges, precondition?: Precondition | null): Promise<boolean> {
  const change = await s.db.tx('video-schedule-update', async (tx) => {
    const updated = await updateVideoRows(tx, id, changes, (version) => checkPrecondition(precondition, version));
    if (!updated) return null;
    const change: ScheduleChange = { scheduleId: id, action: 'update', dates: updated.dates };
    await logActivity(tx, admin({ action: 'update', targetType: 'video_schedule', targetId: id, summary: `영상 일정 '${updated.title}' 수정` }));
    await recordScheduleChange(tx, change);
    return change;
  });
  if (!change) return false;
  await afterScheduleCommit(s, change, { syncIndex: true });
  return true;
}

// ---- the row every write of a schedule starts from --------------------------------------------

/** What a write of an existing schedule starts from, read under the row's lock. */
export interface LockedSchedule {
  kind: 'general' | 'event' | 'birthday';
  /** An `events` row exists (the event routes' schedules). */
  isEvent: boolean;
  date: string;
  title: string;
  version: number;
  /** Its images in order (general schedules). */
  imageIds: number[];
  /** Its posters in order (events). */
  posterIds: number[];
}

const kindOf = (row: { is_event: boolean; category_id: number }): LockedSchedule['kind'] =>
  row.is_event || row.category_id === EVENT_CATEGORY_ID ? 'event' : row.category_id === 10 ? 'birthday' : 'general';

/**
 * Locks a schedule's row, then reads it: null when there is none (or it was deleted while this
 * write waited). Every write of a schedule takes this lock before anything else (the schedule row
 * first, then its event, links and images), so two writes of one schedule run one after the other
 * and never deadlock. The read is a second statement on purpose: in READ COMMITTED a statement sees
 * what committed before it began, so only a statement begun after the lock was granted sees what
 * the previous holder of the lock wrote (its date, its new images).
 */
export async function lockSchedule(tx: Queryable, id: number): Promise<LockedSchedule | null> {
  if (!(await tx.oneOrNone('SELECT 1 FROM schedules WHERE id = $1 FOR UPDATE', [id]))) return null;
  const row = await tx.one<{ date: string; title: string; version: number; category_id: number; is_event: boolean; image_ids: number[]; poster_ids: number[] | null }>(
    `SELECT to_char(s.date, 'YYYY-MM-DD') AS date, s.title, s.revision AS version, s.category_id, e.schedule_id IS NOT NULL AS is_event, e.poster_image_ids AS poster_ids,
            ARRAY(SELECT image_id FROM schedule_images WHERE schedule_id = s.id ORDER BY position) AS image_ids
       FROM schedules s LEFT JOIN events e ON e.schedule_id = s.id WHERE s.id = $1`,
    [id],
  );
  return { kind: kindOf(row), isEvent: row.is_event, date: row.date, title: row.title, version: row.version, imageIds: row.image_ids, posterIds: row.poster_ids ?? [] };
}

export const scheduleNotFound = () => notFound('해당 일정을 찾을 수 없습니다.');
export const eventNotFound = () => notFound('해당 행사 일정을 찾을 수 없습니다.');

/** Ids the client asked to keep that are not this schedule's: 400. */
function assertOwn(kept: readonly number[], own: readonly number[], message: string): void {
  const foreign = kept.filter((id) => !own.includes(id));
  if (foreign.length > 0) throw badRequest(`${message}: ${foreign.join(', ')}`);
}

// ---- deletion ---------------------------------------------------------------------------------

/**
 * Deletes a schedule with its links, images and files; false when there is none (or, with
 * `eventsOnly`, when it is not an event). The event route leaves the index to the indexer
 * (4.7 delete, rule 3); the schedules route updates it at once.
 */
export async function deleteSchedule(s: Services, id: number, options: { eventsOnly?: boolean; precondition?: Precondition | null } = {}): Promise<boolean> {
  const what = options.eventsOnly ? { name: 'event-delete', targetType: 'event_schedule', label: '행사 일정' } : { name: 'schedule-delete', targetType: 'schedule', label: '일정' };
  const deleted = await s.db.tx(what.name, async (tx) => {
    const current = await lockSchedule(tx, id);
    if (!current || (options.eventsOnly && !current.isEvent)) return null;
    checkPrecondition(options.precondition, current.version);
    // Its images are read after the lock: a write that committed while this one waited added its own.
    const result = await deleteScheduleRows(tx, id);
    if (!result) return null;
    const change: ScheduleChange = { scheduleId: id, action: 'delete', dates: [current.date] };
    await logActivity(tx, admin({ action: 'delete', targetType: what.targetType, targetId: id, summary: `${what.label} '${current.title}' 삭제` }));
    await recordScheduleChange(tx, change);
    return { change, imageKeys: result.imageKeys };
  });
  if (!deleted) return false;
  await deleteFilesAfterCommit(s.storage, s.logger, deleted.imageKeys);
  await afterScheduleCommit(s, deleted.change, { syncIndex: !options.eventsOnly });
  return true;
}

// ---- events (4.7) -----------------------------------------------------------------------------

export type EventCreate = Static<typeof EventCreatePayload>;
export type EventUpdate = Static<typeof EventUpdatePayload>;

/** An uploaded poster, decoded by the image pool; the file name gives its key's extension. */
export interface PosterUpload {
  fileName: string;
  image: ProcessedImage;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Stores the posters' files, every variant of every poster at once. */
export async function storePosterFiles(s: Services, scheduleId: number, posters: PosterUpload[], name: (index: number, ext: string) => string, written: string[], folder = `event/${scheduleId}/poster`): Promise<StoredImage[]> {
  // allSettled: a failed write must not leave others still writing after the cleanup ran.
  const results = await Promise.allSettled(posters.map((poster, index) => {
    const key = `${folder}/${name(index, posterExtension(poster.fileName, poster.image.format))}`;
    return storeVariants(s.storage, poster.image, variantKeys(key), written);
  }));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<StoredImage>).value);
}

export async function insertMembers(tx: Writer, scheduleId: number, memberIds: number[]): Promise<void> {
  if (memberIds.length > 0) {
    await tx.none('INSERT INTO schedule_members (schedule_id, member_id) SELECT $1, unnest($2::int[])', [scheduleId, memberIds]);
  }
}

async function replaceMembers(tx: Tx, scheduleId: number, memberIds: number[]): Promise<void> {
  await tx.none('DELETE FROM schedule_members WHERE schedule_id = $1', [scheduleId]);
  await insertMembers(tx, scheduleId, memberIds);
}

/** An event's own row, written after its schedule's images: its posters are those images, in order. */
export interface EventRow {
  subtype: string;
  schoolName: string | null;
  venueId: number;
  postUrls: string[];
}

export async function insertEventRow(tx: Writer, scheduleId: number, event: EventRow): Promise<void> {
  await tx.none(
    `INSERT INTO events (schedule_id, subtype, school_name, venue_id, post_urls, poster_image_ids)
     SELECT $1, $2, $3, $4, $5, (SELECT array_agg(image_id ORDER BY position) FROM schedule_images WHERE schedule_id = $1)`,
    [scheduleId, event.subtype, event.schoolName, event.venueId, event.postUrls.length > 0 ? event.postUrls : null],
  );
}

/** Creates an event with its posters (stored as event/<id>/poster/NN.<ext>); returns its id. */
export async function createEvent(s: Services, payload: EventCreate, posters: PosterUpload[]): Promise<number> {
  const memberIds = payload.memberIds ?? [];
  // Rule 5 in one transaction; rule 6's files are stored inside it so a failure leaves nothing.
  const scheduleId = await withFileCleanup(s.storage, s.logger, (written) =>
    s.db.tx('event-create', async (tx) => {
      // Four round trips in all (BEGIN, these two, COMMIT) where each statement was one: every
      // statement cost the event loop and PostgreSQL about as much again as its work.
      // The venue and the schedule row first: the posters' keys carry the schedule's id.
      const { id, venue_id: venueId } = await tx.one<{ id: number; venue_id: number }>(
        `WITH venue AS ($1:raw), created AS (INSERT INTO schedules (category_id, title, date, time) VALUES ($2, $3, $4, $5) RETURNING id)
         SELECT created.id, venue.id AS venue_id FROM created, venue`,
        [venueUpsert(payload.venue), EVENT_CATEGORY_ID, payload.title, payload.date, payload.time || null],
      );
      const stored = await storePosterFiles(s, id, posters, (index, ext) => `${pad2(index + 1)}.${ext}`, written);
      // Then the rest in one round trip. The event row takes its poster ids, in order, from the links written before it.
      const batch = new WriteBatch();
      if (stored.length > 0) await batch.none(...scheduleImagesInsert(id, stored, 1));
      await insertEventRow(batch, id, { subtype: payload.subtype ?? 'university', schoolName: payload.schoolName, venueId, postUrls: payload.postUrls ?? [] });
      await insertMembers(batch, id, memberIds); // a new schedule has no links to replace
      await logActivity(batch, admin({ action: 'create', targetType: 'event_schedule', targetId: id, summary: `행사 일정 '${payload.title}' 등록` }));
      await recordScheduleChange(batch, { scheduleId: id, action: 'create', dates: [payload.date] });
      await batch.run(tx);
      return id;
    }),
  );
  await afterScheduleCommit(s, { scheduleId, action: 'create', dates: [payload.date] }, { syncIndex: true }); // rule 7
  return scheduleId;
}

/** Updates an event: its fields, members, and posters (the kept ones in order, then the new ones). */
export async function updateEvent(s: Services, id: number, payload: EventUpdate, posters: PosterUpload[], precondition?: Precondition | null): Promise<void> {
  const memberIds = payload.memberIds ?? [];
  const keep = payload.keepPosterIds ?? [];
  const { droppedKeys, change } = await withFileCleanup(s.storage, s.logger, (written) =>
    s.db.tx('event-update', async (tx) => {
      const current = await lockSchedule(tx, id);
      if (!current?.isEvent) throw eventNotFound(); // rule 2, again under the lock: a delete may have come first
      checkPrecondition(precondition, current.version);
      assertOwn(keep, current.posterIds, '이 행사의 포스터가 아닌 ID입니다');
      const change: ScheduleChange = { scheduleId: id, action: 'update', dates: [current.date, payload.date ?? current.date] };
      // Rule 3: title and date keep their values when not sent (they cannot be empty); the rest follow the payload.
      const { title } = await tx.one<{ title: string }>(
        'UPDATE schedules SET title = COALESCE($2, title), date = COALESCE($3, date), time = $4, updated_at = now() WHERE id = $1 RETURNING title',
        [id, payload.title ?? null, payload.date ?? null, payload.time || null],
      );
      const venueId = payload.venue ? await upsertVenue(tx, payload.venue) : null;
      // Rule 4: new posters named from the time in milliseconds and their position.
      const stamp = s.clock.now();
      const stored = await storePosterFiles(s, id, posters, (index, ext) => `${stamp}${index + 1}.${ext}`, written);
      const newIds = await insertScheduleImages(tx, id, stored, keep.length + 1);
      const posterIds = [...keep, ...newIds]; // rule 5
      await tx.none('UPDATE events SET subtype = $2, school_name = $3, venue_id = $4, post_urls = $5, poster_image_ids = $6 WHERE schedule_id = $1', [
        id,
        payload.subtype ?? 'university',
        payload.schoolName ?? null,
        venueId,
        payload.postUrls?.length ? payload.postUrls : null,
        posterIds.length > 0 ? posterIds : null,
      ]);
      await replaceMembers(tx, id, memberIds);
      for (const [position, imageId] of keep.entries()) {
        await tx.none('UPDATE schedule_images SET position = $3 WHERE schedule_id = $1 AND image_id = $2', [id, imageId, position + 1]);
      }
      const keys = await deleteImages(tx, current.posterIds.filter((posterId) => !keep.includes(posterId)));
      await logActivity(tx, admin({ action: 'update', targetType: 'event_schedule', targetId: id, summary: `행사 일정 '${title}' 수정` }));
      await recordScheduleChange(tx, change);
      return { droppedKeys: keys, change };
    }),
  );
  await deleteFilesAfterCommit(s.storage, s.logger, droppedKeys);
  await afterScheduleCommit(s, change, { syncIndex: true }); // rule 6
}

// ---- general schedules ------------------------------------------------------------------------

export type ScheduleCreate = Static<typeof ScheduleCreatePayload>;
export type ScheduleUpdate = Static<typeof ScheduleUpdatePayload>;

/** A schedule's kind and version as a route checks them before its expensive steps (decoding images). */
export interface ScheduleState {
  kind: LockedSchedule['kind'];
  isEvent: boolean;
  version: number;
}

const scheduleColumns = (payload: ScheduleCreate) => [
  payload.categoryId, payload.title, payload.date, payload.time || null, payload.description || null,
  payload.source?.name ?? null, payload.source?.url || null,
];

/** A schedule's own row (no members, images or links yet); returns its id. */
export async function insertScheduleRow(tx: Tx, payload: ScheduleCreate): Promise<number> {
  const { id } = await tx.one<{ id: number }>(
    'INSERT INTO schedules (category_id, title, date, time, description, source_name, source_url) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
    scheduleColumns(payload),
  );
  return id;
}

/** Creates a schedule of any category but birthdays and events, with its images (schedule/<id>/image/NN.<ext>). */
export async function createSchedule(s: Services, payload: ScheduleCreate, images: PosterUpload[]): Promise<number> {
  const scheduleId = await withFileCleanup(s.storage, s.logger, (written) =>
    s.db.tx('schedule-create', async (tx) => {
      const id = await insertScheduleRow(tx, payload);
      const stored = await storePosterFiles(s, id, images, (index, ext) => `${pad2(index + 1)}.${ext}`, written, `schedule/${id}/image`);
      const batch = new WriteBatch();
      if (stored.length > 0) await batch.none(...scheduleImagesInsert(id, stored, 1));
      await insertMembers(batch, id, payload.memberIds ?? []);
      await logActivity(batch, admin({ action: 'create', targetType: 'schedule', targetId: id, summary: `일정 '${payload.title}' 등록` }));
      await recordScheduleChange(batch, { scheduleId: id, action: 'create', dates: [payload.date] });
      await batch.run(tx);
      return id;
    }),
  );
  await afterScheduleCommit(s, { scheduleId, action: 'create', dates: [payload.date] }, { syncIndex: true });
  return scheduleId;
}

/**
 * A schedule's kind and version, or null when there is none: the routes' early answer (404, 400,
 * 412) before the images are decoded. The write checks all of it again under the row's lock.
 */
export async function scheduleState(s: Services, id: number): Promise<ScheduleState | null> {
  const row = await s.db.oneOrNone<{ category_id: number; is_event: boolean; version: number }>(
    'SELECT s.category_id, s.revision AS version, EXISTS (SELECT 1 FROM events e WHERE e.schedule_id = s.id) AS is_event FROM schedules s WHERE s.id = $1',
    [id],
  );
  return row ? { kind: kindOf(row), isEvent: row.is_event, version: row.version } : null;
}

/** Why a schedule cannot be replaced through the general schedules' path (events and birthdays have their own), or null. */
export function generalScheduleProblem(kind: ScheduleState['kind']): string | null {
  if (kind === 'event') return '행사 일정은 /api/admin/events/:id 로 수정해 주세요.';
  if (kind === 'birthday') return '생일은 멤버 정보에서 수정해 주세요.';
  return null;
}

/** Replaces a general schedule's fields and members; images become `keepImageIds` followed by the new ones. */
export async function updateSchedule(s: Services, id: number, payload: ScheduleUpdate, images: PosterUpload[], precondition?: Precondition | null): Promise<void> {
  const keep = payload.keepImageIds ?? [];
  const { droppedKeys, change } = await withFileCleanup(s.storage, s.logger, (written) =>
    s.db.tx('schedule-update', async (tx) => {
      const current = await lockSchedule(tx, id);
      if (!current) throw scheduleNotFound();
      const problem = generalScheduleProblem(current.kind);
      if (problem) throw badRequest(problem);
      checkPrecondition(precondition, current.version);
      assertOwn(keep, current.imageIds, '이 일정의 이미지가 아닌 ID입니다');
      const change: ScheduleChange = { scheduleId: id, action: 'update', dates: [current.date, payload.date] };
      await tx.none(
        `UPDATE schedules SET category_id = $2, title = $3, date = $4, time = $5, description = $6, source_name = $7, source_url = $8, updated_at = now()
          WHERE id = $1`,
        [id, ...scheduleColumns(payload)],
      );
      const stamp = s.clock.now();
      const stored = await storePosterFiles(s, id, images, (index, ext) => `${stamp}${index + 1}.${ext}`, written, `schedule/${id}/image`);
      await insertScheduleImages(tx, id, stored, keep.length + 1);
      for (const [position, imageId] of keep.entries()) {
        await tx.none('UPDATE schedule_images SET position = $3 WHERE schedule_id = $1 AND image_id = $2', [id, imageId, position + 1]);
      }
      const keys = await deleteImages(tx, current.imageIds.filter((imageId) => !keep.includes(imageId)));
      await replaceMembers(tx, id, payload.memberIds ?? []);
      await logActivity(tx, admin({ action: 'update', targetType: 'schedule', targetId: id, summary: `일정 '${payload.title}' 수정` }));
      await recordScheduleChange(tx, change);
      return { droppedKeys: keys, change };
    }),
  );
  await deleteFilesAfterCommit(s.storage, s.logger, droppedKeys);
  await afterScheduleCommit(s, change, { syncIndex: true });
}
