// Event administration, /api/admin/events (api-service.md 4.7): each handler checks the spec's
// rules in the spec's order, then calls one write of shared/schedules/schedule-writes.ts.
import type { Static } from '@sinclair/typebox';
import { ErrorResponse, SuccessResponse } from '../../schemas/common.ts';
import { AdminEvent, EVENT_SUBTYPES, EventCreatePayload, EventUpdatePayload, IdResponse } from '../../schemas/events.ts';
import { compile } from '../../schemas/validate.ts';
import { scheduleVersion, schedulesByIds } from '../../shared/db/repositories/schedules.ts';
import { badRequest } from '../../shared/errors.ts';
import { assertMembersExist } from '../../shared/members/member-checks.ts';
import { checkPrecondition } from '../../shared/precondition.ts';
import { createEvent, deleteSchedule, eventNotFound, scheduleState, updateEvent, type PosterUpload } from '../../shared/schedules/schedule-writes.ts';
import type { Services } from '../../shared/services.ts';
import { reply, type Context } from '../context.ts';
import { IMAGE_UPLOAD_BODY_LIMIT, IMAGE_UPLOAD_LIMITS, readPayloadRequest, type MultipartBody } from '../multipart.ts';
import { parseId } from '../params.ts';
import type { Route } from '../router.ts';
import { processUploads } from '../uploads.ts';

const createPayload = compile(EventCreatePayload, { plainText: true });
const updatePayload = compile(EventUpdatePayload, { plainText: true });

const isMissing = (value: unknown) => value === undefined || value === null || value === '';
const asObject = (payload: unknown): Record<string, unknown> => {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw badRequest("'payload'는 JSON 객체여야 합니다.");
  return payload as Record<string, unknown>;
};

/** The body's files through the image pool (400/413 before any write), with their names. */
async function postersOf(s: Services, body: MultipartBody): Promise<PosterUpload[]> {
  const images = await processUploads(s.images, body.files);
  return images.map((image, index) => ({ fileName: body.files[index]!.fileName, image }));
}

async function get(s: Services, ctx: Context) {
  const id = parseId(ctx.params.id);
  const [item] = await schedulesByIds(s.db, [id]);
  if (!item || item.subtype === undefined) throw eventNotFound();
  // The version after the item: a write between the two reads makes the tag older, never newer (If-Match then fails safe).
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
  const version = await scheduleVersion(s.db, id);
  return version === null ? reply(event) : { ...reply(event), version };
}

async function create(s: Services, ctx: Context) {
  const { raw, body } = await readPayloadRequest(ctx, IMAGE_UPLOAD_LIMITS);
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
  await assertMembersExist(s.db, payload.memberIds ?? []);
  const posters = await postersOf(s, body);
  return reply({ id: await createEvent(s, payload, posters) }, 201); // rules 5 to 7
}

async function update(s: Services, ctx: Context) {
  const { raw, body } = await readPayloadRequest(ctx, IMAGE_UPLOAD_LIMITS);
  if (raw === undefined) throw badRequest("'payload' 항목이 없습니다."); // rule 1
  const id = parseId(ctx.params.id);
  // Checked early, before the posters are decoded, and again under the row's lock by the write.
  const current = await scheduleState(s, id);
  if (!current?.isEvent) throw eventNotFound(); // rule 2
  checkPrecondition(ctx.precondition, current.version);
  const payload = updatePayload.parse(asObject(raw));
  await assertMembersExist(s.db, payload.memberIds ?? []);
  const posters = await postersOf(s, body);
  await updateEvent(s, id, payload, posters, ctx.precondition); // rules 3 to 6
  return reply({ id });
}

async function remove(s: Services, ctx: Context) {
  const id = parseId(ctx.params.id);
  // Rule 3: the index is left to the indexer, which drops the entry from the outbox entry.
  if (!(await deleteSchedule(s, id, { eventsOnly: true, precondition: ctx.precondition }))) throw eventNotFound(); // rule 1
  return reply({ success: true });
}

export function eventRoutes(s: Services): Route[] {
  const tags = ['events'];
  const multipart = { files: 'file parts: posters, in order, whatever their field name (clients send `posters`)', json: true } as const;
  return [
    { method: 'get', path: '/api/admin/events/:id', handler: (ctx) => get(s, ctx), auth: 'admin', doc: { versioned: 'read', summary: 'An event schedule for editing', tags, responses: { 200: AdminEvent, 400: ErrorResponse, 404: ErrorResponse } } },
    {
      method: 'post', path: '/api/admin/events', handler: (ctx) => create(s, ctx), auth: 'admin', bodyLimit: IMAGE_UPLOAD_BODY_LIMIT,
      doc: { summary: 'Create an event schedule with posters', tags, body: EventCreatePayload, multipart, description: 'Rules: no payload → 400; title, date or schoolName missing → 400; subtype not allowed → 400; venue missing → 400; unknown member ids → 400; a file that is not a decodable image → 400 and nothing stored; a file over 20 MB, a body over 100 MB (a JSON body over 1 MB), or an image over the pixel limit → 413. Posters stored as event/<id>/poster/NN.<ext>.', responses: { 201: IdResponse, 400: ErrorResponse, 413: ErrorResponse } },
    },
    {
      method: 'put', path: '/api/admin/events/:id', handler: (ctx) => update(s, ctx), auth: 'admin', bodyLimit: IMAGE_UPLOAD_BODY_LIMIT,
      doc: { versioned: 'write', summary: 'Update an event schedule', tags, body: EventUpdatePayload, multipart, description: 'No payload → 400; unknown event → 404; keepPosterIds naming a poster of another event → 400. Fields not sent: title and date keep their values; time, venue, schoolName, postUrls, memberIds are cleared (PUT replaces). Posters become keepPosterIds followed by the new files; dropped posters lose their image records and files.', responses: { 200: IdResponse, 400: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse } },
    },
    { method: 'delete', path: '/api/admin/events/:id', handler: (ctx) => remove(s, ctx), auth: 'admin', doc: { versioned: 'write', summary: 'Delete an event schedule', tags, responses: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse } } },
  ];
}
