// Bot administration, /api/admin/bots (api-service.md 4.5), and the platform schedule routes,
// /api/admin/video and /api/admin/microblog (4.6); decisions.md "Bots and platform records".
// The bot operations are workers/bots/bot-admin.ts's, the schedule writes schedule-writes.ts's;
// here the requests are checked and the platforms' failures become HTTP answers.
import { Type } from '@sinclair/typebox';
import {
  Bot,
  BotId,
  BotStatusResponse,
  PostInfo,
  PostScheduleCreate,
  QuotaWarning,
  SyncAllResponse,
  UrlQuery,
  VideoInfo,
  VideoScheduleCreate,
  VideoScheduleUpdate,
} from '../../schemas/bots.ts';
import { ErrorResponse, SuccessResponse } from '../../schemas/common.ts';
import { IdResponse } from '../../schemas/events.ts';
import { compile } from '../../schemas/validate.ts';
import { badRequest, conflict, HttpError, notFound } from '../../shared/errors.ts';
import { assertMembersExist } from '../../shared/members/member-checks.ts';
import { parsePostUrl } from '../../shared/microblog/post-url.ts';
import { CircuitOpenError } from '../../shared/runtime/circuit-breaker.ts';
import type { PostCollected, VideoCollected } from '../../shared/schedules/collected.ts';
import { savePostSchedule, saveVideoSchedule, updateVideoSchedule } from '../../shared/schedules/schedule-writes.ts';
import type { Services } from '../../shared/services.ts';
import { QuotaExceededError, VideoPlatformError } from '../../shared/video/platform-client.ts';
import { extractVideoId } from '../../shared/video/video-url.ts';
import { BotAdmin } from '../../workers/bots/bot-admin.ts';
import { BotUnavailableError } from '../../workers/bots/bot-runner.ts';
import { BrowserNotFoundError } from '../../workers/bots/browser.ts';
import { MicroblogReadError } from '../../workers/bots/microblog-reader.ts';
import { PassAbortedError } from '../../workers/bots/video-bot.ts';
import { reply, type Context } from '../context.ts';
import { parseId } from '../params.ts';
import type { Route } from '../router.ts';

const videoCreate = compile(VideoScheduleCreate, { plainText: true });
const videoUpdate = compile(VideoScheduleUpdate, { plainText: true });
const postCreate = compile(PostScheduleCreate, { plainText: true });

const BOT_ID = /^[a-z0-9-]{1,64}$/;
const botNotFound = () => notFound('해당 봇을 찾을 수 없습니다.');

/** The `url` query parameter, present and not blank. */
function urlParam(ctx: Context): string {
  const url = ctx.query.get('url');
  if (url === null || url.trim() === '') throw badRequest("'url' 항목이 필요합니다.");
  return url;
}

/** Platform and mirror failures as HTTP answers (the quota warning is already set by then). */
function platformFailure(error: unknown): never {
  if (error instanceof QuotaExceededError) throw new HttpError(503, error.message);
  if (error instanceof BotUnavailableError) throw new HttpError(503, error.message);
  if (error instanceof VideoPlatformError) throw new HttpError(error.reason === 'timeout' ? 504 : 502, error.message);
  if (error instanceof MicroblogReadError) throw new HttpError(error.status, error.message);
  if (error instanceof CircuitOpenError) throw new HttpError(503, error.message, { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) });
  if (error instanceof BrowserNotFoundError) throw new HttpError(503, error.message);
  if (error instanceof PassAbortedError) throw new HttpError(503, '서버가 종료되는 중입니다. 잠시 후 다시 시도해 주세요.', {}, 'shutting_down');
  throw error;
}

// ---- 4.5 bots ----

const setStatus = (admin: BotAdmin, status: 'running' | 'stopped') => async (ctx: Context) => {
  const id = ctx.params.id!;
  const updated = BOT_ID.test(id) ? await admin.setStatus(id, status) : null;
  if (!updated) throw botNotFound();
  return reply({ success: true, status: updated.status });
};

async function syncAll(admin: BotAdmin, ctx: Context) {
  const id = ctx.params.id!;
  const result = BOT_ID.test(id) ? await admin.syncAll(id).catch(platformFailure) : null;
  if (!result) throw botNotFound();
  return reply({ success: true, added: result.added, total: result.total });
}

const getQuotaWarning = async (admin: BotAdmin) => reply(await admin.quotaWarning());

