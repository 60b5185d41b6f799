// Event administration, /api/admin/events (api-service.md 4.7): every rule in the spec's order.
import type { Static } from '@sinclair/typebox';
import { ErrorResponse, SuccessResponse } from '../../schemas/common.ts';
import { AdminEvent, EVENT_CATEGORY_ID, EVENT_SUBTYPES, EventCreatePayload, EventUpdatePayload, IdResponse } from '../../schemas/events.ts';
import { compile } from '../../schemas/validate.ts';
import { WriteBatch, type Tx, type Writer } from '../../shared/db/database.ts';
import { logActivity } from '../../shared/db/repositories/activity-log.ts';
import { deleteImages, insertScheduleImages, scheduleImagesInsert, type StoredImage } from '../../shared/db/repositories/images.ts';
import { deleteSchedule, schedulesByIds } from '../../shared/db/repositories/schedules.ts';
import { upsertVenue, venueUpsert } from '../../shared/db/repositories/venues.ts';
import { badRequest, notFound } from '../../shared/errors.ts';
import { afterScheduleCommit, recordScheduleChange, type ScheduleChange } from '../../shared/schedule-changes.ts';
import type { Services } from '../../shared/services.ts';
import type { ProcessedImage } from '../../workers/image-pool.ts';
import { reply, type Context } from '../context.ts';
import { IMAGE_UPLOAD_BODY_LIMIT, IMAGE_UPLOAD_LIMITS, payloadOf, readMultipart, type UploadedFile } from '../multipart.ts';
import { assertMembersExist, parseId } from '../params.ts';
import type { Route } from '../router.ts';
import { deleteFilesAfterCommit, posterExtension, processUploads, storeVariants, variantKeys, withFileCleanup } from '../uploads.ts';

const createPayload = compile(EventCreatePayload);
const updatePayload = compile(EventUpdatePayload);

const isMissing = (value: unknown) => value === undefined || value === null || value === '';
const asObject = (payload: unknown): Record<string, unknown> => {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw badRequest("'payload'는 JSON 객체여야 합니다.");
  return payload as Record<string, unknown>;
};
const eventNotFound = () => notFound('해당 행사 일정을 찾을 수 없습니다.');
const pad2 = (n: number) => String(n).padStart(2, '0');

async function insertMembers(tx: Writer, scheduleId: number, memberIds: number[]): Promise<void> {
  if (memberIds.length > 0) {
    await tx.none('INSERT INTO schedule_members (schedule_id, member_id) SELECT $1, unnest($2::int[])', [scheduleId, memberIds]);
  }
}

async function replaceMembers(tx: Tx, scheduleId: number, memberIds: number[]): Promise<void> {
  await tx.none('DELETE FROM schedule_members WHERE schedule_id = $1', [scheduleId]);
  await insertMembers(tx, scheduleId, memberIds);
}

