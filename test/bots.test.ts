// Bots and platform records (api-service.md 4.5, 4.6; decisions.md "Bots and platform records"):
// the real service with BOTS_CONFIG, the local fake of the video platform, and the fake mirror read
// through real Chromium. Serial: the fake's failNext and quota state are shared by every request.
import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../shared/runtime/config.ts';
import { botById, syncBotDefinitions } from '../shared/db/repositories/bots.ts';
import { BotUnavailableError, createBotDeps, loadBotDefinitions, MICROBLOG_UNAVAILABLE, parseBotDefinitions, runBotPass } from '../workers/bots/bot-runner.ts';
import { snowflakeFor, startFakeMirror, type FakeMirror, type FakePost } from './fakes/microblog-mirror.ts';
import { startFakeVideoPlatform, type FakeVideo, type FakeVideoPlatform } from './fakes/video-platform.ts';
import { insertMember } from './helpers/factory.ts';
import { adminToken, call, startTestService, type TestService } from './helpers/service.ts';
import { waitFor } from './helpers/wait.ts';

const API_KEY = 'AIzaBotsTestKey-0123456789';
const MAIN_CHANNEL = 'UCmainchannel0000000000a';
const SUB_CHANNEL = 'UCsubchannel00000000000b';
const BROKEN_CHANNEL = 'UCbrokenchannel0000000c';
const QUOTA_CHANNEL = 'UCquotachannel000000000d';
const ACCOUNT = 'lumine_official';
const GROUP_NAMES = ['루미네', 'LUMINE'];

// A fresh database numbers members from 1: the config below names them before they exist.
const HARIN = 1;
const SEOA = 2;
const YUNA = 3;
const DAON = 4; // former member

const BOTS = [
  {
    id: 'main-channel', name: '루미네 공식 채널', type: 'video', intervalMinutes: 30,
    config: { channelId: MAIN_CHANNEL, channelName: 'LUMINE 루미네', titleFilter: { include: ['루미네', 'vlog'], exclude: ['광고'] }, defaultMemberIds: [], extractMembers: true, groupNames: GROUP_NAMES },
  },
  {
    id: 'sub-channel', name: '하린 개인 채널', type: 'video', intervalMinutes: 60,
    config: { channelId: SUB_CHANNEL, channelName: '하리니 TV', titleFilter: { include: [], exclude: [] }, defaultMemberIds: [HARIN], extractMembers: false },
  },
  { id: 'broken-channel', name: '오류 채널', type: 'video', intervalMinutes: 30, config: { channelId: BROKEN_CHANNEL, channelName: '오류', titleFilter: { include: [], exclude: [] }, defaultMemberIds: [], extractMembers: true } },
  { id: 'quota-channel', name: '할당량 채널', type: 'video', intervalMinutes: 30, config: { channelId: QUOTA_CHANNEL, channelName: '할당량' } },
  { id: 'official-posts', name: '공식 계정', type: 'microblog', intervalMinutes: 15, config: { username: ACCOUNT, groupNames: GROUP_NAMES } },
];

let fake: FakeVideoPlatform;
let mirror: FakeMirror;
let service: TestService;
let token: string;
let configDir: string;
let botsFile: string;

const db = () => service.running.services.db;
const api = (method: string, path: string, json?: unknown, auth: string | null = token) =>
  call(service.url, method, path, { ...(json === undefined ? {} : { json }), ...(auth ? { token: auth } : {}) });

const videoCount = async (channelId: string) =>
  (await db().one<{ n: number }>('SELECT count(*)::int AS n FROM video_schedules WHERE channel_id = $1', [channelId])).n;
const membersOfVideo = async (videoId: string) =>
  (await db().any<{ member_id: number }>('SELECT m.member_id FROM video_schedules v JOIN schedule_members m USING (schedule_id) WHERE v.video_id = $1 ORDER BY 1', [videoId])).map((row) => row.member_id);
const bot = async (id: string) => ((await api('GET', '/api/admin/bots/')).body as Array<Record<string, any>>).find((b) => b.id === id)!;

/** 120 uploads an hour apart, oldest first; every fifth title a different case of the filter. */
function mainChannelVideos(): FakeVideo[] {
  const start = Date.parse('2026-03-01T15:30:00Z'); // 00:30 the next day in Seoul
  return Array.from({ length: 120 }, (_, i) => {
    const titles = [`루미네 컴백 무대 ${i}`, `하리니 vlog ${i}`, `강서아 정유나 vlog ${i}`, `루미네 광고 촬영 ${i}`, `다른 그룹 영상 ${i}`];
    return {
      videoId: `main${String(i).padStart(7, '0')}`,
      title: titles[i % 5]!,
      publishedAt: new Date(start + i * 3_600_000).toISOString(),
      ...(i === 5 ? { duration: 'PT45S' } : {}),
      ...(i === 6 ? { description: '챌린지 #shorts' } : {}),
    };
  });
}