async function deleteQuotaWarning(admin: BotAdmin) {
  await admin.clearQuotaWarning();
  return reply({ success: true });
}

// ---- 4.6 video ----

async function videoInfo(admin: BotAdmin, ctx: Context) {
  const videoId = extractVideoId(urlParam(ctx));
  if (videoId === null) throw badRequest('영상 주소(watch, shorts, youtu.be 형식) 또는 11자리 영상 ID가 아닙니다.');
  const info = await admin.lookupVideo(videoId).catch(platformFailure);
  if (!info) throw notFound('해당 영상을 찾을 수 없습니다.');
  return reply(info);
}

async function createVideoSchedule(s: Services, ctx: Context) {
  const body = videoCreate.parse(await ctx.json());
  const memberIds = body.memberIds ?? [];
  await assertMembersExist(s.db, memberIds);
  const video: VideoCollected = {
    videoId: body.videoId,
    title: body.title,
    description: body.description ?? '',
    channelId: body.channelId ?? null,
    channelName: body.channelName ?? null,
    publishedAt: body.publishedAt ?? `${body.date}T${body.time}:00+09:00`,
    date: body.date,
    time: body.time,
    thumbnailUrl: body.thumbnailUrl ?? null,
    videoType: body.videoType ?? 'video',
    memberIds,
    botId: null,
  };
  const id = await saveVideoSchedule(s, video);
  if (id === null) throw conflict('이 영상은 이미 일정으로 등록되어 있습니다.', 'already_scheduled');
  return reply({ id }, 201);
}

async function updateVideo(s: Services, ctx: Context) {
  const id = parseId(ctx.params.id);
  const body = videoUpdate.parse(await ctx.json());
  if (body.memberIds) await assertMembersExist(s.db, body.memberIds);
  const updated = await updateVideoSchedule(s, id, {
    ...(body.title !== undefined ? { title: body.title } : {}),
    ...(body.date !== undefined ? { date: body.date } : {}),
    ...(body.time !== undefined ? { time: body.time || null } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.memberIds !== undefined ? { memberIds: body.memberIds } : {}),
  }, ctx.precondition);
  if (!updated) throw notFound('해당 영상 일정을 찾을 수 없습니다.');
  return reply({ id });
}

// ---- 4.6 microblog ----

async function postInfo(s: Services, admin: BotAdmin, ctx: Context) {
  const mirrorUrl = s.config.microblog.mirrorUrl;
  const ref = parsePostUrl(urlParam(ctx), { mirrorUrl: mirrorUrl ?? undefined });
  if (ref === null) throw badRequest('마이크로블로그 게시물 주소가 아닙니다 (플랫폼 또는 설정된 미러의 /<계정>/status/<번호> 형식만 허용).');
  return reply(await admin.lookupPost(ref).catch(platformFailure));
}

async function createPostSchedule(s: Services, ctx: Context) {
  const body = postCreate.parse(await ctx.json());
  const memberIds = body.memberIds ?? [];
  await assertMembersExist(s.db, memberIds);
  const post: PostCollected = {
    postId: body.postId,
    username: body.username,
    displayName: body.displayName ?? null,
    text: body.text,
    createdAt: body.createdAt ?? `${body.date}T${body.time}:00+09:00`,
    date: body.date,
    time: body.time,
    imageUrls: body.imageUrls ?? [],
    memberIds,
    botId: null,
  };
  const id = await savePostSchedule(s, post);
  if (id === null) throw conflict('이 게시물은 이미 일정으로 등록되어 있습니다.', 'already_scheduled');
  return reply({ id }, 201);
}