export function eventRoutes(s: Services): Route[] {
  /**
   * Stores the posters' files (every variant of every poster at once), then their image records and
   * links in one statement; returns the image ids in poster order.
   */
  async function storePosters(tx: Tx, scheduleId: number, files: UploadedFile[], images: ProcessedImage[], firstPosition: number, name: (index: number, ext: string) => string, written: string[]): Promise<number[]> {
    const stored = await storePosterFiles(scheduleId, files, images, name, written);
    return insertScheduleImages(tx, scheduleId, stored, firstPosition);
  }

  /** Stores the posters' files, every variant of every poster at once. */
  async function storePosterFiles(scheduleId: number, files: UploadedFile[], images: ProcessedImage[], name: (index: number, ext: string) => string, written: string[]): Promise<StoredImage[]> {
    // allSettled: a failed write must not leave others still writing after the cleanup ran.
    const results = await Promise.allSettled(images.map((image, index) => {
      const key = `event/${scheduleId}/poster/${name(index, posterExtension(files[index]!.fileName, image.format))}`;
      return storeVariants(s.storage, image, variantKeys(key), written);
    }));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return results.map((result) => (result as PromiseFulfilledResult<StoredImage>).value);
  }

  const withCleanup = <T>(work: (written: string[]) => Promise<T>) => withFileCleanup(s.storage, s.logger, work);
  const deleteFiles = (keys: string[]) => deleteFilesAfterCommit(s.storage, s.logger, keys);

  async function get(ctx: Context) {
    const id = parseId(ctx.params.id);
    const [item] = await schedulesByIds(s.db, [id]);
    if (!item || item.subtype === undefined) throw eventNotFound();
    const event: Static<typeof AdminEvent> = {
      id,
      title: item.title,
      date: item.date,
      time: item.time ?? '',
      subtype: item.subtype,
      schoolName: item.schoolName ?? '',
      memberIds: item.members.map((member) => member.id),
      venue: item.venue ?? null,
      postUrls: item.postUrls ?? [],
      posters: item.posters ?? [],
    };
    return reply(event);
  }

  async function create(ctx: Context) {
    const body = await readMultipart(ctx, IMAGE_UPLOAD_LIMITS);
    const raw = payloadOf(body);
    if (raw === undefined) throw badRequest("'payload' 항목이 없습니다."); // rule 1
    const fields = asObject(raw);
    if (isMissing(fields.title) || isMissing(fields.date) || isMissing(fields.schoolName)) {
      throw badRequest('제목(title), 날짜(date), 학교 이름(schoolName)은 필수입니다.'); // rule 2
    }
    if (fields.subtype !== undefined && !(EVENT_SUBTYPES as readonly unknown[]).includes(fields.subtype)) {
      throw badRequest(`허용되지 않는 행사 종류입니다 (허용: ${EVENT_SUBTYPES.join(', ')}).`); // rule 3
    }
    if (isMissing(fields.venue)) throw badRequest('장소(venue)는 필수입니다.'); // rule 4
    const payload = createPayload.parse(fields);
    const memberIds = payload.memberIds ?? [];
    await assertMembersExist(s.db, memberIds);
    const posters = await processUploads(s.images, body.files);

    // Rule 5 in one transaction; rule 6's files are stored inside it so a failure leaves nothing.
    const scheduleId = await withCleanup((written) =>
      s.db.tx('event-create', async (tx) => {
        // Four round trips in all (BEGIN, these two, COMMIT) where each statement was one: every
        // statement cost the event loop and PostgreSQL about as much again as its work (issue 13).
        // The venue and the schedule row first: the posters' keys carry the schedule's id.
        const { id, venue_id: venueId } = await tx.one<{ id: number; venue_id: number }>(
          `WITH venue AS ($1:raw), created AS (INSERT INTO schedules (category_id, title, date, time) VALUES ($2, $3, $4, $5) RETURNING id)
           SELECT created.id, venue.id AS venue_id FROM created, venue`,
          [venueUpsert(payload.venue), EVENT_CATEGORY_ID, payload.title, payload.date, payload.time || null],
        );
        const stored = await storePosterFiles(id, body.files, posters, (index, ext) => `${pad2(index + 1)}.${ext}`, written);
        // Then the rest in one round trip. The event row takes its poster ids, in order, from the links written before it.
        const batch = new WriteBatch();
        if (stored.length > 0) await batch.none(...scheduleImagesInsert(id, stored, 1));
        await batch.none(
          `INSERT INTO events (schedule_id, subtype, school_name, venue_id, post_urls, poster_image_ids)
           SELECT $1, $2, $3, $4, $5, (SELECT array_agg(image_id ORDER BY position) FROM schedule_images WHERE schedule_id = $1)`,
          [id, payload.subtype ?? 'university', payload.schoolName, venueId, payload.postUrls?.length ? payload.postUrls : null],
        );
        await insertMembers(batch, id, memberIds); // a new schedule has no links to replace
        await logActivity(batch, { actor: 'admin', action: 'create', category: 'schedule', targetType: 'event_schedule', targetId: id, summary: `행사 일정 '${payload.title}' 등록` });
        await recordScheduleChange(batch, { scheduleId: id, action: 'create', dates: [payload.date] });
        await batch.run(tx);
        return id;
      }),
    );
    await afterScheduleCommit(s, { scheduleId, action: 'create', dates: [payload.date] }, { syncIndex: true }); // rule 7
    return reply({ id: scheduleId }, 201);
  }

  async function update(ctx: Context) {
    const body = await readMultipart(ctx, IMAGE_UPLOAD_LIMITS);
    const raw = payloadOf(body);
    if (raw === undefined) throw badRequest("'payload' 항목이 없습니다."); // rule 1
    const id = parseId(ctx.params.id);
    const current = await s.db.oneOrNone<{ date: string; poster_image_ids: number[] | null }>(
      "SELECT to_char(s.date, 'YYYY-MM-DD') AS date, e.poster_image_ids FROM events e JOIN schedules s ON s.id = e.schedule_id WHERE e.schedule_id = $1",
      [id],
    );
    if (!current) throw eventNotFound(); // rule 2
    const payload = updatePayload.parse(asObject(raw));
    const memberIds = payload.memberIds ?? [];
    const currentPosters = current.poster_image_ids ?? [];
    const keep = payload.keepPosterIds ?? [];
    const foreign = keep.filter((posterId) => !currentPosters.includes(posterId));
    if (foreign.length > 0) throw badRequest(`이 행사의 포스터가 아닌 ID입니다: ${foreign.join(', ')}`);
    await assertMembersExist(s.db, memberIds);
    const posters = await processUploads(s.images, body.files);

    const change: ScheduleChange = { scheduleId: id, action: 'update', dates: [current.date, payload.date ?? current.date] };
    const droppedKeys = await withCleanup((written) =>
      s.db.tx('event-update', async (tx) => {
        // Rule 3: title and date keep their values when not sent (they cannot be empty); the rest follow the payload.
        const { title } = await tx.one<{ title: string }>(
          'UPDATE schedules SET title = COALESCE($2, title), date = COALESCE($3, date), time = $4, updated_at = now() WHERE id = $1 RETURNING title',
          [id, payload.title ?? null, payload.date ?? null, payload.time || null],
        );
        const venueId = payload.venue ? await upsertVenue(tx, payload.venue) : null;
        // Rule 4: new posters named from the time in milliseconds and their position.
        const stamp = s.clock.now();
        const newIds = await storePosters(tx, id, body.files, posters, keep.length + 1, (index, ext) => `${stamp}${index + 1}.${ext}`, written);
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
        const dropped = currentPosters.filter((posterId) => !keep.includes(posterId));
        const keys = await deleteImages(tx, dropped);
        await logActivity(tx, { actor: 'admin', action: 'update', category: 'schedule', targetType: 'event_schedule', targetId: id, summary: `행사 일정 '${title}' 수정` });
        await recordScheduleChange(tx, change);
        return keys;
      }),
    );
    await deleteFiles(droppedKeys);
    await afterScheduleCommit(s, change, { syncIndex: true }); // rule 6
    return reply({ id });
  }

  async function remove(ctx: Context) {
    const id = parseId(ctx.params.id);
    const deleted = await s.db.tx('event-delete', async (tx) => {
      const isEvent = await tx.oneOrNone('SELECT 1 FROM events WHERE schedule_id = $1 FOR UPDATE', [id]);
      if (!isEvent) return null;
      const result = await deleteSchedule(tx, id);
      if (!result) return null;
      await logActivity(tx, { actor: 'admin', action: 'delete', category: 'schedule', targetType: 'event_schedule', targetId: id, summary: `행사 일정 '${result.title}' 삭제` });
      await recordScheduleChange(tx, { scheduleId: id, action: 'delete', dates: [result.date] });
      return result;
    });
    if (!deleted) throw eventNotFound(); // rule 1
    await deleteFiles(deleted.imageKeys);
    // Rule 3: this route does not touch the index; the indexer drops the entry from the outbox entry.
    await afterScheduleCommit(s, { scheduleId: id, action: 'delete', dates: [deleted.date] }, { syncIndex: false });
    return reply({ success: true });
  }

  const tags = ['events'];
  const multipart = { files: 'file parts: posters, in order, whatever their field name (clients send `posters`)' };
  return [
    { method: 'get', path: '/api/admin/events/:id', handler: get, auth: 'admin', doc: { summary: 'An event schedule for editing', tags, responses: { 200: AdminEvent, 400: ErrorResponse, 404: ErrorResponse } } },
    {
      method: 'post', path: '/api/admin/events', handler: create, auth: 'admin', bodyLimit: IMAGE_UPLOAD_BODY_LIMIT,
      doc: { summary: 'Create an event schedule with posters', tags, body: EventCreatePayload, multipart, description: 'Rules: no payload → 400; title, date or schoolName missing → 400; subtype not allowed → 400; venue missing → 400; unknown member ids → 400; a file that is not a decodable image → 400 and nothing stored; a file over 20 MB, a body over 100 MB, or an image over the pixel limit → 413. Posters stored as event/<id>/poster/NN.<ext>.', responses: { 201: IdResponse, 400: ErrorResponse, 413: ErrorResponse } },
    },
    {
      method: 'put', path: '/api/admin/events/:id', handler: update, auth: 'admin', bodyLimit: IMAGE_UPLOAD_BODY_LIMIT,
      doc: { summary: 'Update an event schedule', tags, body: EventUpdatePayload, multipart, description: 'No payload → 400; unknown event → 404; keepPosterIds naming a poster of another event → 400. Fields not sent: title and date keep their values; time, venue, schoolName, postUrls, memberIds are cleared (PUT replaces). Posters become keepPosterIds followed by the new files; dropped posters lose their image records and files.', responses: { 200: IdResponse, 400: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse } },
    },
    { method: 'delete', path: '/api/admin/events/:id', handler: remove, auth: 'admin', doc: { summary: 'Delete an event schedule', tags, responses: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse } } },
  ];
}
