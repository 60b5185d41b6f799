// General schedules written by an administrator: POST /api/schedules and PUT
// /api/schedules/:id, multipart like events (a `payload` part and image files) or plain JSON when
// there are no files. Each handler checks, then calls one write of shared/schedules/schedule-writes.ts.
import { ErrorResponse } from '../../schemas/common.ts';
import { IdResponse } from '../../schemas/events.ts';
import { ScheduleCreatePayload, ScheduleUpdatePayload } from '../../schemas/general-schedules.ts';
import { compile } from '../../schemas/validate.ts';
import { badRequest } from '../../shared/errors.ts';
import { assertMembersExist } from '../../shared/members/member-checks.ts';
import { generalCategoryProblem } from '../../shared/schedules/category-writes.ts';
import { checkPrecondition } from '../../shared/precondition.ts';
import { createSchedule, generalScheduleProblem, scheduleNotFound, scheduleState, updateSchedule, type PosterUpload } from '../../shared/schedules/schedule-writes.ts';
import type { Services } from '../../shared/services.ts';
import { reply, type Context } from '../context.ts';
import { IMAGE_UPLOAD_BODY_LIMIT, IMAGE_UPLOAD_LIMITS, readPayloadRequest, type MultipartBody } from '../multipart.ts';
import { parseId } from '../params.ts';
import type { Route } from '../router.ts';
import { processUploads } from '../uploads.ts';

const createPayload = compile(ScheduleCreatePayload, { plainText: true });
const updatePayload = compile(ScheduleUpdatePayload, { plainText: true });

/** The payload and the files: multipart, or a JSON body without files. */
const readRequest = (ctx: Context) => readPayloadRequest(ctx, IMAGE_UPLOAD_LIMITS);

async function check(s: Services, payload: { categoryId: number; memberIds?: number[] }): Promise<void> {
  const problem = await generalCategoryProblem(s, payload.categoryId);
  if (problem) throw badRequest(problem);
  await assertMembersExist(s.db, payload.memberIds ?? []);
}

/** The body's files through the image pool (400/413 before any write). */
async function imagesOf(s: Services, body: MultipartBody): Promise<PosterUpload[]> {
  const images = await processUploads(s.images, body.files);
  return images.map((image, index) => ({ fileName: body.files[index]!.fileName, image }));
}

async function create(s: Services, ctx: Context) {
  const { raw, body } = await readRequest(ctx);
  if (raw === undefined) throw badRequest('요청 본문(payload)이 없습니다.');
  const payload = createPayload.parse(raw);
  await check(s, payload);
  return reply({ id: await createSchedule(s, payload, await imagesOf(s, body)) }, 201);
}

async function update(s: Services, ctx: Context) {
  const id = parseId(ctx.params.id);
  const { raw, body } = await readRequest(ctx);
  if (raw === undefined) throw badRequest('요청 본문(payload)이 없습니다.');
  // Checked early, before the images are decoded, and again under the row's lock by the write.
  const current = await scheduleState(s, id);
  if (!current) throw scheduleNotFound();
  const problem = generalScheduleProblem(current.kind);
  if (problem) throw badRequest(problem);
  checkPrecondition(ctx.precondition, current.version);
  const payload = updatePayload.parse(raw);
  await check(s, payload);
  await updateSchedule(s, id, payload, await imagesOf(s, body), ctx.precondition);
  return reply({ id });
}

export function adminScheduleRoutes(s: Services): Route[] {
  const tags = ['schedules'];
  const multipart = { files: 'file parts: images (posters), in order, whatever their field name', json: true } as const;
  const rules = 'categoryId must name a category other than birthdays (10) and events (11), which have their own paths → else 400; unknown member ids → 400; a file that is not a decodable image → 400 and nothing stored; a file over 20 MB, a body over 100 MB (a JSON body over 1 MB) → 413. Images stored as schedule/<id>/image/NN.<ext> with medium and thumb WebP variants. The month listing, the calendar feeds, the search index and the activity log follow before the answer.';
  return [
    {
      method: 'post', path: '/api/schedules', handler: (ctx) => create(s, ctx), auth: 'admin', bodyLimit: IMAGE_UPLOAD_BODY_LIMIT,
      doc: { summary: 'Create a schedule (any category but birthdays and events)', tags, body: ScheduleCreatePayload, multipart, description: rules, responses: { 201: IdResponse, 400: ErrorResponse, 413: ErrorResponse } },
    },
    {
      method: 'put', path: '/api/schedules/:id', handler: (ctx) => update(s, ctx), auth: 'admin', bodyLimit: IMAGE_UPLOAD_BODY_LIMIT,
      doc: { versioned: 'write', summary: 'Replace a schedule', tags, body: ScheduleUpdatePayload, multipart, description: `Unknown id → 404; an event (use /api/admin/events/:id) or a birthday → 400; keepImageIds naming an image of another schedule → 400. PUT replaces: time, description, source and memberIds not sent are cleared. Images become keepImageIds followed by the new files; dropped images lose their records and files. ${rules}`, responses: { 200: IdResponse, 400: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse } },
    },
  ];
}