test.before(async () => {
  fake = await startFakeVideoPlatform({ apiKey: API_KEY });
  mirror = await startFakeMirror();
  configDir = await mkdtemp(join(tmpdir(), 'bots-test-'));
  botsFile = join(configDir, 'bots.json');
  await writeFile(botsFile, JSON.stringify(BOTS));
  fake.setChannel(MAIN_CHANNEL, mainChannelVideos(), { title: 'LUMINE 루미네' });
  fake.setChannel(SUB_CHANNEL, [
    { videoId: 'sub00000001', title: '오늘의 일상', publishedAt: '2026-03-02T03:00:00Z' },
    { videoId: 'sub00000002', title: '루미네 연습실', publishedAt: '2026-03-03T03:00:00Z' },
  ]);
  fake.setChannel(BROKEN_CHANNEL, [{ videoId: 'brk00000001', title: '오류 영상', publishedAt: '2026-03-02T03:00:00Z' }]);
  fake.setChannel(QUOTA_CHANNEL, [{ videoId: 'quo00000001', title: '할당량 영상', publishedAt: '2026-03-02T03:00:00Z' }]);
  service = await startTestService({
    BOTS_CONFIG: botsFile,
    VIDEO_API_URL: fake.url,
    VIDEO_API_KEY: API_KEY,
    MICROBLOG_MIRROR_URL: mirror.url,
    // Unset: the service looks the browser up as `npm start` does (PATH, then the npm package).
    ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
  });
  token = await adminToken(service.url);
  const inserted = [
    await insertMember(db(), { name: '윤하린', nicknames: ['하리니'] }),
    await insertMember(db(), { name: '강서아', nicknames: ['서아공주'] }),
    await insertMember(db(), { name: '정유나', nicknames: ['유나비'] }),
    await insertMember(db(), { name: '백다온', nicknames: ['다옹이'], isFormer: true }),
  ];
  if (inserted.map((member) => member.id).join() !== [HARIN, SEOA, YUNA, DAON].join()) throw new Error('member ids are not 1..4');
});