export function botRoutes(s: Services): Route[] {
  const admin = new BotAdmin(s);
  const bots = ['bots'];
  const platform = ['platform schedules'];
  const failures = { 404: ErrorResponse };
  /** Bots are named by their BOTS_CONFIG id, not a number. */
  const botParams = { id: BotId };
  return [
    { method: 'get', path: '/api/admin/bots', handler: async () => reply(await admin.list()), auth: 'admin', doc: { summary: 'List the bots defined by BOTS_CONFIG with their state', tags: bots, responses: { 200: Type.Array(Bot) } } },
    {
      method: 'post', path: '/api/admin/bots/:id/start', handler: setStatus(admin, 'running'), auth: 'admin',
      doc: { summary: 'Start a bot', tags: bots, params: botParams, description: 'Clears its error and makes it due now. The runner of the bots role (one active instance) follows the state within seconds.', responses: { 200: BotStatusResponse, ...failures } },
    },
    { method: 'post', path: '/api/admin/bots/:id/stop', handler: setStatus(admin, 'stopped'), auth: 'admin', doc: { summary: 'Stop a bot (a pass in flight finishes)', tags: bots, params: botParams, responses: { 200: BotStatusResponse, ...failures } } },
    {
      method: 'post', path: '/api/admin/bots/:id/sync-all', handler: (ctx) => syncAll(admin, ctx), auth: 'admin',
      doc: {
        summary: 'Full synchronisation: every page of the channel or timeline',
        tags: bots,
        params: botParams,
        description: 'Runs in the request. A call while a full pass of the same bot runs (started by this edge process) joins it: it answers when that pass ends, with the same result, and reads the platform no further. Items that pass the filter and have no schedule yet are handed to the schedule writer (`added`); `total` counts the items that pass the filter. Idempotent: a second run adds 0 once the first is stored. Quota exhausted → 503 and the quota warning set; other platform failures → 502 (504 on timeout), and the bot shows the error.',
        responses: { 200: SyncAllResponse, 404: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse, 504: ErrorResponse },
      },
    },
    {
      method: 'get', path: '/api/admin/bots/quota-warning', handler: () => getQuotaWarning(admin), auth: 'admin',
      doc: { summary: 'The video platform quota warning', tags: bots, description: 'Active from the platform answering quotaExceeded until its daily reset (midnight America/Los_Angeles, `resumeAt`); video bots pause meanwhile.', responses: { 200: QuotaWarning } },
    },
    { method: 'delete', path: '/api/admin/bots/quota-warning', handler: () => deleteQuotaWarning(admin), auth: 'admin', doc: { summary: 'Clear the quota warning (video bots resume)', tags: bots, responses: { 200: SuccessResponse } } },
    {
      method: 'get', path: '/api/admin/video/video-info', handler: (ctx) => videoInfo(admin, ctx), auth: 'admin',
      doc: {
        summary: 'Look up a video by URL or id',
        tags: platform,
        query: UrlQuery,
        description: 'Accepts watch, shorts, live, embed and youtu.be URLs of the platform and bare 11-character ids; anything else → 400. The URL is never fetched: the id is read through the configured API. Unknown video → 404; quota exhausted → 503 and the warning set.',
        responses: { 200: VideoInfo, 400: ErrorResponse, 404: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse },
      },
    },
    {
      method: 'post', path: '/api/admin/video/schedule', handler: (ctx) => createVideoSchedule(s, ctx), auth: 'admin',
      doc: { summary: 'Save a schedule from a video', tags: platform, body: VideoScheduleCreate, description: 'The video-info fields, title/date/time/memberIds/description possibly edited. 409 when the video already has a schedule.', responses: { 201: IdResponse, 400: ErrorResponse, 409: ErrorResponse } },
    },
    {
      method: 'put', path: '/api/admin/video/schedule/:id', handler: (ctx) => updateVideo(s, ctx), auth: 'admin',
      doc: { versioned: 'write', summary: 'Update a video schedule', tags: platform, body: VideoScheduleUpdate, description: 'Fields not sent keep their values; time null or "" clears it; memberIds replaces the links. 404 when the schedule is not a video schedule.', responses: { 200: IdResponse, 400: ErrorResponse, 404: ErrorResponse } },
    },
    {
      method: 'get', path: '/api/admin/microblog/post-info', handler: (ctx) => postInfo(s, admin, ctx), auth: 'admin',
      doc: {
        summary: 'Look up a post by URL',
        tags: platform,
        query: UrlQuery,
        description: 'Only status URLs of the platform or of the configured mirror; others → 400. Read through the mirror in headless Chromium. Unknown post → 404; mirror down → 502/503; MICROBLOG_MIRROR_URL unset → 503.',
        responses: { 200: PostInfo, 400: ErrorResponse, 404: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse, 504: ErrorResponse },
      },
    },
    {
      method: 'post', path: '/api/admin/microblog/schedule', handler: (ctx) => createPostSchedule(s, ctx), auth: 'admin',
      doc: { summary: 'Save a schedule from a post', tags: platform, body: PostScheduleCreate, description: 'Title: the first line of the text. 409 when the post already has a schedule.', responses: { 201: IdResponse, 400: ErrorResponse, 409: ErrorResponse } },
    },
  ];
}