test.after.always(async () => {
  await service?.stop();
  await fake?.close();
  await mirror?.close();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

// ---- BOTS_CONFIG ----------------------------------------------------------------------------------

test.serial('BOTS_CONFIG: every bot is in the table, stopped the first time, listed with its state and config', async (t) => {
  const rows = await db().any<{ id: string; status: string }>('SELECT id, status FROM bots ORDER BY id');
  t.deepEqual(rows.map((row) => row.id), BOTS.map((b) => b.id).sort());
  t.true(rows.every((row) => row.status === 'stopped'));

  const response = await api('GET', '/api/admin/bots/');
  t.is(response.status, 200);
  const main = response.body.find((b: { id: string }) => b.id === 'main-channel');
  t.deepEqual(Object.keys(main).sort(), ['config', 'errorMessage', 'id', 'intervalMinutes', 'lastAddedCount', 'lastCheckAt', 'name', 'nextRunAt', 'progress', 'scheduleCount', 'status', 'type']);
  t.like(main, { name: '루미네 공식 채널', type: 'video', status: 'stopped', intervalMinutes: 30, lastCheckAt: null, lastAddedCount: 0, scheduleCount: 0, errorMessage: null, progress: null });
  t.deepEqual(main.config, BOTS[0]!.config);
  // Defaults are filled in for the optional video settings.
  t.deepEqual((await bot('quota-channel')).config, { channelId: QUOTA_CHANNEL, channelName: '할당량', titleFilter: { include: [], exclude: [] }, defaultMemberIds: [], extractMembers: true, groupNames: [] });
  t.deepEqual((await bot('official-posts')).config, { username: ACCOUNT, groupNames: GROUP_NAMES });
});

test.serial('BOTS_CONFIG: a bad file stops the start with one line naming BOTS_CONFIG', async (t) => {
  const bad = (raw: unknown) => t.throws(() => parseBotDefinitions(raw), { instanceOf: ConfigError });
  t.regex(bad({ id: 'x' })!.message, /^BOTS_CONFIG: expected a JSON array/);
  t.regex(bad([{ ...BOTS[0], id: 'Bad_Id' }])!.message, /^BOTS_CONFIG: bot 0\.id: /);
  t.regex(bad([{ ...BOTS[0], type: 'radio' }])!.message, /^BOTS_CONFIG: bot 0\.type/);
  t.regex(bad([{ ...BOTS[0], intervalMinutes: 0 }])!.message, /intervalMinutes/);
  t.regex(bad([{ ...BOTS[0], config: { channelName: 'x' } }])!.message, /^BOTS_CONFIG: bot 0 \(main-channel\) config\.channelId: /);
  t.regex(bad([{ ...BOTS[4], config: { username: 'not a name!' } }])!.message, /config\.username/);
  t.regex(bad([BOTS[0], BOTS[0]])!.message, /duplicate id "main-channel"/);
  t.false(bad([{ ...BOTS[0], id: 'Bad_Id' }])!.message.includes('\n'), 'one line');

  const broken = join(configDir, 'broken.json');
  await writeFile(broken, '[{"id": "a",');
  const error = await t.throwsAsync(loadBotDefinitions(broken), { instanceOf: ConfigError });
  t.is(error.variable, 'BOTS_CONFIG');
  t.regex(error.message, /not valid JSON/);
  const missing = await t.throwsAsync(loadBotDefinitions(join(configDir, 'nope.json')), { instanceOf: ConfigError });
  t.regex(missing.message, /^BOTS_CONFIG: cannot read .*ENOENT/);
  // The real start refuses it too.
  await t.throwsAsync(startTestService({ BOTS_CONFIG: broken }), { instanceOf: ConfigError, message: /^BOTS_CONFIG: / });
});

// ---- start, stop ------------------------------------------------------------------------------

test.serial('start and stop answer {success, status}; an unknown bot is 404', async (t) => {
  const started = await api('POST', '/api/admin/bots/quota-channel/start');
  t.is(started.status, 200);
  t.deepEqual(started.body, { success: true, status: 'running' });
  const stopped = await api('POST', '/api/admin/bots/quota-channel/stop');
  t.deepEqual(stopped.body, { success: true, status: 'stopped' });
  t.is((await bot('quota-channel')).status, 'stopped');
  for (const path of ['/api/admin/bots/nobody/start', '/api/admin/bots/nobody/stop', '/api/admin/bots/nobody/sync-all', '/api/admin/bots/NOT%20A%20BOT/start']) {
    const response = await api('POST', path);
    t.is(response.status, 404, path);
    t.is(typeof response.body.error, 'string');
  }
  const logged = await db().one<{ n: number }>("SELECT count(*)::int AS n FROM activity_log WHERE target_type = 'bot' AND target_id = 'quota-channel'");
  t.is(logged.n, 2);
});

// ---- video bot ----------------------------------------------------------------------------------

test.serial('sync-all walks every page: title filter, shorts, Seoul dates, members by name, nickname and group name', async (t) => {
  const before = fake.requests.length;
  const response = await api('POST', '/api/admin/bots/main-channel/sync-all');
  t.is(response.status, 200, JSON.stringify(response.body));
  t.deepEqual(response.body, { success: true, added: 72, total: 72 });
  // This channel's calls only: a pass of another bot started by an earlier test may still be running.
  const calls = fake.requests.slice(before).filter((r) => (r.params.playlistId ?? r.params.id ?? '').includes('main'));
  t.is(calls.filter((r) => r.endpoint === 'playlistItems').length, 3, '120 uploads = 3 pages of 50');
  t.is(calls.filter((r) => r.endpoint === 'videos').length, 2, '72 new videos = 2 details calls of at most 50');
  t.is(calls.filter((r) => r.endpoint === 'channels').length, 0, 'UC… channels use the UU… uploads playlist without a lookup');

  await waitFor('the schedule writer', async () => (await videoCount(MAIN_CHANNEL)) === 72);
  t.deepEqual(await membersOfVideo('main0000000'), [HARIN, SEOA, YUNA], 'group name: every current member');
  t.deepEqual(await membersOfVideo('main0000001'), [HARIN], 'nickname');
  t.deepEqual(await membersOfVideo('main0000002'), [SEOA, YUNA], 'names');
  t.is(await db().oneOrNone("SELECT 1 FROM video_schedules WHERE video_id = 'main0000003'"), null, 'exclude wins');
  t.is(await db().oneOrNone("SELECT 1 FROM video_schedules WHERE video_id = 'main0000004'"), null, 'not included');

  const row = await db().one<{ title: string; date: string; time: string; video_type: string; channel_name: string; category_id: number; source_url: string }>(
    "SELECT s.title, to_char(s.date, 'YYYY-MM-DD') AS date, to_char(s.time, 'HH24:MI') AS time, v.video_type, v.channel_name, s.category_id, s.source_url FROM video_schedules v JOIN schedules s ON s.id = v.schedule_id WHERE v.video_id = 'main0000000'",
  );
  t.deepEqual(row, { title: '루미네 컴백 무대 0', date: '2026-03-02', time: '00:30', video_type: 'video', channel_name: 'LUMINE 루미네', category_id: 6, source_url: 'https://www.youtube.com/watch?v=main0000000' });
  const types = await db().any<{ video_id: string; video_type: string }>("SELECT video_id, video_type FROM video_schedules WHERE video_id IN ('main0000005', 'main0000006') ORDER BY 1");
  t.deepEqual(types.map((r) => r.video_type), ['shorts', 'shorts'], 'under 61 s, or marked #shorts');

  const listed = await bot('main-channel');
  t.like(listed, { status: 'stopped', lastAddedCount: 72, scheduleCount: 72, errorMessage: null });
  t.truthy(listed.lastCheckAt);
});

test.serial('sync-all is idempotent: a second full pass adds nothing', async (t) => {
  const response = await api('POST', '/api/admin/bots/main-channel/sync-all');
  t.deepEqual(response.body, { success: true, added: 0, total: 72 });
  t.is(await videoCount(MAIN_CHANNEL), 72);
  const stored = await db().one<{ rows: number; videos: number }>('SELECT count(*)::int AS rows, count(DISTINCT video_id)::int AS videos FROM video_schedules');
  t.is(stored.rows, stored.videos, 'no video stored twice');
});

test.serial('a started bot runs a regular pass: newest first, stopping at the first video with a schedule', async (t) => {
  const videos = mainChannelVideos();
  const newer = ['루미네 신곡 티저', '광고 루미네', '유나비 vlog'].map((title, i) => ({ videoId: `new${String(i).padStart(8, '0')}`, title, publishedAt: `2026-04-0${i + 1}T09:00:00Z` }));
  fake.setChannel(MAIN_CHANNEL, [...videos, ...newer]);
  const before = fake.requests.length;
  t.is((await api('POST', '/api/admin/bots/main-channel/start')).status, 200);
  const done = await waitFor('the runner pass', async () => {
    const current = await bot('main-channel');
    return current.lastAddedCount === 2 ? current : null;
  });
  t.is(done.status, 'running');
  t.truthy(done.nextRunAt);
  const pages = fake.requests.slice(before).filter((r) => r.endpoint === 'playlistItems');
  t.is(pages.length, 1, 'the first page holds a stored video: no further page');
  t.is(pages[0]!.params.pageToken, undefined);
  await waitFor('the schedule writer', async () => (await videoCount(MAIN_CHANNEL)) === 74);
  t.deepEqual(await membersOfVideo('new00000002'), [YUNA]);
  t.deepEqual((await api('POST', '/api/admin/bots/main-channel/stop')).body, { success: true, status: 'stopped' });
});

test.serial('default members: with extraction off, every video of the bot gets the configured members', async (t) => {
  const response = await api('POST', '/api/admin/bots/sub-channel/sync-all');
  t.deepEqual(response.body, { success: true, added: 2, total: 2 });
  await waitFor('the schedule writer', async () => (await videoCount(SUB_CHANNEL)) === 2);
  t.deepEqual(await membersOfVideo('sub00000001'), [HARIN]);
  t.deepEqual(await membersOfVideo('sub00000002'), [HARIN], 'the group name is not looked for');
});

test.serial('quotaExceeded sets the warning and pauses video bots; DELETE clears it and they resume', async (t) => {
  fake.setQuotaExceeded(true);
  const refused = await api('POST', '/api/admin/bots/quota-channel/sync-all');
  t.is(refused.status, 503);
  t.regex(refused.body.error, /할당량/);
  const warning = await api('GET', '/api/admin/bots/quota-warning');
  t.is(warning.status, 200);
  t.like(warning.body, { active: true, message: refused.body.error });
  t.true(Math.abs(Date.parse(warning.body.since) - Date.now()) < 60_000);
  t.true(Date.parse(warning.body.resumeAt) > Date.now(), 'until the next midnight in Los Angeles');
  t.like(await bot('quota-channel'), { status: 'stopped', errorMessage: null }, 'the quota is not the bot’s error');

  // While the warning is active the runner leaves video bots alone, even started ones.
  fake.setQuotaExceeded(false);
  fake.setChannel(QUOTA_CHANNEL, [
    { videoId: 'quo00000001', title: '할당량 영상', publishedAt: '2026-03-02T03:00:00Z' },
    { videoId: 'quo00000002', title: '할당량 이후 영상', publishedAt: '2026-03-04T03:00:00Z' },
  ]);
  const checkedBefore = (await bot('quota-channel')).lastCheckAt as string | null;
  const before = fake.requests.length;
  await api('POST', '/api/admin/bots/quota-channel/start');
  await new Promise((resolve) => setTimeout(resolve, 2_500)); // more than one poll of the runner
  t.is(fake.requests.length, before, 'no call while paused');
  // 1 when the start-and-stop test's start got a pass in before its stop, else 0: a race of that test.
  const storedBefore = await videoCount(QUOTA_CHANNEL);
  t.log(`quota channel videos stored before the pass: ${storedBefore}`);

  t.deepEqual((await api('DELETE', '/api/admin/bots/quota-warning')).body, { success: true });
  t.deepEqual((await api('GET', '/api/admin/bots/quota-warning')).body, { active: false, message: null, since: null, resumeAt: null });
  await waitFor('the paused bot to run', async () => (await bot('quota-channel')).lastCheckAt !== checkedBefore);
  t.is((await bot('quota-channel')).lastAddedCount, 2 - storedBefore, `the videos not stored before (${storedBefore} was)`);
  await waitFor('the schedule writer', async () => (await videoCount(QUOTA_CHANNEL)) === 2);
  await api('POST', '/api/admin/bots/quota-channel/stop');
});

test.serial('a platform error sets the bot’s error status and message, retried with backoff; start clears it', async (t) => {
  fake.failNext(500);
  await api('POST', '/api/admin/bots/broken-channel/start');
  const failed = await waitFor('the error status', async () => {
    const current = await bot('broken-channel');
    return current.status === 'error' ? current : null;
  });
  t.regex(failed.errorMessage, /HTTP 500/);
  t.false(failed.errorMessage.includes(API_KEY));
  const retryInMs = Date.parse(failed.nextRunAt) - Date.now();
  t.true(retryInMs > 30_000 && retryInMs <= 60_000, `first retry after a minute (${retryInMs} ms)`);

  // A second failure doubles the wait (the runner's retry, driven here by a direct pass).
  fake.failNext(503);
  const record = (await botById(db(), 'broken-channel'))!;
  await t.throwsAsync(runBotPass(createBotDeps(service.running.services), record, { full: false }));
  const again = await bot('broken-channel');
  t.regex(again.errorMessage, /HTTP 503/);
  const secondRetry = Date.parse(again.nextRunAt) - Date.now();
  t.true(secondRetry > 90_000 && secondRetry <= 120_000, `second retry after two minutes (${secondRetry} ms)`);

  const restarted = await api('POST', '/api/admin/bots/broken-channel/start');
  t.deepEqual(restarted.body, { success: true, status: 'running' });
  await waitFor('a clean pass', async () => {
    const current = await bot('broken-channel');
    return current.status === 'running' && current.errorMessage === null && current.lastAddedCount === 1;
  });
  await api('POST', '/api/admin/bots/broken-channel/stop');
});

test.serial('a microblog bot without MICROBLOG_MIRROR_URL is disabled with a clear message', async (t) => {
  const deps = { ...createBotDeps(service.running.services), microblogReader: null };
  // Started, but not due: the runner of this service (which has a mirror) must not run it meanwhile.
  await db().none("UPDATE bots SET status = 'running', next_run_at = now() + interval '1 day' WHERE id = 'official-posts'");
  const record = (await botById(db(), 'official-posts'))!;
  await t.throwsAsync(runBotPass(deps, record, { full: false }), { instanceOf: BotUnavailableError });
  t.like(await bot('official-posts'), { status: 'error', errorMessage: MICROBLOG_UNAVAILABLE });
  await api('POST', '/api/admin/bots/official-posts/stop');
});

// ---- video-info, save, update ----------------------------------------------------------------------

test.serial('video-info accepts watch, shorts, youtu.be and bare ids and answers from the configured API', async (t) => {
  const id = 'main0000001';
  for (const url of [`https://www.youtube.com/watch?v=${id}&t=42s`, `https://m.youtube.com/watch?v=${id}`, `https://youtube.com/shorts/${id}`, `https://youtu.be/${id}?si=abc`, id]) {
    const response = await api('GET', `/api/admin/video/video-info?url=${encodeURIComponent(url)}`);
    t.is(response.status, 200, url);
    t.deepEqual(response.body, {
      videoId: id,
      title: '하리니 vlog 1',
      channelId: MAIN_CHANNEL,
      channelName: 'LUMINE 루미네',
      publishedAt: '2026-03-01T16:30:00.000Z',
      date: '2026-03-02',
      time: '01:30',
      thumbnailUrl: `https://i.ytimg.com/vi/${id}/maxresdefault.jpg`,
      videoType: 'video',
      existingScheduleId: (await db().one<{ schedule_id: number }>('SELECT schedule_id FROM video_schedules WHERE video_id = $1', [id])).schedule_id,
    });
  }
  const fresh = await api('GET', '/api/admin/video/video-info?url=main0000004');
  t.is(fresh.body.existingScheduleId, null);
  const short = await api('GET', '/api/admin/video/video-info?url=main0000005');
  t.is(short.body.videoType, 'shorts');
  const unknown = await api('GET', '/api/admin/video/video-info?url=zzzzzzzzzzz');
  t.is(unknown.status, 404);
});

test.serial('video-info refuses other hosts and schemes with 400 and never reaches the platform for them', async (t) => {
  const before = fake.requests.length;
  for (const url of ['http://evil.example/watch?v=main0000001', 'javascript:alert(1)', 'file:///etc/passwd', 'main00000<>', 'https://youtube.com.evil.example/watch?v=main0000001', 'http://127.0.0.1:1/watch?v=main0000001', '']) {
    const response = await api('GET', `/api/admin/video/video-info?url=${encodeURIComponent(url)}`);
    t.is(response.status, 400, url);
    t.is(typeof response.body.error, 'string');
  }
  t.is((await api('GET', '/api/admin/video/video-info')).status, 400);
  t.is(fake.requests.length, before);
});

test.serial('video-info: the platform quota answers 503 with the quota message and sets the warning', async (t) => {
  fake.setQuotaExceeded(true);
  const response = await api('GET', '/api/admin/video/video-info?url=main0000004');
  fake.setQuotaExceeded(false);
  t.is(response.status, 503);
  t.regex(response.body.error, /할당량/);
  t.true((await api('GET', '/api/admin/bots/quota-warning')).body.active);
  await api('DELETE', '/api/admin/bots/quota-warning');
});

test.serial('saving a video: 201 {id}, searchable at once, logged; the same video again is 409', async (t) => {
  const info = (await api('GET', '/api/admin/video/video-info?url=main0000004')).body;
  const response = await api('POST', '/api/admin/video/schedule', { ...info, title: '루미네 스페셜 클립', memberIds: [SEOA], description: '직접 등록한 영상' });
  t.is(response.status, 201, JSON.stringify(response.body));
  const id = response.body.id as number;
  const detail = (await api('GET', `/api/schedules/${id}`, undefined, null)).body;
  t.like(detail, { title: '루미네 스페셜 클립', date: '2026-03-02', time: '04:30', description: '직접 등록한 영상', video: { videoId: 'main0000004', channelName: 'LUMINE 루미네', videoType: 'video' } });
  t.deepEqual(detail.members.map((m: { id: number }) => m.id), [SEOA]);
  const found = await api('GET', `/api/schedules/?search=${encodeURIComponent('스페셜 클립')}`, undefined, null);
  t.true(found.body.schedules.some((s: { id: number }) => s.id === id), 'read-your-write through the index');
  t.is((await db().one<{ n: number }>("SELECT count(*)::int AS n FROM activity_log WHERE target_type = 'video_schedule' AND target_id = $1", [String(id)])).n, 1);

  const again = await api('POST', '/api/admin/video/schedule', info);
  t.is(again.status, 409);
  t.is(typeof again.body.error, 'string');
  const stored = await api('POST', '/api/admin/video/schedule', { ...info, videoId: 'main0000000' });
  t.is(stored.status, 409, 'a video the bot stored');
  const badMember = await api('POST', '/api/admin/video/schedule', { ...info, videoId: 'main0000009', memberIds: [999] });
  t.is(badMember.status, 400);
  const noTitle = await api('POST', '/api/admin/video/schedule', { ...info, videoId: 'main0000009', title: '' });
  t.is(noTitle.status, 400);
});

test.serial('PUT updates a video schedule; other schedules and unknown ids are 404', async (t) => {
  const scheduleId = (await db().one<{ schedule_id: number }>("SELECT schedule_id FROM video_schedules WHERE video_id = 'main0000002'")).schedule_id;
  const response = await api('PUT', `/api/admin/video/schedule/${scheduleId}`, { title: '강서아 정유나 브이로그 (수정)', date: '2026-05-05', time: '', memberIds: [SEOA], description: '설명' });
  t.is(response.status, 200);
  t.deepEqual(response.body, { id: scheduleId });
  const detail = (await api('GET', `/api/schedules/${scheduleId}`, undefined, null)).body;
  t.like(detail, { title: '강서아 정유나 브이로그 (수정)', date: '2026-05-05', time: null, description: '설명' });
  t.deepEqual(detail.members.map((m: { id: number }) => m.id), [SEOA]);
  const partial = await api('PUT', `/api/admin/video/schedule/${scheduleId}`, { time: '21:00' });
  t.is(partial.status, 200);
  t.like((await api('GET', `/api/schedules/${scheduleId}`, undefined, null)).body, { title: '강서아 정유나 브이로그 (수정)', time: '21:00' });
  const found = await api('GET', `/api/schedules/?search=${encodeURIComponent('브이로그')}`, undefined, null);
  t.true(found.body.schedules.some((s: { id: number }) => s.id === scheduleId));

  const { id: other } = await db().one<{ id: number }>("INSERT INTO schedules (category_id, title, date) VALUES (1, '방송', '2026-05-01') RETURNING id");
  t.is((await api('PUT', `/api/admin/video/schedule/${other}`, { title: 'x' })).status, 404);
  t.is((await api('PUT', '/api/admin/video/schedule/999999', { title: 'x' })).status, 404);
  t.is((await api('PUT', `/api/admin/video/schedule/${scheduleId}`, { date: '2026-02-30' })).status, 400);
});

// ---- microblog ------------------------------------------------------------------------------------

const POSTS: FakePost[] = Array.from({ length: 25 }, (_, i) => {
  const createdAt = new Date(Date.UTC(2026, 2, 10, 3, 4) - i * 3_600_000).toISOString();
  const texts = ['오늘 저녁 8시 루미네 음악방송 출연!', '하리니 생일 축하해요 🎂', '서아공주 라디오 출연 안내\n주소는 프로필에'];
  return { id: snowflakeFor(createdAt, i + 1), text: `${texts[i % 3]} (${i})`, createdAt, ...(i === 0 ? { images: ['GxAbC1.jpg', 'GxAbC2.png'] } : {}) };
});

test.serial('post-info reads a mirror URL and a platform URL through real Chromium', async (t) => {
  mirror.setPosts(ACCOUNT, POSTS, { displayName: 'LUMINE 루미네' });
  const post = POSTS[0]!;
  const expected = {
    postId: post.id,
    username: ACCOUNT,
    displayName: 'LUMINE 루미네',
    text: post.text,
    createdAt: post.createdAt,
    date: '2026-03-10',
    time: '12:04',
    imageUrls: ['https://pbs.twimg.com/media/GxAbC1?format=jpg&name=orig', 'https://pbs.twimg.com/media/GxAbC2?format=png&name=orig'],
    existingScheduleId: null,
  };
  for (const url of [`${mirror.url}/${ACCOUNT}/status/${post.id}`, `https://x.com/${ACCOUNT}/status/${post.id}`, `https://twitter.com/${ACCOUNT}/status/${post.id}?s=20`]) {
    const response = await api('GET', `/api/admin/microblog/post-info?url=${encodeURIComponent(url)}`);
    t.is(response.status, 200, `${url}: ${JSON.stringify(response.body)}`);
    t.deepEqual(response.body, expected);
  }
  const missing = await api('GET', `/api/admin/microblog/post-info?url=${encodeURIComponent(`https://x.com/${ACCOUNT}/status/1234567890123456789`)}`);
  t.is(missing.status, 404);
});

test.serial('post-info refuses other hosts with 400 and never fetches them', async (t) => {
  const before = mirror.requests.length;
  const id = POSTS[0]!.id;
  for (const url of [`https://evil.example/${ACCOUNT}/status/${id}`, `http://127.0.0.1:1/${ACCOUNT}/status/${id}`, 'javascript:alert(1)', 'file:///etc/passwd', `https://x.com.evil.example/${ACCOUNT}/status/${id}`, '']) {
    const response = await api('GET', `/api/admin/microblog/post-info?url=${encodeURIComponent(url)}`);
    t.is(response.status, 400, url);
  }
  // Images and styles of the page read before may still arrive; no page was asked for.
  const pages = mirror.requests.slice(before).filter((path) => !/^\/(pic|css|js)\/|^\/(logo\.png|favicon\.ico)$/.test(path));
  t.deepEqual(pages, []);
});

test.serial('saving a post: 201 {id} with its images; the same post again is 409', async (t) => {
  const info = (await api('GET', `/api/admin/microblog/post-info?url=${encodeURIComponent(`https://x.com/${ACCOUNT}/status/${POSTS[1]!.id}`)}`)).body;
  const response = await api('POST', '/api/admin/microblog/schedule', { ...info, memberIds: [HARIN] });
  t.is(response.status, 201, JSON.stringify(response.body));
  const detail = (await api('GET', `/api/schedules/${response.body.id}`, undefined, null)).body;
  t.like(detail, { title: POSTS[1]!.text, date: '2026-03-10', time: '11:04', post: { postId: POSTS[1]!.id, username: ACCOUNT, imageUrls: [] } });
  t.deepEqual(detail.members.map((m: { id: number }) => m.id), [HARIN]);
  t.is((await api('POST', '/api/admin/microblog/schedule', info)).status, 409);
  t.is((await api('POST', '/api/admin/microblog/schedule', { ...info, postId: 'abc' })).status, 400);
});

test.serial('microblog sync-all reads the whole timeline, extracts members from the text, and is idempotent', async (t) => {
  const response = await api('POST', '/api/admin/bots/official-posts/sync-all');
  t.is(response.status, 200, JSON.stringify(response.body));
  t.deepEqual(response.body, { success: true, added: 24, total: 25 }, 'one post was saved by hand already');
  const count = () => db().one<{ n: number }>('SELECT count(*)::int AS n FROM post_schedules WHERE username = $1', [ACCOUNT]).then((row) => row.n);
  await waitFor('the schedule writer', async () => (await count()) === 25);
  const members = async (post: FakePost) =>
    (await db().any<{ member_id: number }>('SELECT m.member_id FROM post_schedules p JOIN schedule_members m USING (schedule_id) WHERE p.post_id = $1 ORDER BY 1', [post.id])).map((r) => r.member_id);
  t.deepEqual(await members(POSTS[0]!), [HARIN, SEOA, YUNA], 'group name');
  t.deepEqual(await members(POSTS[2]!), [SEOA], 'nickname');
  t.deepEqual(await members(POSTS[1]!), [HARIN], 'saved by hand: left as it was');
  const images = await db().one<{ image_urls: string[] }>('SELECT image_urls FROM post_schedules WHERE post_id = $1', [POSTS[0]!.id]);
  t.is(images.image_urls.length, 2);
  t.deepEqual((await api('POST', '/api/admin/bots/official-posts/sync-all')).body, { success: true, added: 0, total: 25 });
  t.like(await bot('official-posts'), { scheduleCount: 25, lastAddedCount: 0 });
});

// ---- authentication ---------------------------------------------------------------------------------

test.serial('every bot and platform route answers 401 without an administrator token', async (t) => {
  const routes: Array<[string, string]> = [
    ['GET', '/api/admin/bots/'],
    ['POST', '/api/admin/bots/main-channel/start'],
    ['POST', '/api/admin/bots/main-channel/stop'],
    ['POST', '/api/admin/bots/main-channel/sync-all'],
    ['GET', '/api/admin/bots/quota-warning'],
    ['DELETE', '/api/admin/bots/quota-warning'],
    ['GET', '/api/admin/video/video-info?url=main0000001'],
    ['POST', '/api/admin/video/schedule'],
    ['PUT', '/api/admin/video/schedule/1'],
    ['GET', `/api/admin/microblog/post-info?url=${encodeURIComponent(`https://x.com/${ACCOUNT}/status/1`)}`],
    ['POST', '/api/admin/microblog/schedule'],
  ];
  const before = fake.requests.length;
  for (const [method, path] of routes) {
    t.is((await api(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}, null)).status, 401, `${method} ${path}`);
    t.is((await api(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}, 'not-a-token')).status, 401, `${method} ${path} (bad token)`);
  }
  t.is(fake.requests.length, before);
  t.is((await bot('main-channel')).status, 'stopped');
});

test.serial('the OpenAPI document describes the bot and platform routes', async (t) => {
  const doc = (await api('GET', '/api/openapi.json', undefined, null)).body;
  for (const [path, method] of [
    ['/api/admin/bots', 'get'], ['/api/admin/bots/{id}/start', 'post'], ['/api/admin/bots/{id}/stop', 'post'], ['/api/admin/bots/{id}/sync-all', 'post'],
    ['/api/admin/bots/quota-warning', 'get'], ['/api/admin/bots/quota-warning', 'delete'], ['/api/admin/video/video-info', 'get'], ['/api/admin/video/schedule', 'post'],
    ['/api/admin/video/schedule/{id}', 'put'], ['/api/admin/microblog/post-info', 'get'], ['/api/admin/microblog/schedule', 'post'],
  ] as const) {
    const operation = doc.paths[path]?.[method];
    t.truthy(operation, `${method} ${path}`);
    t.deepEqual(operation.security, [{ adminToken: [] }], `${method} ${path}`);
  }
});

// ---- a new BOTS_CONFIG at the next start ----------------------------------------------------------------

test.serial('BOTS_CONFIG at a later start: definitions updated, state kept, new bots stopped, removed bots gone', async (t) => {
  await api('POST', '/api/admin/bots/main-channel/start');
  const next = [
    { ...BOTS[0]!, name: '루미네 공식 (개명)', intervalMinutes: 45 },
    BOTS[1]!,
    { id: 'fan-channel', name: '팬 채널', type: 'video', intervalMinutes: 120, config: { channelId: 'UCfanchannel000000000000', channelName: '팬' } },
  ];
  const file = join(configDir, 'next.json');
  await writeFile(file, JSON.stringify(next));
  await syncBotDefinitions(db(), await loadBotDefinitions(file)); // what the bots role does at start
  const list = (await api('GET', '/api/admin/bots/')).body as Array<Record<string, any>>;
  t.deepEqual(list.map((b) => b.id), ['fan-channel', 'main-channel', 'sub-channel']);
  t.like(list[1], { name: '루미네 공식 (개명)', intervalMinutes: 45, status: 'running', scheduleCount: 75 });
  t.like(list[0], { status: 'stopped', lastCheckAt: null });
  await api('POST', '/api/admin/bots/main-channel/stop');
});

// ---- collected text ----------------------------------------------------------------------------------

test.serial('collected text: control characters in a video’s title and description are removed before it is stored; tabs and line breaks stay', async (t) => {
  fake.setChannel(SUB_CHANNEL, [
    { videoId: 'sub00000001', title: '오늘의 일상', publishedAt: '2026-03-02T03:00:00Z' },
    { videoId: 'sub00000002', title: '루미네 연습실', publishedAt: '2026-03-03T03:00:00Z' },
    { videoId: 'sub00000003', title: '\u001b[2J하린\u0007 브이로그\u0085', description: '첫 줄\r\n둘째 줄\u0000\t끝\u007f\u009b', publishedAt: '2026-03-04T03:00:00Z' },
  ]);
  const response = await api('POST', '/api/admin/bots/sub-channel/sync-all');
  t.is(response.status, 200, JSON.stringify(response.body));
  const row = await waitFor('the schedule writer', () => db().oneOrNone<{ title: string; description: string }>(
    "SELECT s.title, s.description FROM video_schedules v JOIN schedules s ON s.id = v.schedule_id WHERE v.video_id = 'sub00000003'"));
  t.deepEqual(row, { title: '[2J하린 브이로그', description: '첫 줄\n둘째 줄\t끝' });
});
